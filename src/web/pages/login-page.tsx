import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { AlertCircleIcon, CheckIcon, KeyRoundIcon, Loader2Icon, MailIcon, MailPlusIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Link, useLocation, useSearch } from 'wouter';
import type { TInvitationAddress, TSignUpConfig } from '../../contract/sign-ups';
import { type TSignUpPending, type TUser, ZSignInBody, ZSignUpBody } from '../../contract/user';
import type { TSignInResponse } from '../../contract/two-factor';
import { PASSWORD_HINT } from '../features/account/password-hint';
import { TwoFactorSignInStep } from '../features/account/two-factor';
import { Logo } from '../components/layout/logo';
import { Alert, AlertDescription, AlertTitle } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs';
import { useAppConfig } from '../hooks/use-app-config';
import { useAuth } from '../hooks/use-auth';
import { useDocumentTitle } from '../hooks/use-document-title';
import { Field, ServerAlert, useFormMutation, SubmitButton } from '../features/account/form-parts';
import { api, errorStatus, readApiError } from '../lib/api';
import { authKeys } from '../lib/query-keys';
import { queryClient } from '../lib/query-client';
import { sameSitePath } from '../lib/site';
import { signInErrorMessage } from '../../contract/sign-in-errors';

type SignInInput = z.input<typeof ZSignInBody>;
type SignInOutput = z.output<typeof ZSignInBody>;
type SignUpInput = z.input<typeof ZSignUpBody>;
type SignUpOutput = z.output<typeof ZSignUpBody>;

/** Where to go once signed in: the `next` path the page was opened with (an invitation), else the dashboard. */
function useAfterSignIn(): string {
  return sameSitePath(new URLSearchParams(useSearch()).get('next')) ?? '/';
}

function useSignedIn() {
  const [, navigate] = useLocation();
  const next = useAfterSignIn();
  return (user: TUser) => {
    queryClient.setQueryData(authKeys.user, user);
    void queryClient.invalidateQueries({ queryKey: authKeys.user });
    navigate(next);
  };
}

function SignInForm({ defaultEmail = '' }: { defaultEmail?: string }) {
  const form = useForm<SignInInput, unknown, SignInOutput>({
    resolver: zodResolver(ZSignInBody),
    defaultValues: { email: defaultEmail, password: '' },
  });
  const [secondStep, setSecondStep] = useState(false);
  const onSignedIn = useSignedIn();
  const { mutation, serverError, onSubmit, anyForm } = useFormMutation(form, {
    mutationFn: (body: SignInOutput) => api.post<TSignInResponse>('/api/auth/sign-in', body),
    meta: { skipUnauthorizedHandler: true },
    onSuccess: (result) => {
      if ('status' in result) setSecondStep(true);
      else onSignedIn(result);
    },
    failure: 'Could not sign you in. Please try again.',
  });
  if (secondStep) {
    return (
      <TwoFactorSignInStep
        onSignedIn={onSignedIn}
        onRestart={() => {
          form.setValue('password', '');
          setSecondStep(false);
        }}
      />
    );
  }
  return (
    <form noValidate aria-label="Sign in" onSubmit={onSubmit} className="grid gap-4">
      <ServerAlert message={serverError} />
      <Field form={anyForm} name="email" label="Email" type="email" autoComplete="email" />
      <Field form={anyForm} name="password" label="Password" type="password" autoComplete="current-password" />
      <p className="-mt-2 text-right text-sm">
        <Link
          href="/forgot-password"
          className="rounded-sm font-medium text-foreground underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          Forgot password?
        </Link>
      </p>
      <SubmitButton pending={mutation.isPending} label="Sign in" pendingLabel="Signing in..." size="lg" className="mt-1 w-full" />
    </form>
  );
}

/** The way in through the installation's identity provider, when it has one. */
function SingleSignOnButton({ name, signUp }: { name: string; signUp?: boolean }) {
  return (
    <Button asChild variant="outline" size="lg" className="w-full">
      <a href={signUp ? '/api/login?mode=signup' : '/api/login'}>
        <KeyRoundIcon aria-hidden /> Continue with {name}
      </a>
    </Button>
  );
}

/**
 * What the sign-up tab says before anyone types: single sign-on only shows its button instead of
 * the form, invitation only without an invitation says how to get one.
 */
