import { useQuery } from '@tanstack/react-query';
import type { TUser } from '../../contract/user';
import { apiJson } from '../lib/api';

export const AUTH_USER_KEY = ['/api/auth/user'] as const;

/**
 * `/api/auth/session` answers 200 `{ user: null }` when signed out, so a signed-out visitor's
 * console stays free of a red "401 Unauthorized" line on every page load.
 */
async function fetchCurrentUser(): Promise<TUser | null> {
  return (await apiJson<{ user: TUser | null }>('GET', '/api/auth/session')).user;
}

/** The current user: null when signed out (401 is not an error here, and shows no toast). */
export function useAuth() {
  const { data, isLoading, error } = useQuery<TUser | null>({
    queryKey: AUTH_USER_KEY,
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
