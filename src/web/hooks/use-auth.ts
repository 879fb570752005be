import { useQuery } from '@tanstack/react-query';
import type { TUser } from '../../contract/user';
import { getQueryFn } from '../lib/query-client';

export const AUTH_USER_KEY = ['/api/auth/user'] as const;

/**
 * The auth library's session probe (DESIGN.md: better-auth under /api/identity). It answers
 * 200 `null` when there is no session, so a signed-out visitor's browser console stays free of
 * a red "401 Unauthorized" line on every page load.
 */
const SESSION_PROBE_URL = '/api/identity/get-session';

const fetchUser = getQueryFn<TUser>({ on401: 'returnNull' });

async function fetchCurrentUser(ctx: Parameters<typeof fetchUser>[0]): Promise<TUser | null> {
  try {
    const probe = await fetch(SESSION_PROBE_URL, { credentials: 'include' });
    if (probe.ok) {
      const text = await probe.text();
      if (text.trim() === '' || text.trim() === 'null') return null;
    }
  } catch {
    // fall through: /api/auth/user is the authority
  }
  return fetchUser(ctx);
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
