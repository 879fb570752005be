import { AppError } from '../../http/app-error.ts';
import type { TMailContext } from './mail-context.ts';

/** A UTC day as the daily count keys it. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
/** Midnight UTC after `at`: when a day's cap opens again. */
export const nextUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));

/** The refusal once the installation's server has carried its daily cap; it says when sending starts again. */
export function dailyLimitReached(limit: number, now = new Date()): AppError {
  const seconds = Math.max(1, Math.ceil((nextUtcDay(now).getTime() - now.getTime()) / 1000));
  const hours = Math.ceil(seconds / 3600);
  return new AppError(
    'rate_limited',
    `This installation’s mail server has sent its limit of ${limit.toLocaleString('en-US')} emails for today. Sending starts again at midnight UTC, in ${hours === 1 ? 'less than an hour' : `about ${hours} hours`}.`,
    undefined,
    { 'retry-after': String(seconds) },
  );
}

/** Whether the installation has a mail server of its own (verification links need one). */
export const hasSystemServer = async ({ r }: TMailContext) => (await r.systemMail()) !== undefined;

/** The admin's daily cap on users' emails through the installation's server; null when none. */
export const systemDailyLimit = ({ r }: TMailContext) => r.systemDailyLimit();

/** Refuses (429, until midnight UTC) what would take the installation's server past its daily cap. */
export async function assertDailyRoom({ r }: TMailContext, recipients: number, now = new Date()): Promise<void> {
  const limit = await r.systemDailyLimit();
  if (limit === null) return;
  const sent = await r.systemSentOn(utcDay(now));
  if (sent + recipients > limit) throw dailyLimitReached(limit, now);
}

async function sendSystemMail({ r, deps }: TMailContext, to: string, notice: { subject: string; text: string }, log: object): Promise<boolean> {
  const system = await r.systemMail();
  if (!system) return false;
  const outcome = await deps.mailer.send(
    {
      host: system.host,
      port: system.port,
      secure: system.secure,
      user: system.user,
      password: system.passwordEnc ? deps.secrets.open(system.passwordEnc) : null,
    },
    { from: { name: system.fromName, address: system.fromAddress }, to, subject: notice.subject, text: notice.text },
    { checkAddress: false },
  );
  if (!outcome.ok) deps.log.warn({ ...log, smtpHost: system.host, smtpResponse: outcome.response }, `notice email failed: ${outcome.message}`);
  return outcome.ok;
}

/**
 * A notice from the installation to one of its users (a renewal reminder), through the
 * installation's own server. False when no server is set up or it refused; the app shows the
 * same notice on screen either way.
 */
export async function sendNotice(ctx: TMailContext, userId: string, notice: { subject: string; text: string }): Promise<boolean> {
  const user = await ctx.r.userMail(userId);
  return user ? sendSystemMail(ctx, user.email, notice, { userId }) : false;
}

/** The same, to an address that is not (yet) an account's: the new address of an email change. */
export const sendNoticeTo = (ctx: TMailContext, address: string, notice: { subject: string; text: string }) => sendSystemMail(ctx, address, notice, {});
