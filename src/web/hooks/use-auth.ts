import { useQuery } from '@tanstack/react-query';
import type { TUser } from '../../contract/user';
import { api, isUnauthorizedError } from '../lib/api';
import { authKeys } from '../lib/query-keys';

/**
 * `/api/auth/session` answers 200 `{ user: null }` when signed out, so a signed-out visitor's
 * console stays free of a red "401 Unauthorized" line on every page load.
 */
async function fetchCurrentUser(): Promise<TUser | null> {
  return (await api.get<{ user: TUser | null }>('/api/auth/session')).user;
}

/**
 * The current user: null when signed out (401 is not an error here, and shows no toast).
 * `sessionError` is a session check that failed before any answer came (a 500, a 503, a rate
 * limit, no connection): whether anyone is signed in is then unknown, and treating it as signed
 * out would send a signed-in person to sign in again.
 */
export function useAuth() {
  const { data, isLoading, error, refetch, isFetching } = useQuery<TUser | null>({
    queryKey: authKeys.user,
    queryFn: fetchCurrentUser,
    meta: { skipUnauthorizedHandler: true },
  });
  const user = data ?? null;
  // A later check that fails keeps the user the last one found.
  const sessionError = data === undefined && error && !isUnauthorizedError(error) ? error : null;
  return {
    user,
    isLoading,
    error,
    sessionError,
    /** Asks the server again after `sessionError`. */
    retry: () => void refetch(),
    isRetrying: sessionError !== null && isFetching,
    isAuthenticated: user !== null,
    isAdmin: user?.role === 'admin',
  };
}
