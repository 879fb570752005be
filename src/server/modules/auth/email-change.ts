import { fromNodeHeaders } from 'better-auth/node';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { TAuthContext } from './auth-context.ts';
import { emailChangeLinkNotice, emailChangeRequestedNotice } from './auth-notices.ts';
import { isEmailChangeToken } from './better-auth.ts';
import { statusOf } from './library-errors.ts';

const INVALID_EMAIL_LINK =
  'This confirmation link is not valid any more: it was used, it expired, or it belongs to another account. Ask for a new one from Settings.';

/** A new address for an account: asked for while signed in, applied when its link is opened. */
export function createEmailChange(ctx: TAuthContext) {
  const { deps, config } = ctx;
  return {
    /** The library's hook: mails the confirmation link it made to the new address, after the answer. */
    async sendEmailChangeLink({ userId, newEmail, token }: { userId: string; newEmail: string; token: string }) {
      const mailTo = deps.mailTo;
      if (!mailTo) return;
      ctx.inBackground('email change link', async () => {
        const owner = await deps.users.findById(userId);
        await mailTo(
          newEmail,
          emailChangeLinkNotice(owner?.firstName ?? null, newEmail, `${config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`),
        );
      });
    },

    /**
     * Sends a confirmation link to the new address and a notice to the current one; the address
     * changes only when the link is opened. A new address that another account already uses gets
     * nothing, and the answer is the same.
     */
    async changeEmail(userId: string, newEmail: string, headers: IncomingHttpHeaders): Promise<void> {
      const row = await deps.users.findById(userId);
      if (!row) throw unauthorized();
      if (row.email === newEmail) throw new AppError('validation_failed', 'This is already your address.', { newEmail: 'This is already your address.' });
      if (!deps.mailTo || !(await (deps.mailServer?.() ?? Promise.resolve(false)))) {
        throw new AppError('conflict', 'This installation has no mail server, so a new address cannot be confirmed. Ask an administrator to set one up.');
      }
      await ctx.auth().api.changeEmail({ body: { newEmail }, headers: fromNodeHeaders(headers) });
      const notify = deps.notify;
      if (notify) ctx.inBackground('email change notice', () => notify(row.id, emailChangeRequestedNotice(row.firstName, newEmail, config.publicUrl)));
    },

    /** Applies an email change from its link's token, for the signed-in owner of the account. */
    async confirmEmailChange(token: string, headers: IncomingHttpHeaders): Promise<string[]> {
      if (!isEmailChangeToken(token)) throw new AppError('bad_request', INVALID_EMAIL_LINK);
      try {
        const result = await ctx.auth().api.verifyEmail({ query: { token }, headers: fromNodeHeaders(headers), returnHeaders: true });
        return result.headers.getSetCookie();
      } catch (error) {
        const status = statusOf(error);
        if (status !== undefined && status < 500) throw new AppError('bad_request', INVALID_EMAIL_LINK);
        throw error;
      }
    },
  };
}
