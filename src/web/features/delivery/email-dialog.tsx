import { CheckCircle2Icon, CopyIcon, Loader2Icon, MailIcon, PaperclipIcon, RotateCcwIcon, SendIcon, TriangleAlertIcon } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { defaultEmailMessage, ZEmailDocumentBody, type TDelivery, type TShareLink } from '../../../contract/delivery';
import { MAX_RECIPIENTS, type TEmailSettings } from '../../../contract/mail';
import type { TPlaceholder } from '../../../contract/placeholders';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { Skeleton } from '../../components/ui/skeleton';
import { useEmailSettings } from '../../hooks/use-email-settings';
import { toast, toastApiError } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { mailto } from '../../lib/site';
import { formatDate } from '../../lib/utils';
import { AddressInput, isValidAddress } from './address-input';
import { StandardWords } from './standard-words';
import { OwnWordsFields } from './own-words-fields';
import { useCreateShareLink, useDelivery, useEmailDocument } from './api';
import { useVerificationRequired, VerifyEmailNotice } from '../../components/layout/verify-email-notice';

type TDocumentRef = { id: string; name: string };

/** Who the document is for, by its own values: what it holds for its format's first email placeholder. */
export function recipientOf(data: Readonly<Record<string, unknown>> | undefined, placeholders: readonly Pick<TPlaceholder, 'name' | 'type'>[]): string | null {
  const first = placeholders.find((p) => p.type === 'email');
  const value = first && data?.[first.name];
  return typeof value === 'string' && isValidAddress(value.trim()) ? value.trim() : null;
}

const ROUTE_NOTE: Record<Exclude<TEmailSettings['sendsWith'], 'none'>, string> = {
  own: 'Sent from your own mailbox, through your mail server.',
  system: 'Sent by Formwork’s mail server with your name on it; replies come to you.',
};

/** Where one email stands, in words: sending, retrying, sent (with the server's answer), or failed. */
export function DeliveryStatusPanel({ delivery, onRetry }: { delivery: TDelivery; onRetry?: () => void }) {
  const to = [...delivery.to, ...delivery.cc].join(', ');
  if (delivery.status === 'sent') {
    return (
      <Alert variant="info" data-testid="delivery-status">
        <CheckCircle2Icon aria-hidden />
        <AlertTitle>Sent to {to}</AlertTitle>
        <AlertDescription>
          <p className="wrap-anywhere">{delivery.smtpResponse ? `The mail server answered: ${delivery.smtpResponse}` : 'The mail server took it.'}</p>
          {delivery.attachment === 'link' && <p>The PDF was too large to attach, so the email carries a link to it instead.</p>}
          {delivery.error && <p className="text-destructive">{delivery.error}</p>}
        </AlertDescription>
      </Alert>
    );
  }
  if (delivery.status === 'failed') {
    return (
      <Alert variant="destructive" data-testid="delivery-status">
        <TriangleAlertIcon aria-hidden />
        <AlertTitle>Not sent</AlertTitle>
        <AlertDescription>
          <p className="break-words">{delivery.error}</p>
          {onRetry && (
            <Button variant="outline" size="sm" className="mt-2" onClick={onRetry}>
              <RotateCcwIcon aria-hidden /> Edit and send again
            </Button>
          )}
        </AlertDescription>
      </Alert>
    );
  }
  const retrying = delivery.status === 'queued' && delivery.error;
  return (
    <Alert variant="default" data-testid="delivery-status" role="status">
      <Loader2Icon className="animate-spin" aria-hidden />
      <AlertTitle>{retrying ? 'Waiting to try again' : `Sending to ${to}…`}</AlertTitle>
      <AlertDescription>
        {retrying ? (
          <p className="break-words">
            {delivery.error} Formwork tries again
            {delivery.nextAttemptAt
              ? ` at ${new Date(delivery.nextAttemptAt).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}`
              : ' shortly'}
            .
          </p>
        ) : (
          <p>You can close this window; the email goes out either way, and the document’s delivery log shows how it went.</p>
        )}
      </AlertDescription>
    </Alert>
  );
}

