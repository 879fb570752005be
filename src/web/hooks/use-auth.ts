import { useQuery } from '@tanstack/react-query';
import type { TUser } from '../../contract/user';
import { getQueryFn } from '../lib/query-client';

export const AUTH_USER_KEY = ['/api/auth/user'] as const;

/** The current user: null when signed out (401 is not an error here, and shows no toast). */
export function useAuth() {
  const { data, isLoading, error } = useQuery<TUser | null>({
    queryKey: AUTH_USER_KEY,
    queryFn: getQueryFn<TUser>({ on401: 'returnNull' }),
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
