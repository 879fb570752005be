import { fromNodeHeaders } from 'better-auth/node';
import type { IncomingHttpHeaders } from 'node:http';
import type { TTwoFactorSignInBody } from '../../../contract/two-factor.ts';
import type { TUser } from '../../../contract/user.ts';
import { AppError, unauthorized } from '../../http/app-error.ts';
import { SIGN_IN_EXPIRED, type TTwoFactorChecks, type TTwoFactorDeps } from './two-factor-checks.ts';

/** A code of six digits is the app's; anything else is taken for a recovery code. */
const isTotpShaped = (code: string) => /^\d{6}$/.test(code.replace(/\s+/g, ''));

/** The second factor asked for: at sign-in, and again for a step that must prove it (such as deleting the account). */
export function createTwoFactorSignIn(deps: TTwoFactorDeps, checks: TTwoFactorChecks) {
  const { withCode, withoutSession } = checks;
  return {
    /** Whether the library answered a right password with a pending second step instead of a session. */
    isChallenge(response: unknown): boolean {
      return typeof response === 'object' && response !== null && (response as { twoFactorRedirect?: unknown }).twoFactorRedirect === true;
    },

    /**
     * The second step of a sign-in: the pending sign-in in the library's two-factor cookie is
     * finished with a code from the app or one recovery code (used up by it). Counted by the
     * sign-in throttle against the account, like its password.
     */
    async completeSignIn(body: TTwoFactorSignInBody, ip: string, headers: IncomingHttpHeaders): Promise<{ user: TUser; setCookies: string[] }> {
      const nodeHeaders = withoutSession(headers);
      const { userId } = await deps.auth().api.twoFactorChallenge({ headers: nodeHeaders });
      const row = userId ? await deps.users.findById(userId) : undefined;
      if (!row) throw new AppError('unauthorized', SIGN_IN_EXPIRED);
      const result =
        body.recoveryCode !== undefined
          ? await withCode(row.email, ip, true, () =>
              deps.auth().api.verifyBackupCode({ body: { code: body.recoveryCode! }, headers: nodeHeaders, returnHeaders: true }),
            )
          : await withCode(row.email, ip, false, () =>
              deps.auth().api.verifyTOTP({ body: { code: body.code ?? '' }, headers: nodeHeaders, returnHeaders: true }),
            );
      const fresh = await deps.users.findById(row.id);
      if (!fresh) throw unauthorized();
      return { user: await deps.usersService.toUser(fresh), setCookies: result.headers.getSetCookie() };
    },

    /**
     * Checks the signed-in user's current code from the app, or one of their recovery codes (used
     * up by it), for a step that must prove the second factor again, such as deleting the account.
     * Resolves when it is right, or at once when the user has no two-factor; otherwise throws a
     * 400 `validation_failed` naming the field `code`, or the sign-in throttle's 429. `headers`
     * are the request's: they carry the user's session.
     */
    async verifySecondFactor(input: { userId: string; code: string | undefined; ip: string; headers: IncomingHttpHeaders }): Promise<void> {
      const row = await deps.users.findById(input.userId);
      if (!row) throw unauthorized();
      if (!row.twoFactorEnabled) return;
      const code = input.code?.trim() ?? '';
      if (!code) {
        const ask = 'Enter the code from your authenticator app, or one of your recovery codes.';
        throw new AppError('validation_failed', ask, { code: ask });
      }
      const nodeHeaders = fromNodeHeaders(input.headers);
      const session = await deps.auth().api.getSession({ headers: nodeHeaders });
      if (session?.user.id !== row.id) throw unauthorized();
      try {
        if (isTotpShaped(code)) {
          await withCode(row.email, input.ip, false, () => deps.auth().api.verifyTOTP({ body: { code: code.replace(/\s+/g, '') }, headers: nodeHeaders }));
        } else {
          await withCode(row.email, input.ip, true, () => deps.auth().api.verifyBackupCode({ body: { code }, headers: nodeHeaders }));
        }
      } catch (error) {
        // One field for both kinds of code: the form that asks has one box.
        if (error instanceof AppError && error.code === 'validation_failed') {
          throw new AppError('validation_failed', error.message, { code: error.message });
        }
        throw error;
      }
    },
  };
}
