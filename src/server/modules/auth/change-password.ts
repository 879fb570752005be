import { fromNodeHeaders } from 'better-auth/node';
import type { IncomingHttpHeaders } from 'node:http';
import type { TChangePasswordBody } from '../../../contract/user.ts';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { TAuthContext } from './auth-context.ts';
import { assertNotCommon } from './common-passwords.ts';
import { codeOf } from './library-errors.ts';

export function createChangePassword(ctx: TAuthContext) {
  const { deps, throttle, hasher } = ctx;
  /**
   * Checks the current password under the sign-in throttle (a stolen session must not become a
   * way to guess it), sets the new one and signs out every other session. The answer's cookies
   * carry the new session of this browser.
   */
  return async function changePassword(body: TChangePasswordBody, userId: string, ip: string, headers: IncomingHttpHeaders): Promise<string[]> {
    assertNotCommon(body.newPassword, 'newPassword');
    const row = await deps.users.findById(userId);
    if (!row) throw unauthorized();
    const attempt = await throttle.admit(row.email, ip);
    let result;
    try {
      result = await hasher.inLane(attempt.lane, () =>
        ctx.auth().api.changePassword({
          body: { currentPassword: body.currentPassword, newPassword: body.newPassword, revokeOtherSessions: true },
          headers: fromNodeHeaders(headers),
          returnHeaders: true,
        }),
      );
    } catch (error) {
      const code = codeOf(error);
      if (code === 'INVALID_PASSWORD') {
        const { tellOwner } = await throttle.failed(attempt);
        if (tellOwner) ctx.sendGuessingNotice(attempt.email);
        throw new AppError('validation_failed', 'Your current password is not right.', { currentPassword: 'This is not your current password.' });
      }
      await throttle.abandoned(attempt);
      if (code === 'CREDENTIAL_ACCOUNT_NOT_FOUND') {
        throw new AppError('conflict', 'Your account signs in through single sign-on and has no password here to change.');
      }
      throw error;
    }
    await throttle.succeeded(attempt);
    ctx.knownSessions.forgetUser(userId);
    return result.headers.getSetCookie();
  };
}