/** With no mail server: a draft in the user's own mail app carrying a link that opens without an account. */
function DraftWithLink({ document, suggestedTo, onClose }: { document: TDocumentRef; suggestedTo: string | null; onClose: () => void }) {
  const create = useCreateShareLink();
  const [link, setLink] = useState<TShareLink | null>(null);
  const draftOf = (l: TShareLink) =>
    mailto(
      suggestedTo ?? '',
      document.name,
      `Hello,\n\nHere is ${document.name}:\n${l.url}\n\nThe link works until ${formatDate(l.expiresAt)}.\n\nBest regards`,
    );
  const open = () => {
    if (link) {
      window.location.href = draftOf(link);
      return;
    }
    create.mutate(
      { documentId: document.id, body: { expiresInDays: 7 } },
      {
        onSuccess: (made) => {
          setLink(made);
          window.location.href = draftOf(made);
        },
        onError: toastApiError('The link could not be made'),
      },
    );
  };
  return (
    <>
      <Alert variant="info">
        <MailIcon aria-hidden />
        <AlertTitle>No mail server is set up yet</AlertTitle>
        <AlertDescription>
          <p>
            Formwork cannot send email here until an administrator sets up a mail server. Instead, open a draft in your own mail app: it carries a link that
            opens the PDF without an account, for 7 days.
          </p>
        </AlertDescription>
      </Alert>
      {link && (
        <div className="grid gap-2">
          <p className="text-sm font-medium">Link to the document</p>
          <div className="flex gap-2">
            <Input value={link.url} readOnly aria-label="Link to the document" className="font-mono text-xs" onFocus={(e) => e.target.select()} />
            <Button
              variant="outline"
              onClick={() => void navigator.clipboard.writeText(link.url).then(() => toast({ title: 'Link copied' }))}
              aria-label="Copy the link"
            >
              <CopyIcon aria-hidden />
            </Button>
          </div>
        </div>
      )}
      <DialogFooter>
        <Button variant="ghost" onClick={onClose}>
          Close
        </Button>
        <Button onClick={open} disabled={create.isPending}>
          {create.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <MailIcon aria-hidden />}
          {link ? 'Open the draft again' : 'Open a draft with a link'}
        </Button>
      </DialogFooter>
    </>
  );
}

const COMPOSE_FIELDS = ['to', 'cc', 'subject', 'message'] as const;
type TComposeField = (typeof COMPOSE_FIELDS)[number];
/** What was sent last, to start from when sending again. */
type TDraft = { to: string[]; cc: string[]; subject: string; message: string };

/** The body the contract takes: the standard words send only the addresses. */
const bodyOf = (draft: TDraft, ownWords: boolean) => (ownWords ? { ...draft, subject: draft.subject.trim() } : { to: draft.to, cc: draft.cc });

/**
 * The compose form's check: the mistakes people make typing addresses, in the form's own words,
 * then anything else the contract's body refuses, each under its field.
 */
function composeSchema(ownWords: boolean) {
  return z.object({ to: z.array(z.string()), cc: z.array(z.string()), subject: z.string(), message: z.string() }).superRefine((draft, ctx) => {
    const problems: Partial<Record<TComposeField, string>> = {};
    const { to, cc } = draft;
    if (to.length === 0) problems.to = 'Add at least one recipient.';
    const bad = [...to, ...cc].filter((a) => !isValidAddress(a));
    if (bad.length > 0) problems[to.some((a) => bad.includes(a)) ? 'to' : 'cc'] = `Not a valid email address: ${bad.join(', ')}`;
    if (to.length + cc.length > MAX_RECIPIENTS) problems.to = `To and Cc together may name at most ${MAX_RECIPIENTS} people.`;
    if (ownWords && draft.subject.trim() === '') problems.subject = 'Enter a subject.';
    if (Object.keys(problems).length === 0) {
      for (const issue of ZEmailDocumentBody.safeParse(bodyOf(draft, ownWords)).error?.issues ?? []) {
        const field = issue.path[0] as TComposeField;
        if (COMPOSE_FIELDS.includes(field)) problems[field] ??= issue.message;
      }
    }
    for (const [field, message] of Object.entries(problems)) ctx.addIssue({ code: 'custom', path: [field], message });
  });
}

