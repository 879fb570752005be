import { DEFAULT_SMTP_PORT, type TSystemMailSettings, type TSystemMailSettingsParsed, type TTestEmailResult } from '../../../contract/mail.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TMailRepository } from './mail.repository.ts';
import type { TMailContext } from './mail-context.ts';
import { utcDay } from './system-mail.ts';
import { sendTest, throttleTests } from './test-email.ts';

async function toSystemSettings({ r }: TMailContext, stored: Awaited<ReturnType<TMailRepository['systemMail']>>): Promise<TSystemMailSettings> {
  const [dailyLimit, sentToday] = await Promise.all([r.systemDailyLimit(), r.systemSentOn(utcDay(new Date()))]);
  return {
    configured: stored !== undefined,
    host: stored?.host ?? null,
    port: stored?.port ?? DEFAULT_SMTP_PORT,
    secure: stored?.secure ?? true,
    user: stored?.user ?? '',
    passwordSet: Boolean(stored?.passwordEnc),
    fromAddress: stored?.fromAddress ?? null,
    fromName: stored?.fromName ?? 'Formwork',
    dailyLimit,
    sentToday,
  };
}

/** The installation's own mail server, as the admin's settings show it. */
export async function systemSettings(ctx: TMailContext): Promise<TSystemMailSettings> {
  return toSystemSettings(ctx, await ctx.r.systemMail());
}

export async function saveSystemSettings(ctx: TMailContext, input: TSystemMailSettingsParsed): Promise<TSystemMailSettings> {
  const { deps, r } = ctx;
  const stored = await r.systemMail();
  const password = input.password ?? '';
  // A new user name with no new password cannot keep the old account's password.
  const keep = password === '' && stored?.passwordEnc && stored.user === input.user ? stored.passwordEnc : null;
  if (input.user !== '' && password === '' && !keep) {
    throw new AppError('validation_failed', 'Enter the password for this user name.', { password: 'Enter the password.' });
  }
  const value = {
    host: input.host,
    port: input.port,
    secure: input.secure,
    user: input.user,
    passwordEnc: input.user === '' ? null : password !== '' ? deps.secrets.seal(password) : keep,
    fromAddress: input.fromAddress,
    fromName: input.fromName,
  };
  await r.saveSystemMail(value);
  return toSystemSettings(ctx, value);
}

export async function deleteSystemSettings({ r }: TMailContext): Promise<void> {
  if (!(await r.deleteSystemMail())) throw notFound('Mail server');
}

/** Sends a test message through the installation's server to `to` (the admin's own address by default). */
export async function testSystemSettings(ctx: TMailContext, adminId: string, to: string | undefined): Promise<TTestEmailResult> {
  const { deps, r, userOf } = ctx;
  const admin = await userOf(adminId);
  const stored = await r.systemMail();
  if (!stored) throw new AppError('conflict', 'Save the mail server first, then send a test email.');
  await throttleTests(ctx, `admin:${adminId}`);
  return sendTest(
    ctx,
    {
      route: 'system',
      smtp: {
        host: stored.host,
        port: stored.port,
        secure: stored.secure,
        user: stored.user,
        password: stored.passwordEnc ? deps.secrets.open(stored.passwordEnc) : null,
      },
      from: { name: stored.fromName, address: stored.fromAddress },
      checkAddress: false,
      senderName: stored.fromName,
      wordsRefused: null,
    },
    to ?? admin.email,
    { adminId },
  );
}
