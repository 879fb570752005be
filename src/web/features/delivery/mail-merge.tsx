import { ArrowLeftIcon, Clock3Icon, EyeIcon, Loader2Icon, MailIcon, PaperclipIcon, SendIcon, TriangleAlertIcon } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import type { TBulkJob } from '../../../contract/bulk';
import { columnLetter } from '../../../contract/bulk';
import { MAX_SUBJECT_LENGTH } from '../../../contract/mail';
import type { TMailMerge, TMailMergeBody, TMailMergeOptions, TMailMergePreview } from '../../../contract/delivery';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/data-table';
import { Card } from '../../components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { LoadError } from '../../components/ui/load-error';
import { NativeSelect } from '../../components/ui/native-select';
import { Skeleton } from '../../components/ui/skeleton';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { formatNumber } from '../../lib/utils';
import { isActive } from '../bulk/api';
import { Pager } from '../../components/ui/pager';
import { AddressInput } from './address-input';
import { useMailMergeOptions, useMailMergePreview, useMailMergeRows, useStartMailMerge } from './api';
import { DeliveryStatusBadge } from './delivery-log';
import { StandardWords } from './standard-words';
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
      {rows.isLoading ? (
        <div className="px-5 pb-5">
          <Skeleton className="h-24" />
        </div>
      ) : rows.error ? (
        <div className="px-5 pb-5">
          <LoadError error={rows.error} fallback="Could not load the rows." />
        </div>
      ) : (
        <>
          <div className="overflow-x-auto">
            <DataTable className="w-full text-sm" data-testid="merge-rows" headClassName="border-y bg-muted/40 text-left text-xs text-muted-foreground" bodyClassName="divide-y" columns={MERGE_ROW_COLUMNS}>
              {list.map((r) => (
                <tr key={r.row} className="align-top">
                  <td className="px-5 py-2.5 tabular-nums sm:px-6">{r.row}</td>
                  <td className="min-w-[11rem] max-w-[16rem] px-3 py-2.5 break-words">{r.to || <span className="text-muted-foreground italic">none</span>}</td>
                  <td className="px-3 py-2.5">
                    <DeliveryStatusBadge status={r.status} />
                  </td>
                  <td className={`min-w-[12rem] px-3 py-2.5 pr-5 text-[13px] break-words sm:pr-6 ${r.status === 'failed' ? 'text-destructive' : 'text-muted-foreground'}`}>
                    {r.error ?? (r.sentAt ? `Sent ${timeOf(r.sentAt)}` : '')}
                  </td>
                </tr>
              ))}
            </DataTable>
          </div>
          <Pager label="Mail merge row pages" offset={offset} pageSize={25} shown={list.length} total={rows.data?.total ?? null} busy={rows.isFetching} onChange={setOffset} />
        </>
      )}
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
          Your plan sends to {formatNumber(emailsPerHour)} recipients an hour, so the next emails go out at {timeOf(merge.nextSendAt)}. Nothing needs to stay open.
        </p>
      )}
    </div>
  );
}

type TStep = 'edit' | 'preview';

