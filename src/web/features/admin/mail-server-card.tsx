import { CheckCircle2Icon, Loader2Icon, MailIcon, PencilIcon, SendIcon, Trash2Icon, TriangleAlertIcon } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  DEFAULT_SMTP_PORT,
  IMPLICIT_TLS_PORT,
  ZSystemMailSettingsInput,
  type TSystemMailSettings,
  type TSystemMailSettingsParsed,
} from '../../../contract/mail';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Input } from '../../components/ui/input';
import { SwitchField } from '../../components/ui/switch-field';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { toast, toastApiError } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { formatNumber } from '../../lib/utils';
import { Field } from './admin-ui';
import { useDeleteSystemMail, useSaveSystemMail, useSystemMail, useTestSystemMail } from './api';
import { IconTile } from '../../components/ui/icon-tile';

type TForm = { host: string; port: string; secure: boolean; user: string; password: string; fromAddress: string; fromName: string };
type TName = keyof TForm;

const formOf = (s: TSystemMailSettings): TForm => ({
  host: s.host ?? '',
  port: String(s.port || DEFAULT_SMTP_PORT),
  secure: s.secure,
  user: s.user,
  password: '',
  fromAddress: s.fromAddress ?? '',
  fromName: s.fromName,
});

/**
 * The contract's own check on what the form holds: an empty password keeps the saved one, an
 * empty port means the default.
 */
const ZMailServerForm = z.preprocess(
  (form: TForm) => ({ ...form, password: form.password || undefined, port: form.port.trim() || undefined }),
  ZSystemMailSettingsInput,
);
const FIELD_NAMES = Object.keys(ZSystemMailSettingsInput.shape) as TName[];

