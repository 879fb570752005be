import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeftIcon, FileTextIcon, FileWarningIcon, Layers3Icon, RefreshCwIcon } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { TBulkJob } from '../../contract/bulk';
import { placeholderLabel } from '../../contract/placeholders';
import { EmptyState, EmptyStateCard } from '../components/layout/empty-state';
import { PageHeader } from '../components/layout/page-header';
import { Button } from '../components/ui/button';
import { PagedRowsTable } from '../components/paged-rows-table';
import { Card } from '../components/ui/card';
import { QueryState, SkeletonList } from '../components/query-state';
import { errorStatus } from '../lib/api';
import { formatNumber } from '../lib/utils';
import { bulkJobKeys } from '../lib/query-keys';
import { DocumentListHeader, DocumentRow } from '../features/documents/document-row';
import { useConfirmDelete } from '../features/documents/use-confirm-delete';
import { formatDate } from '../lib/utils';
import { useFormat } from '../features/formats/api';
import {
  BATCH_DOCUMENTS_PAGE_SIZE,
  errorsCsvUrl,
  isActive,
  refreshAfterBatch,
  ROW_ERRORS_PAGE_SIZE,
  useBatchDocuments,
  useBulkJob,
  useRowErrors,
} from '../features/bulk/api';
import { JobProgress } from '../features/bulk/job-progress';
import { Pager } from '../components/ui/pager';
import { MailMergeCard } from '../features/delivery/mail-merge';
import { BatchSigningCard } from '../features/signing/batch-signing';

const ROW_ERROR_COLUMNS = [
  { header: 'Row', className: 'w-16 px-5 py-2.5 font-medium sm:px-6' },
  { header: 'Column', className: 'px-3 py-2.5 font-medium' },
  { header: 'Problem', className: 'px-3 py-2.5 pr-5 font-medium sm:pr-6' },
];

/** Lists, stats and row errors catch up when the job moves on, not on every poll. */
function useRefreshOnChange(job: TBulkJob | undefined) {
  const client = useQueryClient();
  const seen = useRef<{ status: string; failed: number } | null>(null);
  useEffect(() => {
    if (!job) return;
    const prev = seen.current;
    seen.current = { status: job.status, failed: job.failed };
    if (!prev) return;
    if (prev.status !== job.status && !isActive(job.status)) void refreshAfterBatch(client, job.id);
    else if (prev.failed !== job.failed) void client.invalidateQueries({ queryKey: bulkJobKeys.errors(job.id) });
  }, [job, client]);
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[112px_minmax(0,1fr)] gap-3 py-2 text-sm sm:grid-cols-[128px_minmax(0,1fr)]">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function JobDetails({ job }: { job: TBulkJob }) {
  return (
    <Card className="p-5 sm:p-6">
      <h2 className="mb-2 text-base font-semibold">Details</h2>
      <dl className="divide-y">
        <Detail label="Format">
          {job.formatId ? (
            <Link href={`/data-entry/${encodeURIComponent(job.formatId)}`} className="font-medium text-primary underline-offset-4 hover:underline">
              {job.formatName}
            </Link>
          ) : (
            <span className="text-muted-foreground italic">{job.formatName || 'Unknown'}</span>
          )}
        </Detail>
        <Detail label="Spreadsheet">{job.fileName}</Detail>
        <Detail label="Rows">
          {formatNumber(job.total + job.skipped)} in the file
          {job.skipped > 0 ? `, ${formatNumber(job.skipped)} skipped` : ''}
        </Detail>
        <Detail label="File names">
          <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{job.fileNamePattern}.pdf</code>
        </Detail>
        <Detail label="Created">{formatDate(job.createdAt, true)}</Detail>
        <Detail label="Started">{job.startedAt ? formatDate(job.startedAt, true) : <span className="text-muted-foreground">Not yet</span>}</Detail>
        <Detail label="Finished">
          {job.finishedAt ? formatDate(job.finishedAt, true) : <span className="text-muted-foreground">{isActive(job.status) ? 'In progress' : '—'}</span>}
        </Detail>
      </dl>
    </Card>
  );
}

function BatchDocuments({ job }: { job: TBulkJob }) {
  const [offset, setOffset] = useState(0);
  const running = isActive(job.status);
  const docs = useBatchDocuments(job.id, offset, running);
  const { confirmDeleteDocument, pendingId, dialog } = useConfirmDelete();
  const list = docs.data ?? [];
  const total = job.done;

  return (
    <Card className="overflow-hidden" aria-labelledby="batch-documents-title" role="region">
      <div className="flex flex-wrap items-center justify-between gap-2 px-5 py-4 sm:px-6">
        <h2 id="batch-documents-title" className="text-base font-semibold">
          Documents <span className="font-normal text-muted-foreground tabular-nums">({formatNumber(total)})</span>
        </h2>
        {docs.isFetching && !docs.isLoading && (
          <RefreshCwIcon className="size-4 animate-spin text-muted-foreground motion-reduce:animate-none" aria-label="Refreshing" />
        )}
      </div>
      <QueryState
        query={docs}
        loading={<SkeletonList count={3} className="space-y-2 px-5 pb-5" itemClassName="h-14" />}
        errorText="Could not load the documents of this batch."
        errorClassName="px-5 pb-5"
        isEmpty={list.length === 0 && offset === 0}
        empty={
          <div className="px-5 pb-5">
            <EmptyState
              icon={FileTextIcon}
              title={running ? 'Documents will appear here' : 'No documents in this batch'}
              description={
                running
                  ? 'Each document shows up as soon as it is generated.'
                  : job.done > 0
                    ? 'The documents of this batch have been deleted.'
                    : 'No row was generated, so there is nothing to list.'
              }
            />
          </div>
        }
      >
        <DocumentListHeader withFormat={false} />
        <ul className="divide-y" aria-label="Documents in this batch">
          {list.map((d) => (
            <DocumentRow key={d.id} document={d} withFormat={false} deleting={pendingId === d.id} onDelete={() => confirmDeleteDocument(d)} />
          ))}
        </ul>
        <Pager
          label="Document pages"
          offset={offset}
          pageSize={BATCH_DOCUMENTS_PAGE_SIZE}
          shown={list.length}
          total={null}
          busy={docs.isFetching}
          onChange={setOffset}
        />
      </QueryState>
      {dialog}
    </Card>
  );
}

