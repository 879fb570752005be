import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2Icon, MailIcon, PlusIcon, SendIcon, Trash2Icon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Controller, useFieldArray, useForm, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import type { TDocument } from '../../../contract/documents';
import { signerLabel, signerRoles } from '../../../contract/placeholders';
import {
  DEFAULT_REMINDER_DAYS,
  DEFAULT_SIGNING_DAYS,
  MAX_SIGNERS,
  ZCreateSignatureRequestBody,
  type TCreateSignatureRequestBody,
  type TSignatureRequest,
} from '../../../contract/signature-requests';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { NativeSelect } from '../../components/ui/native-select';
import { Skeleton } from '../../components/ui/skeleton';
import { SwitchField } from '../../components/ui/switch-field';
import { Textarea } from '../../components/ui/textarea';
import { useVerificationRequired, VerifyEmailNotice } from '../../components/layout/verify-email-notice';
import { useEmailSettings } from '../../hooks/use-email-settings';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { AddressInput } from '../delivery/address-input';
import { useFormat } from '../formats/api';
import { useSendForSignature } from './api';

export type TSigningDocument = Pick<TDocument, 'id' | 'name' | 'formatId'>;

type TSignerRow = { name: string; email: string; order: number };
type TSendForm = { signers: TSignerRow[]; cc: string[]; message: string; expiresInDays: number; remind: boolean };

const emptySigner = (): TSignerRow => ({ name: '', email: '', order: 1 });

/** The body the contract takes, from what the form holds. */
function bodyOf(form: TSendForm, withMessage: boolean): TCreateSignatureRequestBody {
  const message = form.message.trim();
  return {
    signers: form.signers.map((s) => ({ name: s.name.trim(), email: s.email.trim().toLowerCase(), order: s.order })),
    cc: form.cc,
    ...(withMessage && message ? { message } : {}),
    expiresInDays: form.expiresInDays,
    reminderDays: form.remind ? DEFAULT_REMINDER_DAYS : [],
  };
}

/** A path of the contract's body, as the form's field that shows it (`signers`: under the list; null: above the buttons). */
function formFieldOf(path: readonly PropertyKey[]): FieldPath<TSendForm> | null {
  const [head, index, leaf] = path;
  if (head === 'signers') {
    if (typeof index === 'number' && (leaf === 'name' || leaf === 'email' || leaf === 'order')) return `signers.${index}.${leaf}`;
    return 'signers';
  }
  if (head === 'cc') return 'cc';
  if (head === 'message') return 'message';
  if (head === 'expiresInDays') return 'expiresInDays';
  if (head === 'reminderDays') return 'remind';
  return null;
}

/** The form is checked by the contract's own schema, each problem under the field it is about. */
function sendSchema(withMessage: boolean) {
  return z
    .object({
      signers: z.array(z.object({ name: z.string(), email: z.string(), order: z.number() })),
      cc: z.array(z.string()),
      message: z.string(),
      expiresInDays: z.number(),
      remind: z.boolean(),
    })
    .superRefine((form, ctx) => {
      if (!Number.isFinite(form.expiresInDays)) {
        ctx.addIssue({ code: 'custom', path: ['expiresInDays'], message: 'Give whole days.' });
        return;
      }
      const seen = new Set<string>();
      for (const issue of ZCreateSignatureRequestBody.safeParse(bodyOf(form, withMessage)).error?.issues ?? []) {
        const field = formFieldOf(issue.path);
        const key = field ?? 'root';
        if (seen.has(key)) continue;
        seen.add(key);
        ctx.addIssue({ code: 'custom', path: field ? field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : ['root'], message: issue.message });
      }
    });
}

type TSendFormReturn = UseFormReturn<TSendForm>;

/** One signer's row: name, email and the order they sign in, with a way out when there is more than one. */
function SignerRow({
  form,
  id,
  rowId,
  index,
  orders,
  onRemove,
}: {
  form: TSendFormReturn;
  id: string;
  rowId: string;
  index: number;
  orders: number[];
  onRemove: (() => void) | null;
}) {
  const label = signerLabel(index + 1);
  const fieldError = (leaf: keyof TSignerRow) => form.formState.errors.signers?.[index]?.[leaf]?.message;
  return (
    <fieldset className="grid gap-3 rounded-lg border p-3 sm:p-4" aria-labelledby={`${rowId}-label`} data-testid="signer-row">
      <div className="-my-1 flex min-h-8 items-center justify-between gap-2">
        <span id={`${rowId}-label`} className="text-[13px] font-semibold">
          {label}
        </span>
        {onRemove && (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="-mr-2 text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
            aria-label={`Remove ${label}`}
            onClick={onRemove}
          >
            <Trash2Icon aria-hidden /> Remove
          </Button>
        )}
      </div>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1.3fr)_5.5rem]">
        <Field id={`${rowId}-name`} label="Name" error={fieldError('name')}>
          <Input
            id={`${rowId}-name`}
            autoComplete="off"
            aria-invalid={Boolean(fieldError('name'))}
            aria-describedby={fieldError('name') ? `${rowId}-name-error` : undefined}
            {...form.register(`signers.${index}.name`)}
          />
        </Field>
        <Field id={`${rowId}-email`} label="Email" error={fieldError('email')}>
          <Input
            id={`${rowId}-email`}
            type="email"
            autoComplete="off"
            placeholder="name@example.com"
            aria-invalid={Boolean(fieldError('email'))}
            aria-describedby={fieldError('email') ? `${rowId}-email-error` : undefined}
            {...form.register(`signers.${index}.email`)}
          />
        </Field>
        <Field id={`${rowId}-order`} label="Order" error={fieldError('order')}>
          <NativeSelect
            id={`${rowId}-order`}
            className="w-24 sm:w-full"
            aria-describedby={`${id}-order-hint`}
            {...form.register(`signers.${index}.order`, { valueAsNumber: true })}
          >
            {orders.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
    </fieldset>
  );
}

