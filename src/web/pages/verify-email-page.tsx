import { useMutation } from '@tanstack/react-query';
import { AlertCircleIcon, CheckCircle2Icon, Loader2Icon, MailCheckIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { TVerifyEmailResult } from '../../contract/user';
import { Logo } from '../components/layout/logo';
import { Alert, AlertDescription, AlertTitle } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { useAuth } from '../hooks/use-auth';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useResendVerification } from '../hooks/use-resend-verification';
import { api, readApiError } from '../lib/api';
import { authKeys } from '../lib/query-keys';
import { queryClient } from '../lib/query-client';

/** The token this page load came with: kept here, since the address bar drops it. */
let tokenOfThisLoad = '';

/**
 * The token from the address; once the page has drawn, the address bar drops it, so it stays out
 * of history. A render that starts again (the page's code or the session arriving) finds it here.
 */
function useTokenFromAddress(): string {
  const [token] = useState(() => {
    if (typeof window === 'undefined') return '';
    tokenOfThisLoad = new URLSearchParams(window.location.search).get('token') || tokenOfThisLoad;
    return tokenOfThisLoad;
  });
  useEffect(() => {
    if (new URLSearchParams(window.location.search).has('token')) window.history.replaceState(window.history.state, '', '/verify-email');
  }, []);
  return token;
}

const linkClass = 'rounded-sm font-medium text-foreground underline underline-offset-4 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

/**
 * /verify-email?token=… — the link in a verification email. It verifies only when its button is
 * pressed: mail scanners open links on their own, and would otherwise use up the one-time token.
 */
export function VerifyEmailPage() {
  useDocumentTitle('Verify your email address');
  const token = useTokenFromAddress();
  const { user } = useAuth();
  const resend = useResendVerification();
  const verify = useMutation({
    mutationFn: () => api.post<TVerifyEmailResult>('/api/auth/verify-email', { token }),
    meta: { skipUnauthorizedHandler: true },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: authKeys.user }),
  });
  const failure = verify.error ? readApiError(verify.error, 'The address could not be verified. Please try again.').message : null;

  return (
    <div className="flex min-h-dvh flex-col bg-muted/40 px-4 py-8 sm:px-8">
      <Logo />
      <main id="main" className="mx-auto flex w-full max-w-[440px] flex-1 flex-col justify-center py-10">
        <div className="rounded-xl border bg-background p-6 shadow-sm sm:p-8">
          <MailCheckIcon className="size-8 text-primary" aria-hidden />
          <h1 className="mt-4 text-2xl font-semibold tracking-tight">Verify your email address</h1>
          {verify.isSuccess ? (
            <div className="mt-6 grid gap-4">
              <Alert role="status">
                <CheckCircle2Icon />
                <AlertTitle>Your email address is verified</AlertTitle>
                <AlertDescription>You can now send email, share links and create API keys.</AlertDescription>
              </Alert>
              <Button asChild size="lg" className="w-full">
                <Link href={user ? '/' : '/login'}>{user ? 'Continue to Formwork' : 'Sign in'}</Link>
              </Button>
            </div>
          ) : !token ? (
            <p className="mt-3 text-sm text-muted-foreground">
              This page opens from the link in the verification email. Open that link, or{' '}
              <Link href={user ? '/' : '/login'} className={linkClass}>
                {user ? 'ask for a new one from the app' : 'sign in to ask for a new one'}
              </Link>
              .
            </p>
          ) : (
            <div className="mt-3 grid gap-4">
              <p className="text-sm text-muted-foreground">Confirm that this address is yours to finish setting up your account.</p>
              {failure && (
                <Alert variant="destructive">
                  <AlertCircleIcon />
                  <AlertTitle>The link did not work</AlertTitle>
                  <AlertDescription>
                    {failure}
                    {user && !user.emailVerified ? (
                      <Button type="button" size="sm" variant="outline" className="mt-2 w-fit" onClick={() => resend.mutate()} disabled={resend.isPending}>
                        Send a new link
                      </Button>
                    ) : !user ? (
                      <Link href="/login" className={linkClass}>
                        Sign in
                      </Link>
                    ) : null}
                  </AlertDescription>
                </Alert>
              )}
              <Button type="button" size="lg" className="w-full" onClick={() => verify.mutate()} disabled={verify.isPending || Boolean(failure)}>
                {verify.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
                {verify.isPending ? 'Verifying...' : 'Verify my email address'}
              </Button>
            </div>
          )}
        </div>
      </main>
    </div>
  );
}
