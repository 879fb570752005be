import { CheckCircle2Icon, Loader2Icon, MailIcon, SendIcon, ServerIcon, TriangleAlertIcon } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { DEFAULT_SMTP_PORT, IMPLICIT_TLS_PORT, ZEmailSettingsInput, type TEmailSettings, type TTestEmailResult } from '../../../contract/mail';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { SwitchField } from '../../components/ui/switch-field';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { useContactEmails } from '../../hooks/use-app-config';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { mailto } from '../../lib/site';
import { formatNumber } from '../../lib/utils';
import { useEmailSettings } from '../../hooks/use-email-settings';
import { useSaveEmailSettings, useSendTestEmail } from './api';
import { RecentEmails } from '../delivery/recent-emails';

export const EMAIL_SETTINGS_SAVED = 'Email Settings Saved';

const ROUTE_TEXT: Record<TEmailSettings['sendsWith'], { title: string; text: string }> = {
  own: {
    title: 'Your documents go out through your own mail server',
    text: 'Recipients see your address as the sender, and copies land in your mailbox’s Sent folder if your server keeps them.',
  },
  system: {
    title: 'Your documents go out through this installation’s mail server',
    text: 'They come from its sending address with your name on them, and replies come straight to your account’s email address.',
  },
  none: {
    title: 'No mail server is set up yet',
    text: 'Until an administrator sets one up, Email opens a draft in your own mail app with a link to the document that works without signing in.',
  },
};

function SendingStatus({ settings }: { settings: TEmailSettings }) {
  const route = ROUTE_TEXT[settings.sendsWith];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          How your documents are emailed
          <Badge variant={settings.sendsWith === 'none' ? 'secondary' : 'success'} data-testid="sends-with">
            {settings.sendsWith === 'own' ? 'Your server' : settings.sendsWith === 'system' ? 'Formwork’s server' : 'Not set up'}
          </Badge>
        </CardTitle>
        <CardDescription>{route.title}.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-2 text-sm text-muted-foreground">
        <p>{route.text}</p>
        <p>
          Your plan sends to up to <span className="font-medium text-foreground tabular-nums">{formatNumber(settings.emailsPerHour)}</span> recipients an hour
          (To and Cc each count). A mail merge spreads its messages out to stay within it.
        </p>
      </CardContent>
    </Card>
  );
}

type TFormState = { enterpriseEmail: string; enterpriseEmailPassword: string; smtpHost: string; smtpPort: string; smtpSecure: boolean };
type TFieldName = keyof TFormState;

function initialForm(settings: TEmailSettings): TFormState {
  return {
    enterpriseEmail: settings.enterpriseEmail ?? '',
    enterpriseEmailPassword: '',
    smtpHost: settings.smtpHost ?? '',
    smtpPort: String(settings.smtpPort || DEFAULT_SMTP_PORT),
    smtpSecure: settings.smtpSecure,
  };
}

/**
 * The contract's own check on what the form holds: an empty password keeps the saved one, an
 * empty port means the default.
 */
const ZOwnServerForm = z.preprocess(
  (form: TFormState) => ({
    ...form,
    enterpriseEmailPassword: form.enterpriseEmailPassword || undefined,
    smtpPort: form.smtpPort.trim() === '' ? undefined : form.smtpPort,
  }),
  ZEmailSettingsInput,
);
type TOwnServer = z.output<typeof ZEmailSettingsInput>;
const FIELD_NAMES = Object.keys(ZEmailSettingsInput.shape) as TFieldName[];

