import { fromNodeHeaders } from 'better-auth/node';
import type { IncomingHttpHeaders } from 'node:http';
import { FORGOT_PASSWORD_MESSAGE, type TResetPasswordBody } from '../../../contract/user.ts';
import { AppError } from '../../http/app-error.ts';
import type { TAuthContext } from './auth-context.ts';
import { resetNotice } from './auth-notices.ts';
import { assertNotCommon } from './common-passwords.ts';
import { statusOf } from './library-errors.ts';

const INVALID_RESET_LINK = 'This password reset link is not valid any more: it was used, it expired, or it is incomplete. Ask for a new one.';

/** A forgotten password: the reset link by email, and the new password set with it. */
export function createPasswordRecovery(ctx: TAuthContext) {
  const { deps, config, recovery, throttle, hasher } = ctx;
  return {
    /** The library's hook: mails the reset link it made, after the answer. */
    sendResetPassword({ userId, token }: { userId: string; token: string }) {
      const notify = deps.notify;
      if (!notify) return;
      ctx.inBackground('password reset email', async () => {
        const owner = await deps.users.findById(userId);
        if (owner) await notify(owner.id, resetNotice(owner.firstName, `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`));
      });
    },

    /**
     * Mails a reset link when the address has an account. The answer is the same, and takes the
     * same time, either way: for a known address the library writes the link's token where it
     * only reads for an unknown one, so all of its work happens after the answer, and the answer's
     * own work (the limits) is the same for every address.
     */
    async forgotPassword(email: string, ip: string, headers: IncomingHttpHeaders): Promise<{ message: string }> {
      await recovery.resetRequested(email, ip);
      const fromHeaders = fromNodeHeaders(headers);
      ctx.inBackground('password reset link', () => ctx.auth().api.requestPasswordReset({ body: { email }, headers: fromHeaders }));
      return { message: FORGOT_PASSWORD_MESSAGE };
    },

    /** Sets a new password with a reset link's token, once, and ends every session of the account. */
    async resetPassword(body: TResetPasswordBody, ip: string): Promise<void> {
      assertNotCommon(body.newPassword, 'newPassword');
      await recovery.resetTried(ip);
      const lane = await throttle.laneOf(ip);
      try {
        await hasher.inLane(lane, () => ctx.auth().api.resetPassword({ body: { token: body.token, newPassword: body.newPassword } }));
      } catch (error) {
        if (statusOf(error) === 400) throw new AppError('bad_request', INVALID_RESET_LINK, { token: INVALID_RESET_LINK });
        throw error;
      }
      // The library ended the sessions in the database; which user they were is not known here.
      ctx.knownSessions.forgetAll();
    },

    /** Sends the account the reset email the forgot-password page sends (an admin asked for it). */
    async sendResetLink(email: string): Promise<void> {
      await ctx.auth().api.requestPasswordReset({ body: { email } });
    },
  };
}