function RowErrors({ job }: { job: TBulkJob }) {
  const [offset, setOffset] = useState(0);
  // The Excel template's columns are named after the placeholders: show their labels instead.
  const format = useFormat(job.formatId ?? undefined);
  const columnLabel = (column: string) => {
    const p = format.data?.placeholders.find((x) => x.name === column);
    return p ? placeholderLabel(p) : column;
  };
  const expected = job.failed + job.skipped;
  const errors = useRowErrors(job.id, offset, expected > 0);
  if (expected === 0) return null;
  const list = errors.data?.errors ?? [];

  return (
    <Card className="overflow-hidden" aria-labelledby="row-errors-title" role="region">
      <div className="flex flex-wrap items-start justify-between gap-3 px-5 py-4 sm:px-6">
        <div>
          <h2 id="row-errors-title" className="text-base font-semibold">
            Rows not generated <span className="font-normal text-muted-foreground tabular-nums">({formatNumber(expected)})</span>
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">Fix these rows in your spreadsheet and upload just them as a new batch.</p>
        </div>
        <Button variant="outline" size="sm" asChild>
          <a href={errorsCsvUrl(job.id)} download>
            <FileWarningIcon aria-hidden /> Download error CSV
          </a>
        </Button>
      </div>
      <PagedRowsTable
        query={errors}
        skeletonRows={2}
        skeletonClassName="h-10"
        errorText="Could not load the row errors."
        testId="row-errors"
        columns={ROW_ERROR_COLUMNS}
        pager={{ label: 'Row error pages', offset, pageSize: ROW_ERRORS_PAGE_SIZE, shown: list.length, total: null, onChange: setOffset }}
      >
        {list.map((e, i) => (
          <tr key={`${e.row}-${e.column}-${i}`}>
            <td className="px-5 py-2.5 tabular-nums sm:px-6">{e.row}</td>
            <td className="px-3 py-2.5 font-medium break-words">{columnLabel(e.column)}</td>
            <td className="px-3 py-2.5 pr-5 text-destructive sm:pr-6">{e.message}</td>
          </tr>
        ))}
      </PagedRowsTable>
    </Card>
  );
}

/** /batches/:id — one bulk job: its live progress, its documents and the rows that did not make it. */
export function BatchPage({ batchId }: { batchId: string }) {
  const query = useBulkJob(batchId);
  const job = query.data;
  useRefreshOnChange(job);
  const notFound = errorStatus(query.error) === 404;

  return (
    <>
      <PageHeader
        title={job ? `${job.formatName} batch` : notFound ? 'Batch not found' : 'Batch'}
        description={job ? `${job.fileName} · uploaded ${formatDate(job.createdAt, true)}` : notFound ? undefined : 'Documents generated from one spreadsheet.'}
        actions={
          <>
            <Button variant="ghost" asChild>
              <Link href="/documents">
                <ArrowLeftIcon aria-hidden /> Recent Documents
              </Link>
            </Button>
            {job?.formatId && !isActive(job.status) && (
              <Button variant="outline" asChild>
                <Link href={`/data-entry/${encodeURIComponent(job.formatId)}`}>
                  <Layers3Icon aria-hidden /> New batch
                </Link>
              </Button>
            )}
          </>
        }
      />
      <QueryState
        // A missing batch is told apart from a failed load: it gets its own card.
        query={{ isLoading: query.isLoading, error: notFound ? null : query.error }}
        loading={<SkeletonList count={2} className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_360px]" itemClassName="h-64" />}
        errorText="Could not load this batch."
        isEmpty={notFound}
        empty={
          <EmptyStateCard
            icon={Layers3Icon}
            title="This batch does not exist"
            description="It may have been removed, or the link is incomplete. Your batches are listed on Recent Documents."
            action={
              <Button asChild>
                <Link href="/documents">Go to Recent Documents</Link>
              </Button>
            }
          />
        }
      >
        {() =>
          job && (
            <div className="space-y-5">
              <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_360px] lg:items-start">
                <Card className="p-5 sm:p-6">
                  <JobProgress job={job} />
                </Card>
                <JobDetails job={job} />
              </div>
              <MailMergeCard job={job} />
              <BatchSigningCard job={job} />
              <RowErrors job={job} />
              <BatchDocuments job={job} />
            </div>
          )
        }
      </QueryState>
    </>
  );
}