/** The own-server form's state: its values, saving them, and sending a test email through the saved server. */
function useOwnServerForm(settings: TEmailSettings) {
  const form = useForm<TFormState, unknown, TOwnServer>({
    resolver: zodResolver(ZOwnServerForm),
    defaultValues: initialForm(settings),
  });
  const values = useWatch({ control: form.control }) as TFormState;
  const errors = Object.fromEntries(FIELD_NAMES.map((name) => [name, form.formState.errors[name]?.message])) as Partial<Record<TFieldName, string>>;
  const [formError, setFormError] = useState<string | null>(null);
  const [testResult, setTestResult] = useState<{ ok: true; result: TTestEmailResult } | { ok: false; message: string } | null>(null);
  const save = useSaveEmailSettings();
  const test = useSendTestEmail();
  const saved = settings.passwordSet && settings.smtpHost !== null;
  const dirty = JSON.stringify({ ...values, enterpriseEmailPassword: '' }) !== JSON.stringify(initialForm(settings)) || values.enterpriseEmailPassword !== '';

  const onValid = (data: TOwnServer) => {
    if (!data.enterpriseEmailPassword && !settings.passwordSet) {
      form.setError('enterpriseEmailPassword', { message: 'Enter the password.' });
      return;
    }
    save.mutate(data, {
      onSuccess: (next) => {
        form.reset(initialForm(next));
        toast({ title: EMAIL_SETTINGS_SAVED, description: `Documents you email now go out through ${next.smtpHost}.` });
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) return;
        const problem = readApiError(error, 'Your settings could not be saved. Please try again.');
        form.clearErrors();
        for (const [field, message] of Object.entries(problem.fields)) {
          if ((FIELD_NAMES as string[]).includes(field)) form.setError(field as TFieldName, { message });
        }
        // Said once: a message already shown under its field is not repeated below the form.
        setFormError(Object.values(problem.fields).includes(problem.message) ? null : problem.message);
      },
    });
  };
  const submit = (event: FormEvent) => {
    setFormError(null);
    setTestResult(null);
    void form.handleSubmit(onValid)(event);
  };

  const sendTest = () => {
    setTestResult(null);
    test.mutate(undefined, {
      onSuccess: (result) => setTestResult({ ok: true, result }),
      onError: (error) => {
        if (isUnauthorizedError(error)) return;
        setTestResult({ ok: false, message: readApiError(error, 'The test email could not be sent.').message });
      },
    });
  };
  return { form, values, errors, formError, testResult, save, test, saved, dirty, submit, sendTest };
}

type OwnServer = ReturnType<typeof useOwnServerForm>;