/** Who signs, one row each, with the order hint above and a way to add another up to the contract's limit. */
function SignerRows({ form, id }: { form: TSendFormReturn; id: string }) {
  const rows = useFieldArray({ control: form.control, name: 'signers' });
  const { errors } = form.formState;
  const signersError = errors.signers?.root?.message ?? errors.signers?.message;
  const orders = Array.from({ length: rows.fields.length }, (_, i) => i + 1);
  const removeRow = (index: number) => {
    rows.remove(index);
    // An order past the new number of rows cannot be chosen any more.
    const left = form.getValues('signers');
    left.forEach((s, i) => {
      if (s.order > left.length) form.setValue(`signers.${i}.order`, left.length);
    });
  };
  return (
    <section className="grid gap-3" aria-labelledby={`${id}-signers`}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 id={`${id}-signers`} className="text-sm font-semibold">
          Signers
        </h3>
        <p id={`${id}-order-hint`} className="text-[13px] text-muted-foreground">
          Same number: they sign in any order. Higher numbers wait for lower ones.
        </p>
      </div>
      <ol className="grid gap-3">
        {rows.fields.map((row, index) => (
          <li key={row.id}>
            <SignerRow
              form={form}
              id={id}
              rowId={`${id}-signer-${row.id}`}
              index={index}
              orders={orders}
              onRemove={rows.fields.length > 1 ? () => removeRow(index) : null}
            />
          </li>
        ))}
      </ol>
      {signersError && (
        <p className="text-[13px] text-destructive" role="alert">
          {signersError}
        </p>
      )}
      {rows.fields.length < MAX_SIGNERS && (
        <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => rows.append(emptySigner())}>
          <PlusIcon aria-hidden /> Add signer
        </Button>
      )}
    </section>
  );
}

/** The request's options: who gets a copy, the sender's own message, how long it stays open and whether to remind. */
function RequestOptions({ form, id, ownWords }: { form: TSendFormReturn; id: string; ownWords: boolean }) {
  const { errors } = form.formState;
  return (
    <>
      <Field id={`${id}-cc`} label="Copy to" error={errors.cc?.message} hint="They receive the signed PDF and sign nothing." optional>
        <Controller
          control={form.control}
          name="cc"
          render={({ field: { value, onChange } }) => (
            <AddressInput
              id={`${id}-cc`}
              value={value}
              onChange={(next) => {
                onChange(next);
                form.clearErrors('cc');
              }}
              invalid={Boolean(errors.cc)}
              describedBy={errors.cc ? `${id}-cc-error` : `${id}-cc-hint`}
            />
          )}
        />
      </Field>

      {ownWords && (
        <Field id={`${id}-message`} label="Message" error={errors.message?.message} optional>
          <Textarea id={`${id}-message`} rows={3} aria-invalid={Boolean(errors.message)} {...form.register('message')} />
        </Field>
      )}

      <div className="grid gap-4 sm:grid-cols-[10rem_minmax(0,1fr)] sm:items-start">
        <Field id={`${id}-expires`} label="Open for (days)" error={errors.expiresInDays?.message}>
          <Input
            id={`${id}-expires`}
            type="number"
            inputMode="numeric"
            min={1}
            aria-invalid={Boolean(errors.expiresInDays)}
            aria-describedby={errors.expiresInDays ? `${id}-expires-error` : undefined}
            {...form.register('expiresInDays', { valueAsNumber: true })}
          />
        </Field>
        <div className="grid gap-1">
          <SwitchField
            control={form.control}
            name="remind"
            id={`${id}-remind`}
            label="Send reminders"
            hint={`To those who have not signed, ${DEFAULT_REMINDER_DAYS.join(' and ')} days after sending.`}
          />
          {errors.remind?.message && (
            <p className="text-[13px] text-destructive" role="alert">
              {errors.remind.message}
            </p>
          )}
        </div>
      </div>
    </>
  );
}

