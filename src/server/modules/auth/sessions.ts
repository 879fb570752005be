import { APIError } from 'better-auth';
import { fromNodeHeaders } from 'better-auth/node';
import type { IncomingHttpHeaders } from 'node:http';
import type { TAccountSessions, TUser } from '../../../contract/user.ts';
import { unauthorized } from '../../http/app-error.ts';
import type { TAuthContext } from './auth-context.ts';
import { sessionCookieOf } from './session-cookie.ts';
import { SUSPENDED_MESSAGE } from './sign-up-policy.ts';

/** Who a request is signed in as, and the account's sessions: listing, starting and ending them. */
export function createSessions(ctx: TAuthContext) {
  const { deps, knownSessions } = ctx;

  async function userFromHeaders(headers: Headers): Promise<TUser> {
    const session = await ctx.auth().api.getSession({ headers });
    if (!session) throw unauthorized();
    const row = await deps.users.findById(session.user.id);
    if (!row || row.suspendedAt) throw unauthorized();
    return deps.usersService.toUser(row);
  }

  return {
    /** No session starts for a suspended account, whatever the way in. */
    async admitSession(userId: string) {
      const row = await deps.users.findById(userId);
      if (row?.suspendedAt) throw new APIError('FORBIDDEN', { code: 'account_suspended', message: SUSPENDED_MESSAGE });
    },

    async signOut(headers: IncomingHttpHeaders): Promise<string[]> {
      knownSessions.forget(sessionCookieOf(headers));
      try {
        const result = await ctx.auth().api.signOut({ headers: fromNodeHeaders(headers), returnHeaders: true });
        return result.headers.getSetCookie();
      } catch {
        // No session to end: signing out is still a success for the visitor.
        return [];
      }
    },

    async listSessions(headers: IncomingHttpHeaders): Promise<TAccountSessions> {
      const nodeHeaders = fromNodeHeaders(headers);
      const [current, sessions] = await Promise.all([
        ctx.auth().api.getSession({ headers: nodeHeaders }),
        ctx.auth().api.listSessions({ headers: nodeHeaders }),
      ]);
      if (!current) throw unauthorized();
      const iso = (value: Date | string) => new Date(value).toISOString();
      return {
        sessions: sessions
          .map((session) => ({
            id: session.id,
            userAgent: session.userAgent ?? null,
            ipAddress: session.ipAddress ?? null,
            createdAt: iso(session.createdAt),
            lastActiveAt: iso(session.updatedAt),
            current: session.id === current.session.id,
          }))
          .sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt)),
      };
    },

    async signOutOthers(userId: string, headers: IncomingHttpHeaders): Promise<void> {
      await ctx.auth().api.revokeOtherSessions({ headers: fromNodeHeaders(headers) });
      knownSessions.forgetUser(userId);
    },

    /** Ends every session of an account at once (an admin's sign-out everywhere, a suspension). */
    async endSessionsOf(userId: string): Promise<void> {
      await (await ctx.auth().$context).internalAdapter.deleteUserSessions(userId);
      knownSessions.forgetUser(userId);
    },

    /** After an account is deleted: its session cookies stop working in this process at once. */
    forgetSessionsOf(userId: string) {
      knownSessions.forgetUser(userId);
    },

    /** The signed-in user, or a 401 AppError. */
    currentUser(headers: IncomingHttpHeaders): Promise<TUser> {
      return userFromHeaders(fromNodeHeaders(headers));
    },

    async currentUserId(headers: IncomingHttpHeaders): Promise<string> {
      const cookie = sessionCookieOf(headers);
      if (!cookie) throw unauthorized();
      const known = knownSessions.userOf(cookie);
      if (known) return known;
      const session = await ctx.auth().api.getSession({ headers: fromNodeHeaders(headers) });
      if (!session || session.user.suspendedAt) throw unauthorized();
      knownSessions.remember(cookie, session.user.id, new Date(session.session.expiresAt).getTime());
      return session.user.id;
    },
  };
}
