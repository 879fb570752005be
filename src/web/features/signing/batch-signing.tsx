import { Loader2Icon, PenLineIcon } from 'lucide-react';
import { plural } from '../../../contract/text';
import { useId, useState } from 'react';
import { columnLetter, type TBulkJob } from '../../../contract/bulk';
import type { TMailMergeOptions } from '../../../contract/delivery';
import { SIGNATURE_REQUEST_STATUSES, type TBatchSignatureResult } from '../../../contract/signature-requests';
import { useVerificationRequired, VerifyEmailNotice } from '../../components/layout/verify-email-notice';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { NativeSelect } from '../../components/ui/native-select';
import { Textarea } from '../../components/ui/textarea';
import { toast, toastApiError } from '../../hooks/use-toast';
import { readApiError } from '../../lib/api';
import { formatNumber } from '../../lib/utils';
import { isActive } from '../bulk/api';
import { useMailMergeOptions } from '../delivery/api';
import { useBatchSignatureProgress, useSendBatchForSignature } from './api';
import { RequestStatusBadge } from './status-badges';

/** The column whose header or values look most like names: not the address column, else the first. */
function suggestedNameColumn(options: TMailMergeOptions, emailColumn: number): number {
  const named = options.columns.find((c) => c.index !== emailColumn && /name|signer|tenant|client|employee/i.test(c.header));
  return named?.index ?? options.columns.find((c) => c.index !== emailColumn)?.index ?? 0;
}

function ColumnSelect({ id, value, onChange, options }: { id: string; value: number; onChange: (column: number) => void; options: TMailMergeOptions }) {
  return (
    <NativeSelect id={id} value={String(value)} onChange={(e) => onChange(Number(e.target.value))}>
      {options.columns.map((c) => (
        <option key={c.index} value={c.index}>
          {columnLetter(c.index)} · {c.header || `Column ${c.index + 1}`}
          {c.sample ? ` (${c.sample})` : ''}
        </option>
      ))}
    </NativeSelect>
  );
}

function SendEachDialog({ job, options, onClose }: { job: TBulkJob; options: TMailMergeOptions; onClose: () => void }) {
  const id = useId();
  const emailDefault = options.suggestedColumn ?? 0;
  const [emailColumn, setEmailColumn] = useState(emailDefault);
  const [nameColumn, setNameColumn] = useState(() => suggestedNameColumn(options, emailDefault));
  const [message, setMessage] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<TBatchSignatureResult | null>(null);
  const send = useSendBatchForSignature(job.id);

  const submit = () => {
    setFieldErrors({});
    send.mutate(
      { nameColumn, emailColumn, ...(options.ownWords && message.trim() ? { message: message.trim() } : {}) },
      {
        onSuccess: (answer) => {
          setResult(answer);
          toast({ title: 'Sent for signature', description: `${plural(answer.created, 'signature request')} sent.` });
        },
        onError: (error) => {
          const fields = readApiError(error).fields;
          if (Object.keys(fields).length > 0) setFieldErrors(fields);
          else toastApiError('Could not send for signature')(error);
        },
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Send each document for signature</DialogTitle>
          <DialogDescription>
            Each of the batch’s {formatNumber(options.documents)} documents goes to the person in its own row, who signs it in the browser. A row is sent once,
            however often you send.
          </DialogDescription>
        </DialogHeader>
        {result ? (
          <div className="grid gap-3 text-sm" role="status">
            <p>
              <strong>{formatNumber(result.created)}</strong> sent now
              {result.alreadySent > 0 ? `, ${formatNumber(result.alreadySent)} sent before (left alone)` : ''}
              {result.failed.length > 0 ? `, ${formatNumber(result.failed.filter((f) => f.row >= 0).length)} could not be sent` : ''}.
            </p>
            {result.failed.length > 0 && (
              <Alert variant="destructive">
                <AlertTitle>Rows not sent</AlertTitle>
                <AlertDescription>
                  <ul className="mt-1 grid max-h-48 gap-1 overflow-y-auto">
                    {result.failed.map((f) => (
                      <li key={`${f.row}-${f.problem}`}>{f.row >= 0 ? `Row ${f.row}: ${f.problem}` : f.problem}</li>
                    ))}
                  </ul>
                </AlertDescription>
              </Alert>
            )}
            <DialogFooter>
              <Button onClick={onClose}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <div className="grid gap-4">
            <Field id={`${id}-name`} label="Signer’s name" hint="The column with each row’s signer." error={fieldErrors.nameColumn}>
              <ColumnSelect id={`${id}-name`} value={nameColumn} onChange={setNameColumn} options={options} />
            </Field>
            <Field id={`${id}-email`} label="Signer’s email address" error={fieldErrors.emailColumn}>
              <ColumnSelect id={`${id}-email`} value={emailColumn} onChange={setEmailColumn} options={options} />
            </Field>
            {options.ownWords && (
              <Field id={`${id}-message`} label="Message" optional hint="Above the link in every signer’s email." error={fieldErrors.message}>
                <Textarea id={`${id}-message`} rows={3} value={message} onChange={(e) => setMessage(e.target.value)} />
              </Field>
            )}
            <DialogFooter>
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button onClick={submit} disabled={send.isPending}>
                {send.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <PenLineIcon aria-hidden />}
                Send {formatNumber(options.documents)} for signature
              </Button>
            </DialogFooter>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** On a finished batch's page: send each document for signature to its own row's signer, and where they stand. */
export function BatchSigningCard({ job }: { job: TBulkJob }) {
  const finished = !isActive(job.status) && job.done > 0;
  const options = useMailMergeOptions(job.id, finished);
  const progress = useBatchSignatureProgress(job.id, finished);
  const [open, setOpen] = useState(false);
  const held = useVerificationRequired();
  if (!finished || !options.data) return null;
  const counts = progress.data;
  return (
    <Card className="overflow-hidden" role="region" aria-labelledby={`signing-${job.id}`}>
      <div className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-start sm:justify-between sm:px-6">
        <div className="min-w-0">
          <h2 id={`signing-${job.id}`} className="text-base font-semibold">
            Send each for signature
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            {counts && counts.requests > 0
              ? `${formatNumber(counts.requests)} of ${plural(options.data.documents, 'document')} sent for signature.`
              : 'Send every document of this batch to the signer named in its own row.'}
          </p>
        </div>
        <Button variant="outline" onClick={() => setOpen(true)} disabled={options.data.sendsWith === 'none' || held} className="shrink-0">
          <PenLineIcon aria-hidden /> {counts && counts.requests > 0 ? 'Send the rest' : 'Send each for signature'}
        </Button>
      </div>
      {held && (
        <div className="px-5 pb-4 sm:px-6">
          <VerifyEmailNotice doing="send documents for signature" />
        </div>
      )}
      {counts && counts.requests > 0 && (
        <ul className="flex flex-wrap gap-2 px-5 pb-5 sm:px-6" aria-label="Signature requests by status">
          {SIGNATURE_REQUEST_STATUSES.filter((status) => counts.byStatus[status] > 0).map((status) => (
            <li key={status} className="flex items-center gap-1.5 text-sm">
              <RequestStatusBadge status={status} />
              <span className="tabular-nums">{formatNumber(counts.byStatus[status])}</span>
            </li>
          ))}
        </ul>
      )}
      {open && <SendEachDialog job={job} options={options.data} onClose={() => setOpen(false)} />}
    </Card>
  );
}
