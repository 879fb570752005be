import { Loader2Icon } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { useLocation } from 'wouter';
import { useAuth } from '../../hooks/use-auth';
import { usePlans } from '../../hooks/use-plans';
import { readApiError } from '../../lib/api';
import { storedPlanChoice } from '../../lib/plans';
import { handleUnauthorized } from '../../lib/unauthorized';
import { Button } from '../ui/button';
import { AppShell, AppShellSkeleton } from './app-shell';

export function FullPageStatus({ label }: { label: string }) {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-muted/40" role="status" aria-live="polite">
      <div className="flex items-center gap-3 text-sm text-muted-foreground">
        <Loader2Icon className="size-4 animate-spin" aria-hidden />
        <span>{label}</span>
      </div>
    </div>
  );
}

/**
 * The session check failed, so whether anyone is signed in is unknown: the server's words and a
 * way to ask again, rather than a sign-in page for someone who may well be signed in.
 */
export function SessionCheckFailed({ error, onRetry, retrying }: { error: unknown; onRetry: () => void; retrying: boolean }) {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-muted/40 p-4">
      <main className="grid max-w-md justify-items-center gap-4 text-center">
        <h1 className="text-lg font-semibold tracking-tight">Could not check whether you are signed in</h1>
        <p className="text-sm text-destructive" role="alert">
          {readApiError(error).message}
        </p>
        <Button onClick={onRetry} disabled={retrying}>
          {retrying && <Loader2Icon className="animate-spin" aria-hidden />}
          {retrying ? 'Retrying...' : 'Retry'}
        </Button>
      </main>
    </div>
  );
}

/**
 * Signed-in routes: the app shell around the page. Signed out, the one 401 handler runs
 * (toast, then /api/login after 500 ms).
 */
const RESUMED_KEY = 'formwork.planChoiceResumed';

/**
 * A paid plan chosen on the landing page before signing up: once signed in, Billing opens with that
 * plan picked out, for the user to review and confirm (nothing is paid without that click). Once
 * per browser session, so a visitor who chose not to pay is not sent back on every page; the
 * choice itself stays until a payment succeeds.
 */
function useResumePlanChoice(signedIn: boolean) {
  const [location, navigate] = useLocation();
  // Without a payment gateway there is no checkout to continue to: the account simply starts free.
  const { checkout } = usePlans();
  useEffect(() => {
    if (!signedIn || !checkout || location === '/payment-success') return;
    const planKey = storedPlanChoice();
    if (!planKey || planKey.startsWith('free_')) return;
    try {
      if (sessionStorage.getItem(RESUMED_KEY)) return;
      sessionStorage.setItem(RESUMED_KEY, planKey);
    } catch {
      return;
    }
    navigate(`/settings?tab=billing&checkout=${encodeURIComponent(planKey)}`, { replace: true });
  }, [signedIn, checkout, location, navigate]);
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isLoading, sessionError, retry, isRetrying } = useAuth();
  const signedOut = !isLoading && !user && !sessionError;

  useEffect(() => {
    if (signedOut) handleUnauthorized();
  }, [signedOut]);
  useResumePlanChoice(user !== null);

  // The shell's frame, not a spinner: the page that follows lands in the same place.
  if (isLoading) return <AppShellSkeleton />;
  if (sessionError) return <SessionCheckFailed error={sessionError} onRetry={retry} retrying={isRetrying} />;
  if (!user) return <FullPageStatus label="Redirecting to sign in..." />;
  return <AppShell user={user}>{children}</AppShell>;
}