/** Sends what the form holds; a refusal goes under the fields it names, and above the buttons when it says more. */
function useSendRequest(form: TSendFormReturn, document: TSigningDocument, ownWords: boolean, onSent: (request: TSignatureRequest) => void) {
  const [formError, setFormError] = useState<string | null>(null);
  const send = useSendForSignature();
  const sendForm = form.handleSubmit((values) => {
    send.mutate(
      { documentId: document.id, body: bodyOf(values, ownWords) },
      {
        onSuccess: (request) => {
          toast({ title: 'Sent for signature', description: `${document.name} is on its way to the first signers.` });
          onSent(request);
        },
        onError: (error) => {
          if (isUnauthorizedError(error)) return;
          const problem = readApiError(error, 'The document could not be sent for signature. Please try again.');
          let placed = false;
          for (const [key, text] of Object.entries(problem.fields)) {
            const field = formFieldOf(key.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)));
            if (field) {
              form.setError(field, { type: 'server', message: text });
              placed = true;
            }
          }
          // A field's own words are short ("Add 2 signers."): the message says why.
          if (!placed || problem.message !== Object.values(problem.fields)[0]) setFormError(problem.message);
        },
      },
    );
  });
  const submit = (event: FormEvent) => {
    // React events bubble through portals: a form around the dialog's opener would submit too.
    event.stopPropagation();
    setFormError(null);
    void sendForm(event);
  };
  return { submit, formError, pending: send.isPending };
}

function SendForm({
  document,
  signerCount,
  ownWords,
  onSent,
  onClose,
}: {
  document: TSigningDocument;
  signerCount: number;
  ownWords: boolean;
  onSent: (request: TSignatureRequest) => void;
  onClose: () => void;
}) {
  const id = useId();
  const form = useForm<TSendForm>({
    resolver: zodResolver(sendSchema(ownWords)),
    defaultValues: {
      signers: Array.from({ length: Math.max(1, signerCount) }, emptySigner),
      cc: [],
      message: '',
      expiresInDays: DEFAULT_SIGNING_DAYS,
      remind: true,
    },
    // Once sent and refused, each message goes as soon as its field is right.
    reValidateMode: 'onChange',
  });
  const { submit, formError, pending } = useSendRequest(form, document, ownWords, onSent);
  const held = useVerificationRequired();
  const rootError = form.formState.errors.root?.message;

  return (
    <form onSubmit={submit} noValidate className="grid min-w-0 gap-5" aria-label="Send for signature">
      <VerifyEmailNotice doing="send documents for signature" />
      <SignerRows form={form} id={id} />
      <RequestOptions form={form} id={id} ownWords={ownWords} />
      {(formError ?? rootError) && (
        <p className="text-sm text-destructive" role="alert">
          {formError ?? rootError}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending || held}>
          {pending ? <Loader2Icon className="animate-spin" aria-hidden /> : <SendIcon aria-hidden />}
          {pending ? 'Sending...' : 'Send for signature'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * Send a document for signature: who signs and in what order, who gets a copy, a message, how long
 * it stays open and whether to remind. The format's signing fields say how many signers it needs.
 */
export function SendForSignatureDialog({
  document,
  onOpenChange,
  onSent,
}: {
  document: TSigningDocument | null;
  onOpenChange: (open: boolean) => void;
  onSent: (request: TSignatureRequest) => void;
}) {
  const settings = useEmailSettings(document !== null);
  const format = useFormat(document?.formatId ?? undefined);
  const loading = settings.isLoading || (Boolean(document?.formatId) && format.isLoading);
  const signerCount = format.data ? (signerRoles(format.data.placeholders).at(-1) ?? 1) : 1;
  const close = () => onOpenChange(false);
  return (
    <Dialog open={document !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        {document && (
          <>
            <DialogHeader>
              <DialogTitle>Send for signature</DialogTitle>
              <DialogDescription className="break-words">
                Each signer gets their own link by email to sign <span className="font-medium text-foreground">{document.name}</span> in the browser.
              </DialogDescription>
            </DialogHeader>
            {loading ? (
              <div className="grid gap-3" aria-busy>
                <Skeleton className="h-24" />
                <Skeleton className="h-9" />
                <Skeleton className="h-16" />
              </div>
            ) : settings.data?.sendsWith === 'none' ? (
              <>
                <Alert variant="info">
                  <MailIcon aria-hidden />
                  <AlertTitle>No mail server is set up yet</AlertTitle>
                  <AlertDescription>
                    <p>Formwork emails each signer their link, so it needs a mail server. Ask your administrator to set one up.</p>
                  </AlertDescription>
                </Alert>
                <DialogFooter>
                  <Button variant="outline" onClick={close}>
                    Close
                  </Button>
                </DialogFooter>
              </>
            ) : (
              <SendForm document={document} signerCount={signerCount} ownWords={settings.data?.ownWords ?? true} onSent={onSent} onClose={close} />
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
