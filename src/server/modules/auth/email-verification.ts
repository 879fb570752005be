import { createEmailVerificationToken } from 'better-auth/api';
import { fromNodeHeaders } from 'better-auth/node';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { TResendVerificationResult } from '../../../contract/user.ts';
import { AppError, notFound, unauthorized } from '../../http/app-error.ts';
import type { TAuthContext } from './auth-context.ts';
import { verificationNotice } from './auth-notices.ts';
import { VERIFY_EMAIL_SECONDS } from './better-auth.ts';

/** Verification links asked for again, per account and hour. */
const RESENDS_PER_HOUR = 5;
const VERIFY_TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const invalidLink = () =>
  new AppError(
    'bad_request',
    'This verification link is not valid any more: it was used, replaced by a newer one, or it expired. Sign in and ask for a new one.',
    {
      token: 'The link is not valid any more.',
    },
  );

/** Proving that an address is its owner's: the links, their use, and what a verified address earns. */
export function createEmailVerification(ctx: TAuthContext) {
  const { deps, config, links, now, mailServer, isAdminEmail } = ctx;

  /** ADMIN_EMAILS makes an admin only of an address its owner has verified. */
  async function promoteIfAdmin(userId: string) {
    const row = await deps.users.findById(userId);
    if (row && row.emailVerified && row.role !== 'admin' && isAdminEmail(row.email)) await deps.users.setRole(userId, 'admin');
  }

  /**
   * Makes a verification link around the library's proof (a signed, expiring token it checks
   * again when the link is used). The link's own token is 256 random bits, kept only as a hash,
   * and works once. It goes by email; with no mail server, only an ADMIN_EMAILS address gets one,
   * in the log.
   */
  async function issueLink(user: { id: string; email: string }, proof: string): Promise<'sent' | 'logged' | 'none'> {
    const hasServer = await mailServer();
    if (!hasServer && !isAdminEmail(user.email)) return 'none';
    const token = randomBytes(32).toString('base64url');
    await links.issue(user.id, sha256(token), proof, new Date(now().getTime() + VERIFY_EMAIL_SECONDS * 1000));
    const link = `${config.publicUrl}/verify-email?token=${token}`;
    if (!hasServer) {
      // The one credential this server writes to its log, on purpose: with no mail server this is
      // the only way an ADMIN_EMAILS address can prove itself, and whoever can read the log already
      // owns the machine (and its data directory). Everywhere else tokens are masked (log-tokens.ts).
      deps.log.warn(
        { email: user.email },
        `No mail server is set up, so here is the verification link for ${user.email}, an ADMIN_EMAILS address. Open it to verify the address and become an admin: ${link}`,
      );
      return 'logged';
    }
    const row = await deps.users.findById(user.id);
    const notify = deps.notify;
    if (notify) ctx.inBackground('verification email', () => notify(user.id, verificationNotice(row?.firstName, user.email, link)));
    return 'sent';
  }

  /** Without a mail server, an unverified ADMIN_EMAILS address gets a new link in the log when it signs in and has none. */
  async function onSessionCreated(userId: string) {
    await promoteIfAdmin(userId);
    const row = await deps.users.findById(userId);
    if (!row || row.emailVerified || !isAdminEmail(row.email) || (await mailServer()) || (await links.hasLive(userId, now()))) return;
    await issueLink(row, await createEmailVerificationToken(config.sessionSecret, row.email, undefined, VERIFY_EMAIL_SECONDS));
  }

  async function onEmailVerified(userId: string) {
    await links.dropAll(userId);
    await promoteIfAdmin(userId);
  }

  return {
    issueLink,
    onSessionCreated,
    onEmailVerified,

    /** Uses a verification link's token: once, before it expires; one answer for every token that does not work. */
    async verifyEmail(token: string): Promise<void> {
      const link = VERIFY_TOKEN_RE.test(token) ? await links.take(sha256(token)) : undefined;
      if (!link || link.expiresAt <= now()) throw invalidLink();
      try {
        await ctx.auth().api.verifyEmail({ query: { token: link.proof } });
      } catch {
        // The library's proof failed (the address changed since, or the proof expired).
        throw invalidLink();
      }
    },

    /** A new verification link for the signed-in account, by email (or, for an ADMIN_EMAILS address without a mail server, in the log). */
    async resendVerification(userId: string, headers: IncomingHttpHeaders): Promise<TResendVerificationResult> {
      const row = await deps.users.findById(userId);
      if (!row) throw unauthorized();
      if (row.emailVerified) return { status: 'already_verified', message: 'Your email address is already verified.' };
      const hasServer = await mailServer();
      if (!hasServer && !isAdminEmail(row.email)) {
        throw new AppError(
          'unprocessable',
          'This installation has no mail server, so no verification email can be sent. Nothing is held back until it has one.',
        );
      }
      if (!(await ctx.counters.take(`verify-resend:${userId}`, now(), 60 * 60, RESENDS_PER_HOUR))) {
        throw new AppError(
          'rate_limited',
          `You can ask for ${RESENDS_PER_HOUR} verification emails an hour. Use the newest one, or try again later.`,
          undefined,
          {
            'retry-after': '3600',
          },
        );
      }
      await ctx.auth().api.sendVerificationEmail({ body: { email: row.email }, headers: fromNodeHeaders(headers) });
      return hasServer
        ? { status: 'sent', message: `We sent a new verification link to ${row.email}. It works once, within ${VERIFY_EMAIL_SECONDS / 3600} hours.` }
        : { status: 'logged', message: 'No mail server is set up, so the verification link was written to the server’s log.' };
    },

    /** An admin's word that the address is its owner's (Admin Panel → Users, or admin:create). */
    async markVerified(userId: string): Promise<void> {
      if (!(await links.markVerified(userId))) throw notFound('User');
      await onEmailVerified(userId);
    },
  };
}