function SignUpPanel({ config, invitation, onSignInInstead }: { config: TSignUpConfig; invitation: string | null; onSignInInstead: (email: string) => void }) {
  const invited = useQuery({
    queryKey: authKeys.invitation(invitation ?? ''),
    queryFn: () => api.post<TInvitationAddress>('/api/auth/invitation', { token: invitation }),
    enabled: Boolean(invitation) && config.mode !== 'sso',
    retry: false,
    meta: { skipUnauthorizedHandler: true },
  });
  if (config.mode === 'sso') {
    return (
      <div className="grid gap-4">
        <Alert role="status">
          <KeyRoundIcon />
          <AlertTitle>Accounts are made through single sign-on</AlertTitle>
          <AlertDescription>
            {config.singleSignOn
              ? `This installation creates accounts only through ${config.singleSignOn}. Use “Continue with ${config.singleSignOn}” with your work account.`
              : 'This installation creates accounts only through its identity provider. Ask an administrator how to sign in.'}
          </AlertDescription>
        </Alert>
        {config.singleSignOn && <SingleSignOnButton name={config.singleSignOn} signUp />}
      </div>
    );
  }
  if (config.mode === 'invitation' && !invitation) {
    return (
      <Alert role="status">
        <MailPlusIcon />
        <AlertTitle>Sign-ups are by invitation</AlertTitle>
        <AlertDescription>
          Accounts here are made by invitation only. Ask an administrator to invite you, then open the link in the email they send.
          {config.singleSignOn && ` If your organisation uses ${config.singleSignOn}, an invited address can also continue with it.`}
        </AlertDescription>
      </Alert>
    );
  }
  if (invitation && invited.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
        <Loader2Icon className="size-4 animate-spin" aria-hidden /> Reading your invitation...
      </p>
    );
  }
  const invalid = invitation && invited.error ? readApiError(invited.error, 'This invitation could not be read. Please try again.').message : null;
  return (
    <div className="grid gap-4">
      {invited.data && (
        <Alert role="status">
          <MailPlusIcon />
          <AlertTitle>You were invited</AlertTitle>
          <AlertDescription>Create your account for {invited.data.email}, the address the invitation was sent to. The link works once.</AlertDescription>
        </Alert>
      )}
      {invalid && (
        <Alert variant="destructive">
          <AlertCircleIcon />
          <AlertTitle>This invitation cannot be used</AlertTitle>
          <AlertDescription>{invalid}</AlertDescription>
        </Alert>
      )}
      {/* An invitation-only installation has nothing to offer without a usable invitation. */}
      {!(invalid && config.mode === 'invitation') && (
        <SignUpForm
          key={invited.data?.email ?? ''}
          invitation={invited.data ? invitation : null}
          defaultEmail={invited.data?.email ?? ''}
          onSignInInstead={onSignInInstead}
        />
      )}
    </div>
  );
}