function MailServerForm({ settings, onDone }: { settings: TSystemMailSettings; onDone: () => void }) {
  const id = useId();
  const form = useForm<TForm, unknown, TSystemMailSettingsParsed>({ resolver: zodResolver(ZMailServerForm), defaultValues: formOf(settings) });
  const values = useWatch({ control: form.control }) as TForm;
  const errors = Object.fromEntries(FIELD_NAMES.map((name) => [name, form.formState.errors[name]?.message])) as Partial<Record<TName, string>>;
  const [formError, setFormError] = useState<string | null>(null);
  const save = useSaveSystemMail();
  const onValid = (data: TSystemMailSettingsParsed) => {
    save.mutate(data, {
      onSuccess: (saved) => {
        toast({ title: 'Mail server saved', description: `Mail now goes out through ${saved.host}.` });
        onDone();
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) return;
        const problem = readApiError(error, 'The mail server could not be saved.');
        form.clearErrors();
        for (const [field, message] of Object.entries(problem.fields)) {
          if ((FIELD_NAMES as string[]).includes(field)) form.setError(field as TName, { message });
        }
        setFormError(problem.message);
      },
    });
  };
  const submit = (event: FormEvent) => {
    setFormError(null);
    void form.handleSubmit(onValid)(event);
  };
  const field = (name: TName, label: string, props: { hint?: string; placeholder?: string; type?: string; optional?: boolean; autoComplete?: string } = {}) => (
    <Field id={`${id}-${name}`} label={label} error={errors[name]} hint={props.hint} optional={props.optional}>
      <Input
        id={`${id}-${name}`}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete ?? 'off'}
        spellCheck={false}
        placeholder={props.placeholder}
        aria-invalid={errors[name] ? true : undefined}
        {...form.register(name)}
      />
    </Field>
  );
  return (
    <form onSubmit={submit} noValidate className="grid gap-4 border-t px-5 py-5" aria-label="Outgoing mail server">
      <div className="grid gap-4 sm:grid-cols-2">
        {field('host', 'SMTP host', { placeholder: 'smtp.example.com' })}
        {field('port', 'Port', { hint: '587 for STARTTLS, 465 for SMTPS.' })}
        {field('user', 'User name', { optional: true, hint: 'Leave empty for a relay that needs no sign-in.', autoComplete: 'off' })}
        {field('password', 'Password', {
          type: 'password',
          optional: true,
          autoComplete: 'new-password',
          placeholder: settings.passwordSet ? '•••••••• (saved)' : '',
          hint: settings.passwordSet ? 'A password is saved. Leave this empty to keep it.' : 'Stored encrypted, never shown again.',
        })}
        {field('fromAddress', 'From address', {
          type: 'email',
          placeholder: 'documents@example.com',
          hint: 'Your server must be allowed to send as this address.',
        })}
        {field('fromName', 'From name', { hint: `Shown as “Jane Doe via ${values.fromName.trim() || 'Formwork'}”.` })}
      </div>
      <SwitchField
        control={form.control}
        name="secure"
        id={`${id}-secure`}
        label="Secure connection"
        hint={
          Number(values.port) === IMPLICIT_TLS_PORT
            ? 'Port 465 is always encrypted from the first byte.'
            : 'When on, the server must offer STARTTLS; nothing is sent unencrypted.'
        }
      />
      {formError && (
        <p className="text-sm text-destructive" role="alert">
          {formError}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="ghost" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
          {save.isPending ? 'Saving...' : 'Save mail server'}
        </Button>
      </div>
    </form>
  );
}

/** Admin Panel → Settings: the SMTP server that sends everyone's documents (unless they have their own). */
export function MailServerCard() {
  const settings = useSystemMail(true);
  const remove = useDeleteSystemMail();
  const test = useTestSystemMail();
  const [editing, setEditing] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);

  if (settings.isLoading) return <Skeleton className="h-28" />;
  if (settings.error || !settings.data) return <LoadError error={settings.error} fallback="Could not load the mail server." />;
  const s = settings.data;

  const sendTest = () => {
    setTestResult(null);
    test.mutate(undefined, {
      onSuccess: (result) => setTestResult({ ok: true, text: `Sent to ${result.to}. The server answered: ${result.response}` }),
      onError: (error) => {
        if (isUnauthorizedError(error)) return;
        setTestResult({ ok: false, text: readApiError(error, 'The test email could not be sent.').message });
      },
    });
  };

  return (
    <Card className="overflow-hidden" data-testid="mail-server-card">
      <div className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 gap-3">
          <IconTile icon={MailIcon} className="rounded-md" />
          <div className="min-w-0">
            <h2 className="flex flex-wrap items-center gap-2 text-sm font-semibold">
              Outgoing mail
              <Badge variant={s.configured ? 'success' : 'secondary'}>{s.configured ? 'Set up' : 'Not set up'}</Badge>
            </h2>
            {s.configured ? (
              <>
                <p className="mt-1 text-sm break-words text-muted-foreground">
                  <span className="font-mono text-[13px] text-foreground">
                    {s.host}:{s.port}
                  </span>
                  {' · '}
                  {s.port === IMPLICIT_TLS_PORT ? 'SMTPS' : s.secure ? 'STARTTLS required' : 'unencrypted allowed'}
                  {' · '}
                  {s.user ? `signs in as ${s.user}` : 'no sign-in'}
                  {' · '}from {s.fromName} &lt;{s.fromAddress}&gt;
                </p>
                <p className="mt-1 text-[13px] text-muted-foreground" data-testid="mail-daily-use">
                  {s.dailyLimit === null ? (
                    <>
                      Users sent {formatNumber(s.sentToday)} {s.sentToday === 1 ? 'email' : 'emails'} through it today (UTC), with no daily limit. Add the
                      setting <span className="font-mono text-foreground">mail.daily_limit</span> below to cap it.
                    </>
                  ) : (
                    <>
                      Users sent {formatNumber(s.sentToday)} of {formatNumber(s.dailyLimit)} emails today (UTC), each recipient counted
                      {s.sentToday >= s.dailyLimit ? '; the rest waits for midnight UTC.' : '.'}
                    </>
                  )}
                </p>
              </>
            ) : (
              <p className="mt-1 max-w-xl text-sm text-muted-foreground">
                Users email documents through this server unless they set up their own. Without it, Email opens a draft in the user’s mail app with a share link
                instead.
              </p>
            )}
          </div>
        </div>
        {!editing && (
          <div className="flex shrink-0 flex-wrap gap-2">
            {s.configured && (
              <Button variant="outline" size="sm" onClick={sendTest} disabled={test.isPending}>
                {test.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <SendIcon aria-hidden />}
                {test.isPending ? 'Sending...' : 'Send test email'}
              </Button>
            )}
            <Button variant={s.configured ? 'outline' : 'default'} size="sm" onClick={() => setEditing(true)}>
              <PencilIcon aria-hidden /> {s.configured ? 'Edit' : 'Set up'}
            </Button>
            {s.configured && (
              <Button variant="ghost" size="icon-sm" aria-label="Remove the mail server" onClick={() => setConfirmRemove(true)}>
                <Trash2Icon aria-hidden />
              </Button>
            )}
          </div>
        )}
      </div>
      {testResult && !editing && (
        <div className="px-5 pb-4">
          <Alert variant={testResult.ok ? 'info' : 'destructive'}>
            {testResult.ok ? <CheckCircle2Icon aria-hidden /> : <TriangleAlertIcon aria-hidden />}
            <AlertTitle>{testResult.ok ? 'Test email sent' : 'The test email was not sent'}</AlertTitle>
            <AlertDescription>
              <p className="break-words">{testResult.text}</p>
            </AlertDescription>
          </Alert>
        </div>
      )}
      {editing && <MailServerForm settings={s} onDone={() => setEditing(false)} />}
      <ConfirmDialog
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        title="Remove the mail server?"
        description="Users without a server of their own will not be able to email documents; Email opens a draft in their mail app instead."
        confirmLabel="Remove"
        pendingLabel="Removing..."
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirmRemove(false);
              setTestResult(null);
              toast({ title: 'Mail server removed' });
            },
            onError: (error) => {
              setConfirmRemove(false);
              toastApiError('Failed to remove the mail server')(error);
            },
          })
        }
      />
    </Card>
  );
}
