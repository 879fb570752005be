import { useQuery } from '@tanstack/react-query';
import type { TUser } from '../../contract/user';
import { api } from '../lib/api';
import { authKeys } from '../lib/query-keys';

/**
 * `/api/auth/session` answers 200 `{ user: null }` when signed out, so a signed-out visitor's
 * console stays free of a red "401 Unauthorized" line on every page load.
 */
async function fetchCurrentUser(): Promise<TUser | null> {
  return (await api.get<{ user: TUser | null }>('/api/auth/session')).user;
}

/** The current user: null when signed out (401 is not an error here, and shows no toast). */
export function useAuth() {
  const { data, isLoading, error } = useQuery<TUser | null>({
    queryKey: authKeys.user,
    queryFn: fetchCurrentUser,
    meta: { skipUnauthorizedHandler: true },
  });
  const user = data ?? null;
  return {
    user,
    isLoading,
    error,
    isAuthenticated: user !== null,
    isAdmin: user?.role === 'admin',
  };
}
