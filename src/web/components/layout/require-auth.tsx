import { Loader2Icon } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { useAuth } from '../../hooks/use-auth';
import { handleUnauthorized } from '../../lib/unauthorized';
import { AppShell } from './app-shell';

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
 * Signed-in routes: the app shell around the page. Signed out, the one 401 handler runs
 * (toast, then /api/login after 500 ms).
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isLoading } = useAuth();
  const signedOut = !isLoading && !user;

  useEffect(() => {
    if (signedOut) handleUnauthorized();
  }, [signedOut]);

  if (isLoading) return <FullPageStatus label="Loading..." />;
  if (!user) return <FullPageStatus label="Redirecting to sign in..." />;
  return <AppShell user={user}>{children}</AppShell>;
}
