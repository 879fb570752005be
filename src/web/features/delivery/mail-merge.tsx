import { Clock3Icon, MailIcon } from 'lucide-react';
import { useState } from 'react';
import type { TBulkJob } from '../../../contract/bulk';
import type { TMailMerge } from '../../../contract/delivery';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { PagedRowsTable } from '../../components/paged-rows-table';
import { Card } from '../../components/ui/card';
import { QueryState, SkeletonList } from '../../components/query-state';
import { formatNumber } from '../../lib/utils';
import { isActive } from '../bulk/api';
import { useMailMergeOptions, useMailMergeRows } from './api';
import { DeliveryStatusBadge } from './delivery-log';
import { MergeDialog } from './merge-dialog';
import { useVerificationRequired, VerifyEmailNotice } from '../../components/layout/verify-email-notice';

const MERGE_ROW_COLUMNS = [
  { header: 'Row', className: 'w-16 px-5 py-2.5 font-medium sm:px-6' },
  { header: 'To', className: 'px-3 py-2.5 font-medium' },
  { header: 'Status', className: 'px-3 py-2.5 font-medium' },
  { header: 'Details', className: 'px-3 py-2.5 pr-5 font-medium sm:pr-6' },
];

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

function MergeRows({ merge }: { merge: TMailMerge }) {
  const [offset, setOffset] = useState(0);
  const [filter, setFilter] = useState<'all' | 'failed'>(merge.failed > 0 && merge.finished ? 'failed' : 'all');
  const rows = useMailMergeRows(merge.jobId, offset, filter, !merge.finished);
  const list = rows.data?.rows ?? [];
  return (
    <div className="border-t">
      <div className="flex flex-wrap items-center justify-between gap-2 px-5 py-3 sm:px-6">
        <h3 className="text-sm font-semibold">Each row</h3>
        <div className="flex gap-1" role="group" aria-label="Show rows">
          {(['all', 'failed'] as const).map((f) => (
            <Button
              key={f}
              size="sm"
              variant={filter === f ? 'secondary' : 'ghost'}
              aria-pressed={filter === f}
              onClick={() => {
                setFilter(f);
                setOffset(0);
              }}
            >
              {f === 'all' ? 'All' : `Not sent (${formatNumber(merge.failed)})`}
            </Button>
          ))}
        </div>
      </div>
      <PagedRowsTable
        query={rows}
        skeletonRows={1}
        skeletonClassName="h-24"
        errorText="Could not load the rows."
        testId="merge-rows"
        columns={MERGE_ROW_COLUMNS}
        pager={{ label: 'Mail merge row pages', offset, pageSize: 25, shown: list.length, total: rows.data?.total ?? null, onChange: setOffset }}
      >
        {list.map((r) => (
          <tr key={r.row} className="align-top">
            <td className="px-5 py-2.5 tabular-nums sm:px-6">{r.row}</td>
            <td className="min-w-[11rem] max-w-[16rem] px-3 py-2.5 break-words">{r.to || <span className="text-muted-foreground italic">none</span>}</td>
            <td className="px-3 py-2.5">
              <DeliveryStatusBadge status={r.status} />
            </td>
            <td
              className={`min-w-[12rem] px-3 py-2.5 pr-5 text-[13px] break-words sm:pr-6 ${r.status === 'failed' ? 'text-destructive' : 'text-muted-foreground'}`}
            >
              {r.error ?? (r.sentAt ? `Sent ${timeOf(r.sentAt)}` : '')}
            </td>
          </tr>
        ))}
      </PagedRowsTable>
    </div>
  );
}

function MergeProgress({ merge, emailsPerHour }: { merge: TMailMerge; emailsPerHour: number }) {
  const settled = merge.sent + merge.failed;
  const pct = merge.total > 0 ? Math.round((settled / merge.total) * 100) : 100;
  return (
    <div className="grid gap-3 px-5 pb-5 sm:px-6">
      <div
        className="h-2 overflow-hidden rounded-full bg-secondary"
        role="progressbar"
        aria-label="Emails sent"
        aria-valuemin={0}
        aria-valuemax={merge.total}
        aria-valuenow={settled}
      >
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${pct}%` }} />
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-1.5">
          <dt className="text-muted-foreground">Sent</dt>
          <dd className="font-semibold tabular-nums" data-testid="merge-sent">
            {formatNumber(merge.sent)}
          </dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-muted-foreground">Not sent</dt>
          <dd className={`font-semibold tabular-nums ${merge.failed > 0 ? 'text-destructive' : ''}`} data-testid="merge-failed">
            {formatNumber(merge.failed)}
          </dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-muted-foreground">Waiting</dt>
          <dd className="font-semibold tabular-nums">{formatNumber(merge.queued)}</dd>
        </div>
      </dl>
      {!merge.finished && merge.nextSendAt && (
        <p className="flex items-start gap-2 text-[13px] text-muted-foreground">
          <Clock3Icon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          Your plan sends to {formatNumber(emailsPerHour)} recipients an hour, so the next emails go out at {timeOf(merge.nextSendAt)}. Nothing needs to stay
          open.
        </p>
      )}
    </div>
  );
}

/** On a finished batch's page: email each document to its own row's address, and how that went. */
export function MailMergeCard({ job }: { job: TBulkJob }) {
  const finished = !isActive(job.status) && job.done > 0;
  const options = useMailMergeOptions(job.id, finished);
  const [open, setOpen] = useState(false);
  const held = useVerificationRequired();
  if (!finished) return null;
  const data = options.data;
  const merge = data?.merge;
  return (
    <Card className="overflow-hidden" role="region" aria-labelledby={`merge-${job.id}`}>
      <div className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-start sm:justify-between sm:px-6">
        <div className="min-w-0">
          <h2 id={`merge-${job.id}`} className="flex flex-wrap items-center gap-2 text-base font-semibold">
            Email each document
            {merge && <Badge variant={merge.finished ? 'success' : 'soft'}>{merge.finished ? 'Done' : 'Sending'}</Badge>}
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            {merge
              ? `Sent to the addresses in “${merge.addressHeader}”, subject “${merge.subject}”.`
              : data && !data.ownWords
                ? 'Send every document of this batch to the address in its own row, with the standard message.'
                : 'Send every document of this batch to the address in its own row, with a message filled from its fields.'}
          </p>
        </div>
        {!merge && data && (
          <Button onClick={() => setOpen(true)} disabled={data.sendsWith === 'none' || held} className="shrink-0">
            <MailIcon aria-hidden /> Email each document
          </Button>
        )}
      </div>
      {!merge && held && (
        <div className="px-5 pb-4 sm:px-6">
          <VerifyEmailNotice doing="send email" />
        </div>
      )}
      <QueryState
        query={options}
        loading={<SkeletonList count={1} className="px-5 pb-5" itemClassName="h-10" />}
        errorText="Could not load the mail merge."
        errorClassName="px-5 pb-5"
      >
        {() =>
          !data ? null : merge ? (
            <>
              <MergeProgress merge={merge} emailsPerHour={data.emailsPerHour} />
              <MergeRows merge={merge} />
            </>
          ) : data.sendsWith === 'none' ? (
            <p className="px-5 pb-5 text-sm text-muted-foreground sm:px-6">No mail server is set up yet, so documents cannot be emailed from here.</p>
          ) : null
        }
      </QueryState>
      {data && !merge && open && <MergeDialog job={job} options={data} open={open} onOpenChange={setOpen} />}
    </Card>
  );
}