function Compose({
  document,
  settings,
  initial,
  suggestedTo,
  onSent,
  onClose,
}: {
  document: TDocumentRef;
  settings: TEmailSettings;
  initial: TDraft | null;
  suggestedTo: string | null;
  onSent: (delivery: TDelivery, draft: TDraft) => void;
  onClose: () => void;
}) {
  const id = useId();
  const form = useForm<TDraft>({
    resolver: zodResolver(composeSchema(settings.ownWords)),
    defaultValues: initial ?? { to: suggestedTo ? [suggestedTo] : [], cc: [], subject: document.name, message: defaultEmailMessage(document.name) },
    // A field's message stays until the field changes or the form is sent again, as before.
    reValidateMode: 'onSubmit',
  });
  // The recipient can be known only after the form opened (the format still loading): it fills an untouched, empty To.
  useEffect(() => {
    if (!suggestedTo || form.getFieldState('to').isDirty || form.getValues('to').length > 0) return;
    form.setValue('to', [suggestedTo]);
  }, [suggestedTo, form]);
  const { errors: fieldErrors } = form.formState;
  const errors = Object.fromEntries(COMPOSE_FIELDS.map((f) => [f, fieldErrors[f]?.message])) as Partial<Record<TComposeField, string>>;
  const [showCc, setShowCc] = useState((initial?.cc.length ?? 0) > 0);
  const [formError, setFormError] = useState<string | null>(null);
  const send = useEmailDocument();
  const held = useVerificationRequired();

  const sendDraft = form.handleSubmit((draft) => {
    send.mutate(
      { documentId: document.id, body: bodyOf(draft, settings.ownWords) },
      {
        onSuccess: (delivery) => onSent(delivery, draft),
        onError: (error) => {
          if (isUnauthorizedError(error)) return;
          const problem = readApiError(error, 'The email could not be sent. Please try again.');
          for (const [key, text] of Object.entries(problem.fields)) {
            const field = key.split('.')[0] as TComposeField;
            if (COMPOSE_FIELDS.includes(field) && !form.getFieldState(field).error) form.setError(field, { type: 'server', message: text });
          }
          setFormError(problem.message);
        },
      },
    );
  });
  const submit = (event: FormEvent) => {
    // The dialog sits in a portal, but React events still bubble through the component tree: a
    // form around the dialog's opener (the generate form) would submit too.
    event.stopPropagation();
    setFormError(null);
    void sendDraft(event);
  };
  const addresses = (field: 'to' | 'cc') => (
    <Controller
      control={form.control}
      name={field}
      render={({ field: { value, onChange } }) => (
        <AddressInput
          id={`${id}-${field}`}
          value={value}
          onChange={(next) => {
            onChange(next);
            form.clearErrors(field);
          }}
          invalid={Boolean(errors[field])}
          describedBy={errors[field] ? `${id}-${field}-error` : field === 'to' ? `${id}-to-hint` : undefined}
          placeholder={field === 'to' ? 'name@example.com' : undefined}
        />
      )}
    />
  );

  return (
    <form onSubmit={submit} noValidate className="grid min-w-0 gap-4" aria-label="Email the document">
      <VerifyEmailNotice doing="send email" />
      <Field id={`${id}-to`} label="To" error={errors.to} hint={`Press Enter or comma after each address; up to ${MAX_RECIPIENTS} with Cc.`}>
        {addresses('to')}
      </Field>
      {showCc ? (
        <Field id={`${id}-cc`} label="Cc" error={errors.cc} optional>
          {addresses('cc')}
        </Field>
      ) : (
        <Button type="button" variant="link" size="sm" className="-mt-2 h-auto justify-self-start p-0" onClick={() => setShowCc(true)}>
          Add Cc
        </Button>
      )}
      {settings.ownWords ? (
        <OwnWordsFields
          id={id}
          subject={{ registration: form.register('subject', { onChange: () => form.clearErrors('subject') }), error: errors.subject }}
          message={{ registration: form.register('message'), error: errors.message }}
        />
      ) : (
        <StandardWords id={id} senderName={settings.senderName} note={settings.ownWordsNote} documentName={document.name} />
      )}
      <div className="flex min-w-0 items-center gap-2 rounded-lg border bg-muted/40 px-3 py-2.5 text-sm">
        <PaperclipIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        <span className="min-w-0 truncate font-medium" title={`${document.name}.pdf`}>
          {document.name}.pdf
        </span>
      </div>
      <p className="-mt-1 text-[13px] text-muted-foreground">{settings.sendsWith !== 'none' && ROUTE_NOTE[settings.sendsWith]}</p>
      {formError && (
        <p className="text-sm text-destructive" role="alert">
          {formError}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onClose} disabled={send.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={send.isPending || held}>
          {send.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <SendIcon aria-hidden />}
          {send.isPending ? 'Sending...' : 'Send email'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function Progress({ deliveryId, onAgain, onNew, onClose }: { deliveryId: string; onAgain: () => void; onNew: () => void; onClose: () => void }) {
  const delivery = useDelivery(deliveryId);
  return (
    <>
      {delivery.data ? <DeliveryStatusPanel delivery={delivery.data} onRetry={onAgain} /> : <Skeleton className="h-20" />}
      <DialogFooter>
        <Button variant="outline" onClick={onNew}>
          Send to someone else
        </Button>
        <Button onClick={onClose}>Done</Button>
      </DialogFooter>
    </>
  );
}

/**
 * Email a document: recipients, subject and message (prefilled with the document's name), the
 * PDF attached; then how the sending went. With no mail server, a draft with a share link instead.
 */
export function EmailDocumentDialog({
  document,
  onOpenChange,
  suggestedTo = null,
}: {
  document: TDocumentRef | null;
  onOpenChange: (open: boolean) => void;
  /** Whom To names at first (recipientOf), until the user types their own. */
  suggestedTo?: string | null;
}) {
  const settings = useEmailSettings(document !== null);
  const [sentId, setSentId] = useState<string | null>(null);
  const [draft, setDraft] = useState<TDraft | null>(null);
  const close = () => {
    onOpenChange(false);
    setSentId(null);
    setDraft(null);
  };
  return (
    <Dialog
      open={document !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
    >
      <DialogContent className="sm:max-w-lg">
        {document && (
          <>
            <DialogHeader>
              <DialogTitle>Email the document</DialogTitle>
              <DialogDescription className="break-words">
                <span className="font-medium text-foreground">{document.name}</span> goes with the email as a PDF.
              </DialogDescription>
            </DialogHeader>
            {settings.isLoading ? (
              <div className="grid gap-3" aria-busy>
                <Skeleton className="h-9" />
                <Skeleton className="h-9" />
                <Skeleton className="h-28" />
              </div>
            ) : !settings.data ? (
              <p className="text-sm text-destructive" role="alert">
                {readApiError(settings.error, 'Could not load your email settings.').message}
              </p>
            ) : settings.data.sendsWith === 'none' ? (
              <DraftWithLink document={document} suggestedTo={suggestedTo} onClose={close} />
            ) : sentId ? (
              <Progress
                deliveryId={sentId}
                onAgain={() => setSentId(null)}
                onNew={() => {
                  setDraft(null);
                  setSentId(null);
                }}
                onClose={close}
              />
            ) : (
              <Compose
                document={document}
                settings={settings.data}
                initial={draft}
                suggestedTo={suggestedTo}
                onSent={(delivery, sent) => {
                  setDraft(sent);
                  setSentId(delivery.id);
                }}
                onClose={close}
              />
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