/** Address, password, host and port, and whether the connection must be encrypted. */
function ServerFields({ id, settings, server }: { id: string; settings: TEmailSettings; server: OwnServer }) {
  const { form, values, errors } = server;
  const port = Number(values.smtpPort);
  const tlsHint =
    port === IMPLICIT_TLS_PORT
      ? 'Port 465 is always encrypted from the first byte (SMTPS).'
      : values.smtpSecure
        ? 'The server must offer STARTTLS; Formwork will not send your password unencrypted.'
        : 'Encryption is used when the server offers it. Turn this on unless your server cannot encrypt.';
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-email`} label="Email address" error={errors.enterpriseEmail} hint="Your documents come from this address.">
          <Input
            id={`${id}-email`}
            type="email"
            autoComplete="email"
            placeholder="you@company.com"
            aria-invalid={errors.enterpriseEmail ? true : undefined}
            aria-describedby={errors.enterpriseEmail ? `${id}-email-error` : `${id}-email-hint`}
            {...form.register('enterpriseEmail')}
          />
        </Field>
        <Field
          id={`${id}-password`}
          label="Password"
          error={errors.enterpriseEmailPassword}
          hint={settings.passwordSet ? 'A password is saved. Leave this empty to keep it.' : 'Stored encrypted, never shown again.'}
        >
          <Input
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            placeholder={settings.passwordSet ? '•••••••• (saved)' : ''}
            aria-invalid={errors.enterpriseEmailPassword ? true : undefined}
            aria-describedby={errors.enterpriseEmailPassword ? `${id}-password-error` : `${id}-password-hint`}
            {...form.register('enterpriseEmailPassword')}
          />
        </Field>
        <Field id={`${id}-host`} label="SMTP host" error={errors.smtpHost}>
          <Input
            id={`${id}-host`}
            autoComplete="off"
            spellCheck={false}
            placeholder="smtp.company.com"
            aria-invalid={errors.smtpHost ? true : undefined}
            aria-describedby={errors.smtpHost ? `${id}-host-error` : undefined}
            {...form.register('smtpHost')}
          />
        </Field>
        <Field id={`${id}-port`} label="SMTP port" error={errors.smtpPort} hint="587 for STARTTLS, 465 for SMTPS.">
          <Input
            id={`${id}-port`}
            inputMode="numeric"
            aria-invalid={errors.smtpPort ? true : undefined}
            aria-describedby={errors.smtpPort ? `${id}-port-error` : `${id}-port-hint`}
            {...form.register('smtpPort')}
          />
        </Field>
      </div>
      <SwitchField control={form.control} name="smtpSecure" id={`${id}-secure`} label="Secure connection" hint={tlsHint} />
    </>
  );
}

/** What the server answered to the test email, or why it was not sent. */
function TestEmailResult({ testResult }: { testResult: NonNullable<OwnServer['testResult']> }) {
  if (testResult.ok) {
    return (
      <Alert variant="info" data-testid="test-email-result">
        <CheckCircle2Icon aria-hidden />
        <AlertTitle>Test email sent to {testResult.result.to}</AlertTitle>
        <AlertDescription>
          <p className="wrap-anywhere">The server answered: {testResult.result.response}</p>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert variant="destructive" data-testid="test-email-result">
      <TriangleAlertIcon aria-hidden />
      <AlertTitle>The test email was not sent</AlertTitle>
      <AlertDescription>
        <p className="break-words">{testResult.message}</p>
      </AlertDescription>
    </Alert>
  );
}

function OwnServerForm({ settings }: { settings: TEmailSettings }) {
  const id = useId();
  const server = useOwnServerForm(settings);
  const { formError, testResult, save, test, saved, dirty, submit, sendTest } = server;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ServerIcon className="size-4 text-muted-foreground" aria-hidden /> Your own mail server
        </CardTitle>
        <CardDescription>
          Send documents from your company’s mailbox. Use the address and password you sign in to your mail with (or an app password), and your provider’s SMTP
          server.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="grid gap-5" aria-label="Your own mail server">
          <ServerFields id={id} settings={settings} server={server} />
          {formError && (
            <p className="text-sm text-destructive" role="alert">
              {formError}
            </p>
          )}
          {testResult && <TestEmailResult testResult={testResult} />}
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
              {save.isPending ? 'Saving...' : 'Save settings'}
            </Button>
            <Button type="button" variant="outline" disabled={!saved || dirty || test.isPending} onClick={sendTest}>
              {test.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <SendIcon aria-hidden />}
              {test.isPending ? 'Sending...' : 'Send test email'}
            </Button>
          </div>
          {saved && dirty && <p className="-mt-2 text-[13px] text-muted-foreground">Save your changes to test them.</p>}
        </form>
      </CardContent>
    </Card>
  );
}

function OwnServerUpsell() {
  const { salesEmail } = useContactEmails();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Send from your own mailbox with the Enterprise plan</CardTitle>
        <CardDescription>
          Enterprise accounts send documents through their company’s SMTP server, from their own address, with their own sending limits.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {salesEmail ? (
          <Button asChild variant="outline">
            <a href={mailto(salesEmail, 'Formwork Enterprise plan: sending from our own mail server')}>
              <MailIcon aria-hidden /> Contact Sales
            </a>
          </Button>
        ) : (
          <p className="text-sm text-muted-foreground">Ask the administrator of this installation for the Enterprise plan.</p>
        )}
      </CardContent>
    </Card>
  );
}

/** Settings → Email: which server sends your documents, and your own (plans with API access). */
export function EmailSettingsTab() {
  const settings = useEmailSettings();
  if (settings.isLoading) {
    return (
      <div className="space-y-6" aria-busy>
        <Skeleton className="h-40" />
        <Skeleton className="h-80" />
      </div>
    );
  }
  if (settings.error || !settings.data) return <LoadError error={settings.error} fallback="Could not load your email settings." />;
  return (
    <div className="space-y-6">
      <SendingStatus settings={settings.data} />
      {settings.data.ownServerAllowed ? <OwnServerForm settings={settings.data} /> : <OwnServerUpsell />}
      <RecentEmails />
    </div>
  );
}
