import { ArrowLeftIcon, EyeIcon, Loader2Icon, PaperclipIcon, SendIcon, TriangleAlertIcon } from 'lucide-react';
import { plural } from '../../../contract/text';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import type { TBulkJob } from '../../../contract/bulk';
import { columnLetter } from '../../../contract/bulk';
import { ZMailMergeBody, type TMailMergeBody, type TMailMergeOptions, type TMailMergePreview } from '../../../contract/delivery';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { NativeSelect } from '../../components/ui/native-select';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { formatNumber } from '../../lib/utils';
import { AddressInput } from './address-input';
import { useMailMergePreview, useStartMailMerge } from './api';
import { StandardWords } from './standard-words';
import { OwnWordsFields } from './own-words-fields';

type TStep = 'edit' | 'preview';

/** The form's values; what is sent is `bodyOf` them. */
type TMergeValues = { addressColumn: number; cc: string[]; subject: string; message: string };
const MERGE_FIELDS = ['addressColumn', 'cc', 'subject', 'message'] as const;

/** An account that may not write its own words sends the standard email: no subject or message. */
const bodyOf = (values: TMergeValues, ownWords: boolean): TMailMergeBody =>
  ownWords ? { ...values, subject: values.subject.trim() } : { addressColumn: values.addressColumn, cc: values.cc };

/** The contract's check of the body, each refusal under the field it is about. */
function mergeSchema(ownWords: boolean) {
  return z.object({ addressColumn: z.number(), cc: z.array(z.string()), subject: z.string(), message: z.string() }).superRefine((values, ctx) => {
    const placed = new Set<string>();
    for (const issue of ZMailMergeBody.safeParse(bodyOf(values, ownWords)).error?.issues ?? []) {
      const field = String(issue.path[0]);
      if (!(MERGE_FIELDS as readonly string[]).includes(field) || placed.has(field)) continue;
      placed.add(field);
      ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
    }
  });
}

/** The mail merge being set up: where it goes, what it says, its preview, and sending it. */
function useMergeDraft(job: TBulkJob, options: TMailMergeOptions, onOpenChange: (open: boolean) => void) {
  const [step, setStep] = useState<TStep>('edit');
  const [preview, setPreview] = useState<TMailMergePreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<TMergeValues>({
    resolver: zodResolver(mergeSchema(options.ownWords)),
    defaultValues: { addressColumn: options.suggestedColumn ?? 0, cc: [], subject: options.defaults.subject, message: options.defaults.message },
    reValidateMode: 'onSubmit',
  });
  const messageRef = useRef<HTMLTextAreaElement | null>(null);
  const previewCall = useMailMergePreview();
  const start = useStartMailMerge();

  const insertTag = (name: string) => {
    const el = messageRef.current;
    const message = form.getValues('message');
    const tag = `{{${name}}}`;
    const at = el?.selectionStart ?? message.length;
    const end = el?.selectionEnd ?? message.length;
    form.setValue('message', message.slice(0, at) + tag + message.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + tag.length, at + tag.length);
    });
  };

  /** Puts the server's reasons under their fields, and its message where the dialog shows errors. */
  const refused = (fallback: string) => (failure: unknown) => {
    if (isUnauthorizedError(failure)) return;
    const problem = readApiError(failure, fallback);
    for (const [key, text] of Object.entries(problem.fields)) {
      const field = key.split('.')[0] as (typeof MERGE_FIELDS)[number];
      if (MERGE_FIELDS.includes(field)) form.setError(field, { type: 'server', message: text });
    }
    setError(problem.message);
  };

  const showPreview = () => {
    setError(null);
    void form.handleSubmit((values) =>
      previewCall.mutate(
        { jobId: job.id, body: bodyOf(values, options.ownWords) },
        {
          onSuccess: (p) => {
            setPreview(p);
            setStep('preview');
          },
          onError: refused('The preview could not be made.'),
        },
      ),
    )();
  };

  const send = () =>
    start.mutate(
      { jobId: job.id, body: bodyOf(form.getValues(), options.ownWords) },
      {
        onSuccess: (merge) => {
          toast({
            title: 'Emails on their way',
            description: `${plural(merge.total - merge.failed, 'document')} ${merge.total - merge.failed === 1 ? 'is' : 'are'} being emailed.`,
          });
          onOpenChange(false);
        },
        onError: refused('The emails could not be queued.'),
      },
    );

  return { step, setStep, form, preview, error, messageRef, previewCall, start, insertTag, showPreview, send };
}

type MergeDraft = ReturnType<typeof useMergeDraft>;

/** Step one: the address column, Cc, and the subject and message (or the standard words). */
function MergeEditStep({ id, options, draft }: { id: string; options: TMailMergeOptions; draft: MergeDraft }) {
  const { form, messageRef, insertTag } = draft;
  const { errors } = form.formState;
  return (
    <div className="grid min-w-0 gap-4">
      <Field
        id={`${id}-column`}
        label="Send each document to the address in"
        hint="A column of the spreadsheet this batch came from."
        error={errors.addressColumn?.message}
      >
        <Controller
          control={form.control}
          name="addressColumn"
          render={({ field }) => (
            <NativeSelect
              id={`${id}-column`}
              name={field.name}
              ref={field.ref}
              value={String(field.value)}
              onChange={(e) => field.onChange(Number(e.target.value))}
            >
              {options.columns.map((c) => (
                <option key={c.index} value={c.index}>
                  {columnLetter(c.index)} · {c.header || `Column ${c.index + 1}`}
                  {c.addresses > 0 ? ` (addresses like ${c.sample})` : ''}
                </option>
              ))}
            </NativeSelect>
          )}
        />
      </Field>
      <Field id={`${id}-cc`} label="Cc on every email" optional error={errors.cc?.message}>
        <Controller
          control={form.control}
          name="cc"
          render={({ field: { value, onChange } }) => (
            <AddressInput
              id={`${id}-cc`}
              value={value}
              onChange={onChange}
              invalid={Boolean(errors.cc)}
              describedBy={errors.cc ? `${id}-cc-error` : undefined}
              placeholder="A colleague or your CRM’s address"
            />
          )}
        />
      </Field>
      {options.ownWords ? (
        <>
          <OwnWordsFields
            id={id}
            subject={{ registration: form.register('subject', { onChange: () => form.clearErrors('subject') }), error: errors.subject?.message }}
            message={{ registration: form.register('message'), error: errors.message?.message }}
            messageRef={messageRef}
          />
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
  );
}

/** Step two: the first email as it goes out, how many will be sent, and rows without an address. */
function MergePreviewStep({ preview }: { preview: TMailMergePreview }) {
  return (
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
  );
}

export function MergeDialog({
  job,
  options,
  open,
  onOpenChange,
}: {
  job: TBulkJob;
  options: TMailMergeOptions;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const draft = useMergeDraft(job, options, onOpenChange);
  const { step, setStep, preview, error, previewCall, start, showPreview, send } = draft;

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
        {step === 'edit' ? <MergeEditStep id={id} options={options} draft={draft} /> : preview ? <MergePreviewStep preview={preview} /> : null}
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
                {start.isPending ? 'Sending...' : `Send ${plural(preview?.valid ?? 0, 'email')}`}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
