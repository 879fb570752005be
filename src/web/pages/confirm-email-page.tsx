import { useMutation } from '@tanstack/react-query';
import { CheckCircle2Icon, Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import type { TUser } from '../../contract/user';
import { Alert, AlertDescription, AlertTitle } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { AuthShell } from '../features/account/auth-shell';
import { ServerAlert } from '../features/account/form-parts';
import { useAuth } from '../hooks/use-auth';
import { useDocumentTitle } from '../hooks/use-document-title';
import { api, readApiError } from '../lib/api';
import { authKeys } from '../lib/query-keys';
import { queryClient } from '../lib/query-client';

/**
 * Opened from the link sent to a new address. The change is applied by a button, not on load:
 * mail scanners open links too, and the account's owner must be the one signed in here.
 */
export function ConfirmEmailPage() {
  useDocumentTitle('Confirm your new email');
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '');
  const { user, isLoading } = useAuth();
  const mutation = useMutation({
    mutationFn: () => api.post<TUser>('/api/user/email/confirm', { token }),
    onSuccess: (updated) => queryClient.setQueryData(authKeys.user, updated),
  });

  return (
    <AuthShell title="Confirm your new email" description="Your account’s address changes once you confirm it here.">
      {mutation.isSuccess ? (
        <Alert role="status">
          <CheckCircle2Icon />
          <AlertTitle>Your email address is now {mutation.data.email}</AlertTitle>
          <AlertDescription>
            <Link href="/settings" className="font-medium text-foreground underline underline-offset-4">
              Back to Settings
            </Link>
          </AlertDescription>
        </Alert>
      ) : isLoading ? (
        <p className="text-sm text-muted-foreground">Loading...</p>
      ) : !user ? (
        <Alert>
          <AlertTitle>Sign in first</AlertTitle>
          <AlertDescription>
            Sign in with your current email address, then open the link from the email again.
            <Link href="/login" className="mt-1 block font-medium text-foreground underline underline-offset-4">
              Go to Sign in
            </Link>
          </AlertDescription>
        </Alert>
      ) : (
        <div className="grid gap-4">
          <ServerAlert message={mutation.isError ? readApiError(mutation.error, 'Could not confirm the address. Please try again.').message : null} />
          <p className="text-sm">
            Signed in as <span className="font-medium">{user.email}</span>.
          </p>
          <Button size="lg" className="w-full" disabled={mutation.isPending || !token} onClick={() => mutation.mutate()}>
            {mutation.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
            Confirm new email address
          </Button>
        </div>
      )}
    </AuthShell>
  );
}
