import { toast } from '../hooks/use-toast';
import { isUnauthorizedError } from './api';

/** The delay before the browser goes to the login route (docs/decisions.md). */
export const LOGIN_REDIRECT_DELAY_MS = 500;
export const LOGIN_URL = '/api/login';

let redirecting = false;

/**
 * The single 401 handler (docs/decisions.md): the destructive toast
 * 'Unauthorized' / 'You are logged out. Logging in again...', then /api/login after 500 ms.
 */
export function handleUnauthorized(): void {
  if (redirecting) return;
  redirecting = true;
  toast({
    variant: 'destructive',
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
  });
  setTimeout(() => {
    window.location.href = LOGIN_URL;
  }, LOGIN_REDIRECT_DELAY_MS);
}

/** Returns true when the error was a 401 and has been handled. */
export function handleIfUnauthorized(error: unknown): boolean {
  if (!isUnauthorizedError(error)) return false;
  handleUnauthorized();
  return true;
}
