import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { CopyIcon, DownloadIcon, KeyRoundIcon, ShieldAlertIcon, ShieldCheckIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { type FieldValues, type Resolver, type UseFormReturn, useForm } from 'react-hook-form';
import { Link, useSearch } from 'wouter';
import { z } from 'zod';
import { type TRecoveryCodes, type TTwoFactorSetup, ZRecoveryCode, ZTotpCode, ZTwoFactorPasswordBody } from '../../../contract/two-factor';
import type { TUser } from '../../../contract/user';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { toast } from '../../hooks/use-toast';
import { api, errorStatus } from '../../lib/api';
import { queryClient } from '../../lib/query-client';
import { authKeys } from '../../lib/query-keys';
import { applyServerError, Field, ServerAlert, useFormMutation, SubmitButton } from './form-parts';

/** Set by the Admin Panel when it sends an admin here to set up two-factor first. */
const ADMIN_NOTICE = 'admin-two-factor';

const ZCodeForm = z.object({ code: ZTotpCode });
const ZRecoveryForm = z.object({ recoveryCode: ZRecoveryCode });
type TPasswordInput = z.input<typeof ZTwoFactorPasswordBody>;
type TCodeInput = z.input<typeof ZCodeForm>;
type TCodeOutput = z.output<typeof ZCodeForm>;
type TRecoveryInput = z.input<typeof ZRecoveryForm>;

/** Asks for the password before any change to the second factor. */
function PasswordStep({
  title,
  submitLabel,
  pendingLabel,
  destructive,
  request,
  onCancel,
}: {
  title: string;
  submitLabel: string;
  pendingLabel: string;
  destructive?: boolean;
  request: (password: string) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<TPasswordInput>({ resolver: zodResolver(ZTwoFactorPasswordBody), defaultValues: { password: '' } });
  const { mutation, serverError, onSubmit, anyForm } = useFormMutation(form, {
    mutationFn: (values: TPasswordInput) => request(values.password),
    failure: 'Something went wrong. Please try again.',
  });
  return (
    <form noValidate aria-label={title} className="grid gap-4" onSubmit={onSubmit}>
      <ServerAlert message={serverError} />
      <div className="sm:max-w-sm">
        <Field form={anyForm} name="password" label="Your password" type="password" autoComplete="current-password" />
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <SubmitButton
          pending={mutation.isPending}
          label={submitLabel}
          pendingLabel={pendingLabel}
          variant={destructive ? 'destructive' : undefined}
          className="w-full sm:w-fit"
        />
        <Button type="button" variant="ghost" onClick={onCancel} disabled={mutation.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** The secret in groups of four, as authenticator apps show and accept it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function ScanStep({ setup, onVerified, onCancel }: { setup: TTwoFactorSetup; onVerified: (codes: string[]) => void; onCancel: () => void }) {
  const form = useForm<TCodeInput, unknown, TCodeOutput>({ resolver: zodResolver(ZCodeForm), defaultValues: { code: '' } });
  const { mutation, serverError, onSubmit, anyForm } = useFormMutation(form, {
    mutationFn: (body: TCodeOutput) => api.post<TRecoveryCodes>('/api/user/two-factor/verify', body),
    onSuccess: ({ recoveryCodes }) => {
      void queryClient.invalidateQueries({ queryKey: authKeys.user });
      void queryClient.invalidateQueries({ queryKey: authKeys.sessions });
      onVerified(recoveryCodes);
    },
    failure: 'Could not check the code. Please try again.',
  });
  const copySecret = () =>
    void navigator.clipboard.writeText(setup.secret).then(
      () => toast({ title: 'Key copied' }),
      () => toast({ variant: 'destructive', title: 'Could not copy the key', description: 'Select it and copy it by hand.' }),
    );
  return (
    <div className="grid gap-6" data-testid="two-factor-setup">
      <ol className="grid gap-6 md:grid-cols-[auto_minmax(0,1fr)] md:gap-8">
        <li className="grid content-start gap-3">
          <p className="text-sm font-medium">1. Scan this QR code with your authenticator app</p>
          <img src={setup.qrCode} alt="QR code that adds Formwork to your authenticator app" width={184} height={184} className="rounded-md border bg-white" />
        </li>
        <li className="grid min-w-0 content-start gap-3">
          <p className="text-sm font-medium">Can’t scan it? Enter this key in the app instead</p>
          <div className="flex items-start gap-2">
            <code className="min-w-0 flex-1 rounded-md border bg-muted/50 px-3 py-2 font-mono text-sm break-all" data-testid="two-factor-secret">
              {grouped(setup.secret)}
            </code>
            <Button type="button" variant="outline" size="icon" onClick={copySecret} aria-label="Copy the key" title="Copy the key">
              <CopyIcon aria-hidden />
            </Button>
          </div>
          <p className="text-[13px] text-muted-foreground">Choose a time-based key with 6 digits, as most apps do by default.</p>
        </li>
      </ol>
      <form noValidate aria-label="Confirm two-factor sign-in" className="grid gap-4" onSubmit={onSubmit}>
        <ServerAlert message={serverError} />
        <div className="sm:max-w-xs">
          <Field form={anyForm} name="code" label="2. Enter the 6-digit code the app shows" autoComplete="one-time-code" inputMode="numeric" />
        </div>
        <div className="flex flex-col gap-2 sm:flex-row">
          <SubmitButton pending={mutation.isPending} label="Turn on two-factor" pendingLabel="Checking..." className="w-full sm:w-fit" />
          <Button type="button" variant="ghost" onClick={onCancel} disabled={mutation.isPending}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}

function RecoveryCodes({ codes, email, onDone }: { codes: string[]; email: string; onDone: () => void }) {
  const text = [`Formwork recovery codes for ${email}`, 'Each code signs you in once, in place of a code from your authenticator app.', '', ...codes, ''].join(
    '\n',
  );
  const copy = () =>
    void navigator.clipboard.writeText(text).then(
      () => toast({ title: 'Recovery codes copied' }),
      () => toast({ variant: 'destructive', title: 'Could not copy the codes', description: 'Download them instead.' }),
    );
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'formwork-recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="grid gap-4" data-testid="recovery-codes">
      <Alert role="status">
        <KeyRoundIcon />
        <AlertTitle>Save your recovery codes now</AlertTitle>
        <AlertDescription>
          If you lose your phone, each code signs you in once instead of a code from the app. They are shown only this once: keep them somewhere safe, such as a
          password manager.
        </AlertDescription>
      </Alert>
      <ol
        className="grid grid-cols-1 gap-x-6 gap-y-1.5 rounded-md border bg-muted/40 p-4 font-mono text-sm min-[400px]:grid-cols-2"
        aria-label="Recovery codes"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button type="button" variant="outline" onClick={copy}>
          <CopyIcon aria-hidden /> Copy
        </Button>
        <Button type="button" variant="outline" onClick={download}>
          <DownloadIcon aria-hidden /> Download
        </Button>
        <Button type="button" onClick={onDone} className="sm:ml-auto">
          I have saved them
        </Button>
      </div>
    </div>
  );
}

type TStage =
  | { kind: 'idle' }
  | { kind: 'password'; purpose: 'enable' | 'disable' | 'codes' }
  | { kind: 'scan'; setup: TTwoFactorSetup }
  | { kind: 'codes'; codes: string[] };

/** Settings → Profile: two-factor sign-in with an authenticator app, and its recovery codes. */
export function TwoFactorCard({ user }: { user: TUser }) {
  const [stage, setStage] = useState<TStage>({ kind: 'idle' });
  const adminNotice = new URLSearchParams(useSearch()).get('notice') === ADMIN_NOTICE && !user.twoFactorEnabled;
  const cardRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (adminNotice) cardRef.current?.scrollIntoView({ block: 'start' });
  }, [adminNotice]);
  const idle = () => setStage({ kind: 'idle' });
  const on = user.twoFactorEnabled;
  return (
    <Card id="two-factor" ref={cardRef} className="scroll-mt-20">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          Two-factor sign-in
          <Badge variant={on ? 'default' : 'secondary'}>{on ? 'On' : 'Off'}</Badge>
        </CardTitle>
        <CardDescription>
          After your password, sign-in asks for a 6-digit code from an authenticator app on your phone, such as Google Authenticator, Microsoft Authenticator or
          1Password. Someone who learns your password still cannot get in.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {adminNotice && stage.kind !== 'codes' && (
          <Alert>
            <ShieldAlertIcon />
            <AlertTitle>Administrators need two-factor sign-in here</AlertTitle>
            <AlertDescription>
              This installation asks every administrator to use two-factor sign-in. Turn it on below; the Admin Panel opens once it is on.
            </AlertDescription>
          </Alert>
        )}
        {stage.kind === 'idle' &&
          (on ? (
            <div className="flex flex-col gap-2 sm:flex-row">
              <Button variant="outline" onClick={() => setStage({ kind: 'password', purpose: 'codes' })}>
                <KeyRoundIcon aria-hidden /> New recovery codes
              </Button>
              <Button variant="outline" onClick={() => setStage({ kind: 'password', purpose: 'disable' })}>
                Turn off two-factor
              </Button>
            </div>
          ) : (
            <Button className="w-full sm:w-fit" onClick={() => setStage({ kind: 'password', purpose: 'enable' })}>
              <ShieldCheckIcon aria-hidden /> Turn on two-factor
            </Button>
          ))}
        {stage.kind === 'password' && stage.purpose === 'enable' && (
          <PasswordStep
            title="Turn on two-factor"
            submitLabel="Continue"
            pendingLabel="Checking..."
            onCancel={idle}
            request={async (password) => {
              const setup = await api.post<TTwoFactorSetup>('/api/user/two-factor/enable', { password });
              setStage({ kind: 'scan', setup });
            }}
          />
        )}
        {stage.kind === 'password' && stage.purpose === 'codes' && (
          <PasswordStep
            title="New recovery codes"
            submitLabel="Make new codes"
            pendingLabel="Making codes..."
            onCancel={idle}
            request={async (password) => {
              const { recoveryCodes } = await api.post<TRecoveryCodes>('/api/user/two-factor/recovery-codes', { password });
              setStage({ kind: 'codes', codes: recoveryCodes });
              toast({ title: 'New recovery codes made', description: 'The old ones no longer work.' });
            }}
          />
        )}
        {stage.kind === 'password' && stage.purpose === 'disable' && (
          <PasswordStep
            title="Turn off two-factor"
            submitLabel="Turn off two-factor"
            pendingLabel="Turning off..."
            destructive
            onCancel={idle}
            request={async (password) => {
              await api.post<null>('/api/user/two-factor/disable', { password });
              await queryClient.invalidateQueries({ queryKey: authKeys.user });
              void queryClient.invalidateQueries({ queryKey: authKeys.sessions });
              idle();
              toast({ title: 'Two-factor sign-in is off', description: 'Sign-in asks only for your password now.' });
            }}
          />
        )}
        {stage.kind === 'scan' && <ScanStep setup={stage.setup} onCancel={idle} onVerified={(codes) => setStage({ kind: 'codes', codes })} />}
        {stage.kind === 'codes' && (
          <>
            <RecoveryCodes codes={stage.codes} email={user.email} onDone={idle} />
            {user.role === 'admin' && (
              <p className="text-sm">
                <Link href="/admin" className="font-medium underline underline-offset-4">
                  Open the Admin Panel
                </Link>
              </p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The sign-in page's second step, after a right password for an account with two-factor: a code
 * from the app, or one recovery code. A 401 means the pending sign-in is gone (expired, or too
 * many wrong codes): the password is asked for again.
 */
export function TwoFactorSignInStep({ onSignedIn, onRestart }: { onSignedIn: (user: TUser) => void; onRestart: () => void }) {
  const [recovery, setRecovery] = useState(false);
  return (
    <div className="grid gap-4" data-testid="two-factor-step">
      <div>
        <h2 className="text-lg font-semibold tracking-tight">Two-factor sign-in</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          {recovery
            ? 'Enter one of the recovery codes you saved when you turned on two-factor. Each code works once.'
            : 'Open your authenticator app and enter the 6-digit code it shows for Formwork.'}
        </p>
      </div>
      {recovery ? (
        <CodeForm key="recovery" recovery onSignedIn={onSignedIn} onRestart={onRestart} />
      ) : (
        <CodeForm key="code" recovery={false} onSignedIn={onSignedIn} onRestart={onRestart} />
      )}
      <div className="flex flex-col items-start gap-2 text-sm">
        <button
          type="button"
          className="cursor-pointer rounded-sm font-medium text-foreground underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          onClick={() => setRecovery((r) => !r)}
        >
          {recovery ? 'Use your authenticator app instead' : 'Use a recovery code instead'}
        </button>
        <button
          type="button"
          className="cursor-pointer rounded-sm text-muted-foreground underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          onClick={onRestart}
        >
          Back to sign in
        </button>
      </div>
    </div>
  );
}

function CodeForm({ recovery, onSignedIn, onRestart }: { recovery: boolean; onSignedIn: (user: TUser) => void; onRestart: () => void }) {
  const form = useForm<TCodeInput & TRecoveryInput>({
    // One form for both kinds: each checks only its own field.
    resolver: (recovery ? zodResolver(ZRecoveryForm) : zodResolver(ZCodeForm)) as unknown as Resolver<TCodeInput & TRecoveryInput>,
    defaultValues: recovery ? { recoveryCode: '' } : { code: '' },
  });
  const [serverError, setServerError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  // The password form this replaced had the focus: it moves to the code box, not to the page's top.
  useEffect(() => form.setFocus(recovery ? 'recoveryCode' : 'code'), [form, recovery]);
  const mutation = useMutation({
    mutationFn: (body: { code: string } | { recoveryCode: string }) => api.post<TUser>('/api/auth/sign-in/two-factor', body),
    meta: { skipUnauthorizedHandler: true },
    onSuccess: onSignedIn,
    onError: (error) => {
      setExpired(errorStatus(error) === 401);
      setServerError(applyServerError(form as never, error, 'Could not check the code. Please try again.'));
    },
  });
  const anyForm = form as unknown as UseFormReturn<TCodeInput & TRecoveryInput, unknown, FieldValues>;
  return (
    <form
      noValidate
      aria-label={recovery ? 'Sign in with a recovery code' : 'Sign in with a code'}
      className="grid gap-4"
      onSubmit={form.handleSubmit((values) => {
        setServerError(null);
        setExpired(false);
        mutation.mutate(recovery ? { recoveryCode: String(values.recoveryCode) } : { code: String(values.code) });
      })}
    >
      <ServerAlert
        message={serverError}
        action={
          expired ? (
            <button
              type="button"
              className="mt-1 cursor-pointer rounded-sm font-medium text-foreground underline underline-offset-4 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              onClick={onRestart}
            >
              Sign in again
            </button>
          ) : undefined
        }
      />
      {recovery ? (
        <Field
          form={anyForm}
          name="recoveryCode"
          label="Recovery code"
          autoComplete="off"
          hint="Type it as it was shown, with the dash: capital letters count."
        />
      ) : (
        <Field form={anyForm} name="code" label="Authentication code" autoComplete="one-time-code" inputMode="numeric" />
      )}
      <SubmitButton pending={mutation.isPending} label="Verify and sign in" pendingLabel="Checking..." size="lg" className="mt-1 w-full" />
    </form>
  );
}