function MergeDialog({ job, options, open, onOpenChange }: { job: TBulkJob; options: TMailMergeOptions; open: boolean; onOpenChange: (open: boolean) => void }) {
  const id = useId();
  const [step, setStep] = useState<TStep>('edit');
  const [column, setColumn] = useState<number>(options.suggestedColumn ?? 0);
  const [cc, setCc] = useState<string[]>([]);
  const [subject, setSubject] = useState(options.defaults.subject);
  const [message, setMessage] = useState(options.defaults.message);
  const [preview, setPreview] = useState<TMailMergePreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const messageRef = useRef<HTMLTextAreaElement>(null);
  const previewCall = useMailMergePreview();
  const start = useStartMailMerge();
  // An account that may not write its own words sends the standard email: no subject or message.
  const body: TMailMergeBody = options.ownWords ? { addressColumn: column, subject, message, cc } : { addressColumn: column, cc };

  const insertTag = (name: string) => {
    const el = messageRef.current;
    const tag = `{{${name}}}`;
    const at = el?.selectionStart ?? message.length;
    const end = el?.selectionEnd ?? message.length;
    setMessage(message.slice(0, at) + tag + message.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + tag.length, at + tag.length);
    });
  };

  const showPreview = () => {
    setError(null);
    if (options.ownWords && subject.trim() === '') {
      setError('Enter a subject.');
      return;
    }
    previewCall.mutate(
      { jobId: job.id, body },
      {
        onSuccess: (p) => {
          setPreview(p);
          setStep('preview');
        },
        onError: (failure) => {
          if (!isUnauthorizedError(failure)) setError(readApiError(failure, 'The preview could not be made.').message);
        },
      },
    );
  };

  const send = () =>
    start.mutate(
      { jobId: job.id, body },
      {
        onSuccess: (merge) => {
          toast({ title: 'Emails on their way', description: `${formatNumber(merge.total - merge.failed)} documents are being emailed.` });
          onOpenChange(false);
        },
        onError: (failure) => {
          if (!isUnauthorizedError(failure)) setError(readApiError(failure, 'The emails could not be queued.').message);
        },
      },
    );

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{step === 'edit' ? 'Email each document' : 'Check the first email'}</DialogTitle>
          <DialogDescription>
            {step === 'edit'
              ? `Each of the ${formatNumber(options.documents)} documents goes to the address in its own row, with its PDF attached.`
              : 'This is the first document’s email as it will go out. The others follow the same pattern with their own values.'}
          </DialogDescription>
        </DialogHeader>
        {step === 'edit' ? (
          <div className="grid min-w-0 gap-4">
            <Field id={`${id}-column`} label="Send each document to the address in" hint="A column of the spreadsheet this batch came from.">
              <NativeSelect id={`${id}-column`} value={String(column)} onChange={(e) => setColumn(Number(e.target.value))}>
                {options.columns.map((c) => (
                  <option key={c.index} value={c.index}>
                    {columnLetter(c.index)} · {c.header || `Column ${c.index + 1}`}
                    {c.addresses > 0 ? ` (addresses like ${c.sample})` : ''}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field id={`${id}-cc`} label="Cc on every email" optional>
              <AddressInput id={`${id}-cc`} value={cc} onChange={setCc} placeholder="A colleague or your CRM’s address" />
            </Field>
            {options.ownWords ? (
              <>
                <Field id={`${id}-subject`} label="Subject">
                  <Input id={`${id}-subject`} value={subject} maxLength={MAX_SUBJECT_LENGTH} onChange={(e) => setSubject(e.target.value)} />
                </Field>
                <Field id={`${id}-message`} label="Message">
                  <Textarea id={`${id}-message`} ref={messageRef} rows={6} value={message} onChange={(e) => setMessage(e.target.value)} />
                </Field>
                <div className="-mt-1 flex flex-wrap items-center gap-1.5" role="group" aria-label="Insert a field into the message">
                  <span className="text-[13px] text-muted-foreground">Insert:</span>
                  {[{ name: 'document', label: 'Document name' }, ...options.placeholders].map((p) => (
                    <Button key={p.name} type="button" variant="outline" size="sm" className="h-7 px-2 text-xs" onClick={() => insertTag(p.name)}>
                      {p.label}
                    </Button>
                  ))}
                </div>
              </>
            ) : (
              <StandardWords id={id} senderName={options.senderName} note={options.ownWordsNote} />
            )}
          </div>
        ) : preview ? (
          <div className="grid min-w-0 gap-4">
            {preview.first ? (
              <div className="grid gap-2 rounded-lg border p-4 text-sm" data-testid="merge-preview">
                <p className="wrap-anywhere">
                  <span className="text-muted-foreground">To:</span> {preview.first.to}
                  {preview.first.cc.length > 0 && <span className="text-muted-foreground"> · Cc {preview.first.cc.join(', ')}</span>}
                </p>
                <p className="break-words">
                  <span className="text-muted-foreground">Subject:</span> <span className="font-medium">{preview.first.subject}</span>
                </p>
                <p className="border-t pt-3 break-words whitespace-pre-wrap">{preview.first.message}</p>
                <p className="flex min-w-0 items-center gap-2 border-t pt-3 text-[13px] text-muted-foreground">
                  <PaperclipIcon className="size-4 shrink-0" aria-hidden />
                  <span className="truncate">{preview.first.attachmentName}</span>
                </p>
              </div>
            ) : (
              <Alert variant="destructive">
                <TriangleAlertIcon aria-hidden />
                <AlertTitle>No row has an address that can be used</AlertTitle>
                <AlertDescription>
                  <p>Choose another column.</p>
                </AlertDescription>
              </Alert>
            )}
            <p className="text-sm">
              <span className="font-semibold tabular-nums">{formatNumber(preview.valid)}</span> {preview.valid === 1 ? 'email' : 'emails'} will be sent
              {preview.invalid > 0 && (
                <>
                  ; <span className="font-semibold text-destructive tabular-nums">{formatNumber(preview.invalid)}</span>{' '}
                  {preview.invalid === 1 ? 'row has' : 'rows have'} no usable address and will be listed as not sent
                </>
              )}
              .
            </p>
            {preview.problems.length > 0 && (
              <ul className="grid gap-1 rounded-lg bg-destructive/5 px-4 py-3 text-[13px] text-destructive">
                {preview.problems.map((p) => (
                  <li key={p.row}>
                    Row {p.row}: {p.message}
                  </li>
                ))}
              </ul>
            )}
            {preview.unknownPlaceholders.length > 0 && (
              <Alert variant="default">
                <TriangleAlertIcon aria-hidden />
                <AlertTitle>Some fields are not in this format</AlertTitle>
                <AlertDescription>
                  <p>{preview.unknownPlaceholders.map((n) => `{{${n}}}`).join(', ')} will print as nothing.</p>
                </AlertDescription>
              </Alert>
            )}
          </div>
        ) : null}
        {error && (
          <p className="text-sm text-destructive" role="alert">
            {error}
          </p>
        )}
        <DialogFooter>
          {step === 'edit' ? (
            <>
              <Button variant="ghost" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button onClick={showPreview} disabled={previewCall.isPending}>
                {previewCall.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <EyeIcon aria-hidden />} Preview the first email
              </Button>
            </>
          ) : (
            <>
              <Button variant="ghost" onClick={() => setStep('edit')} disabled={start.isPending}>
                <ArrowLeftIcon aria-hidden /> Back
              </Button>
              <Button onClick={send} disabled={start.isPending || !preview?.first}>
                {start.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <SendIcon aria-hidden />}
                {start.isPending ? 'Sending...' : `Send ${formatNumber(preview?.valid ?? 0)} emails`}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
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
      {options.isLoading ? (
        <div className="px-5 pb-5">
          <Skeleton className="h-10" />
        </div>
      ) : options.error || !data ? (
        <div className="px-5 pb-5">
          <LoadError error={options.error} fallback="Could not load the mail merge." />
        </div>
      ) : merge ? (
        <>
          <MergeProgress merge={merge} emailsPerHour={data.emailsPerHour} />
          <MergeRows merge={merge} />
        </>
      ) : data.sendsWith === 'none' ? (
        <p className="px-5 pb-5 text-sm text-muted-foreground sm:px-6">No mail server is set up yet, so documents cannot be emailed from here.</p>
      ) : null}
      {data && !merge && open && <MergeDialog job={job} options={data} open={open} onOpenChange={setOpen} />}
    </Card>
  );
}