function SignUpForm({
  invitation,
  defaultEmail,
  onSignInInstead,
}: {
  invitation: string | null;
  defaultEmail: string;
  onSignInInstead: (email: string) => void;
}) {
  const form = useForm<SignUpInput, unknown, SignUpOutput>({
    resolver: zodResolver(ZSignUpBody),
    defaultValues: { firstName: '', lastName: '', email: defaultEmail, password: '' },
  });
  const [emailTaken, setEmailTaken] = useState(false);
  const [checkEmail, setCheckEmail] = useState<string | null>(null);
  const onSignedIn = useSignedIn();
  const { mutation, serverError, onSubmit, anyForm } = useFormMutation(form, {
    // With a mail server the answer is the same "check your email" for a new and a taken address,
    // and signs nobody in; a new account then signs in with the password just chosen, and builds
    // while its link is on the way. A taken address's password is not this one: the page asks to
    // look in the mailbox, where the owner finds a note that the address already has an account.
    mutationFn: async (body: SignUpOutput): Promise<TUser | { pending: string }> => {
      const result = await api.post<TUser | TSignUpPending>('/api/auth/sign-up', invitation ? { ...body, invitation } : body);
      if (!('status' in result)) return result;
      try {
        return await api.post<TUser>('/api/auth/sign-in', { email: body.email, password: body.password });
      } catch {
        return { pending: body.email };
      }
    },
    meta: { skipUnauthorizedHandler: true },
    onSuccess: (result) => {
      if ('pending' in result) setCheckEmail(result.pending);
      else onSignedIn(result);
    },
    onFailure: (error) => setEmailTaken(errorStatus(error) === 409),
    failure: 'Could not create your account. Please try again.',
  });
  if (checkEmail) {
    return (
      <Alert role="status">
        <MailIcon />
        <AlertTitle>Check your email</AlertTitle>
        <AlertDescription>
          We sent a message to {checkEmail}. Open the link in it to verify your address, then sign in.
          <button
            type="button"
            className="mt-1 cursor-pointer rounded-sm font-medium text-foreground underline underline-offset-4 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            onClick={() => onSignInInstead(checkEmail)}
          >
            Go to Sign in
          </button>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <form noValidate aria-label="Create account" onSubmit={onSubmit} className="grid gap-4">
      <ServerAlert
        message={serverError}
        action={
          emailTaken ? (
            <button
              type="button"
              className="mt-1 cursor-pointer rounded-sm font-medium text-foreground underline underline-offset-4 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              onClick={() => onSignInInstead(form.getValues('email'))}
            >
              Go to Sign in
            </button>
          ) : undefined
        }
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field form={anyForm} name="firstName" label="First name" autoComplete="given-name" />
        <Field form={anyForm} name="lastName" label="Last name" autoComplete="family-name" />
      </div>
      <Field form={anyForm} name="email" label="Email" type="email" autoComplete="email" />
      <Field form={anyForm} name="password" label="Password" type="password" autoComplete="new-password" hint={PASSWORD_HINT} />
      <SubmitButton pending={mutation.isPending} label="Create account" pendingLabel="Creating account..." size="lg" className="mt-1 w-full" />
    </form>
  );
}

const POINTS = [
  'Build reusable formats with named placeholders',
  'Fill an auto-generated form, get a polished PDF',
  'Free plan: 1 format and 30 documents a month',
];

export function LoginPage() {
  const search = useSearch();
  const params = new URLSearchParams(search);
  const oidcError = params.get('error');
  const [path, navigate] = useLocation();
  const invitation = params.get('invitation');
  const initialTab = params.get('mode') === 'signup' || path === '/sign-up' ? 'signup' : 'signin';
  const signUps = useAppConfig().data?.signUps ?? { mode: 'open' as const, singleSignOn: null };
  const [tab, setTab] = useState(initialTab);
  const [signInEmail, setSignInEmail] = useState('');
  useDocumentTitle(tab === 'signup' ? 'Create account' : 'Sign in');
  const { user } = useAuth();
  const next = useAfterSignIn();

  useEffect(() => {
    if (user) navigate(next, { replace: true });
  }, [user, navigate, next]);

  return (
    <div className="grid min-h-dvh lg:grid-cols-[1fr_1.1fr]">
      <aside className="relative hidden overflow-hidden bg-[oklch(0.2_0.03_275)] p-12 text-white lg:flex lg:flex-col">
        <div
          className="pointer-events-none absolute inset-0 opacity-40 [background-image:radial-gradient(oklch(1_0_0/0.12)_1px,transparent_1px)] [background-size:22px_22px]"
          aria-hidden
        />
        <div
          className="pointer-events-none absolute -bottom-40 -left-20 h-[480px] w-[480px] rounded-full bg-[radial-gradient(closest-side,oklch(0.55_0.2_280/0.55),transparent)]"
          aria-hidden
        />
        <div className="relative [&_a]:text-white">
          <Logo />
        </div>
        <div className="relative mt-auto max-w-md">
          <h2 className="text-3xl font-semibold tracking-tight text-balance">Documents that write themselves.</h2>
          <ul className="mt-8 space-y-4">
            {POINTS.map((p) => (
              <li key={p} className="flex items-start gap-3 text-white/80">
                <span className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full bg-white/10">
                  <CheckIcon className="size-3" aria-hidden />
                </span>
                {p}
              </li>
            ))}
          </ul>
        </div>
      </aside>

      <main id="main" className="flex flex-col px-4 py-8 sm:px-8">
        <div className="lg:hidden">
          <Logo />
        </div>
        <div className="mx-auto flex w-full max-w-[420px] flex-1 flex-col justify-center py-10">
          <h1 className="text-2xl font-semibold tracking-tight">{tab === 'signup' ? 'Create your account' : 'Welcome back'}</h1>
          <p className="mt-1.5 text-sm text-muted-foreground">
            {tab === 'signup'
              ? signUps.mode === 'sso'
                ? `Accounts here are made through ${signUps.singleSignOn ?? 'single sign-on'}.`
                : signUps.mode === 'invitation' && !invitation
                  ? 'This installation is open to the people its administrators invite.'
                  : 'Start free — no credit card required.'
              : 'Sign in to your Formwork workspace.'}
          </p>

          {oidcError && (
            <Alert variant="destructive" className="mt-6">
              <AlertCircleIcon />
              <AlertTitle>Sign-in failed</AlertTitle>
              <AlertDescription>{signInErrorMessage(oidcError)}</AlertDescription>
            </Alert>
          )}

          <Tabs value={tab} onValueChange={setTab} className="mt-6">
            <TabsList className="grid w-full grid-cols-2">
              <TabsTrigger value="signin">Sign in</TabsTrigger>
              <TabsTrigger value="signup">Create account</TabsTrigger>
            </TabsList>
            <TabsContent value="signin" className="mt-6 grid gap-4">
              {signUps.singleSignOn && (
                <>
                  <SingleSignOnButton name={signUps.singleSignOn} />
                  <p className="text-center text-xs text-muted-foreground">or with your password</p>
                </>
              )}
              <SignInForm key={signInEmail} defaultEmail={signInEmail} />
            </TabsContent>
            <TabsContent value="signup" className="mt-6">
              <SignUpPanel
                config={signUps}
                invitation={invitation}
                onSignInInstead={(email) => {
                  setSignInEmail(email);
                  setTab('signin');
                }}
              />
            </TabsContent>
          </Tabs>
          <p className="mt-8 text-center text-sm text-muted-foreground">
            <Link
              href="/"
              className="rounded-sm font-medium text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              ← Back to home
            </Link>
          </p>
        </div>
      </main>
    </div>
  );
}
