import { Loader2Icon, MailWarningIcon } from 'lucide-react';
import type { TUser } from '../../../contract/user';
import { useAuth } from '../../hooks/use-auth';
import { useResendVerification } from '../../hooks/use-resend-verification';
import { Alert, AlertDescription, AlertTitle } from '../ui/alert';
import { Button } from '../ui/button';

function ResendButton() {
  const resend = useResendVerification();
  return (
    <Button type="button" size="sm" variant="outline" className="mt-2 w-fit" onClick={() => resend.mutate()} disabled={resend.isPending}>
      {resend.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
      Resend the link
    </Button>
  );
}

/** Across the top of every signed-in page while the account waits for its verification link. */
export function VerifyEmailBanner({ user }: { user: TUser }) {
  if (!user.verificationRequired) return null;
  return (
    <Alert className="mb-6" role="status" data-testid="verify-email-banner">
      <MailWarningIcon />
      <AlertTitle>Verify your email address</AlertTitle>
      <AlertDescription>
        We sent a link to {user.email}. Until you open it, you can build formats and generate documents, but not send email, share links or create API keys.
        <ResendButton />
      </AlertDescription>
    </Alert>
  );
}

/**
 * In a dialog or tab whose action needs a verified address: why it is not available yet, with the
 * way out. Nothing when the account may go ahead.
 */
export function VerifyEmailNotice({ doing }: { doing: string }) {
  const { user } = useAuth();
  if (!user?.verificationRequired) return null;
  return (
    <Alert role="status" data-testid="verify-email-notice">
      <MailWarningIcon />
      <AlertTitle>Verify your email address to {doing}</AlertTitle>
      <AlertDescription>
        Open the link we sent to {user.email}.
        <ResendButton />
      </AlertDescription>
    </Alert>
  );
}

/** Whether the signed-in account waits for its verification link (actions that need one are off). */
export function useVerificationRequired(): boolean {
  return useAuth().user?.verificationRequired ?? false;
}
