import type { z } from 'zod';
import { DEFAULT_SMTP_PORT, type TEmailSettings, type TTestEmailResult, type ZEmailSettingsInput } from '../../../contract/mail.ts';
import { AppError } from '../../http/app-error.ts';
import { displayName, type TMailContext } from './mail-context.ts';
import { ownWordsRefusal } from './mail-policy.ts';
import { sendTest, throttleTests } from './test-email.ts';

/** A user's own mail server settings, and how their mail goes out now. */
export async function emailSettings(ctx: TMailContext, userId: string): Promise<TEmailSettings> {
  const { deps, userOf, senderOf } = ctx;
  const user = await userOf(userId);
  const [ownServerAllowed, sender, emailsPerHour] = await Promise.all([deps.plan.hasApiAccess(userId), senderOf(user), deps.plan.emailsPerHour(userId)]);
  // With no server yet, say what the installation's would allow once there is one.
  const wordsRefused = sender
    ? sender.wordsRefused
    : ownWordsRefusal({ plan: user.subscriptionPlan, standing: { emailVerified: user.emailVerified, mailServer: true } });
  return {
    enterpriseEmail: user.enterpriseEmail,
    smtpHost: user.smtpHost,
    smtpPort: user.smtpPort ?? DEFAULT_SMTP_PORT,
    smtpSecure: user.smtpSecure,
    passwordSet: Boolean(user.enterpriseEmailPasswordEnc),
    ownServerAllowed,
    sendsWith: sender?.route ?? 'none',
    emailsPerHour,
    ownWords: wordsRefused === null,
    ownWordsNote: wordsRefused,
    senderName: displayName(user),
  };
}

export async function saveEmailSettings(ctx: TMailContext, userId: string, input: z.output<typeof ZEmailSettingsInput>): Promise<TEmailSettings> {
  const { deps, r, userOf } = ctx;
  if (!(await deps.plan.hasApiAccess(userId))) {
    throw new AppError('plan_limit', 'Sending through your own mail server comes with the Enterprise plan. Contact sales to upgrade.');
  }
  const user = await userOf(userId);
  const password = input.enterpriseEmailPassword ?? '';
  if (password === '' && !user.enterpriseEmailPasswordEnc) {
    throw new AppError('validation_failed', 'Enter the password of this mail account.', { enterpriseEmailPassword: 'Enter the password.' });
  }
  const verdict = await deps.checkHost(input.smtpHost);
  if (verdict !== 'ok') {
    const message =
      verdict === 'not_allowed'
        ? 'This mail server’s address is not allowed: it points to a private or local network. Give a server on the public internet.'
        : `${input.smtpHost} could not be found. Check the spelling.`;
    throw new AppError('validation_failed', message, { smtpHost: message });
  }
  await r.saveUserMail(userId, {
    enterpriseEmail: input.enterpriseEmail,
    smtpHost: input.smtpHost,
    smtpPort: input.smtpPort,
    smtpSecure: input.smtpSecure,
    ...(password !== '' ? { enterpriseEmailPasswordEnc: deps.secrets.seal(password) } : {}),
  });
  return emailSettings(ctx, userId);
}

/** Sends a test message through the user's own saved server to their account's address. */
export async function testEmailSettings(ctx: TMailContext, userId: string): Promise<TTestEmailResult> {
  const { deps, userOf, ownServerOf } = ctx;
  const user = await userOf(userId);
  if (!(await deps.plan.hasApiAccess(userId))) {
    throw new AppError('plan_limit', 'Sending through your own mail server comes with the Enterprise plan. Contact sales to upgrade.');
  }
  const own = ownServerOf(user);
  if (!own) throw new AppError('conflict', 'Save your mail server settings first, then send a test email.');
  await throttleTests(ctx, `user:${userId}`);
  return sendTest(
    ctx,
    {
      route: 'own',
      smtp: own,
      from: { name: displayName(user), address: user.enterpriseEmail! },
      checkAddress: true,
      senderName: displayName(user),
      wordsRefused: null,
    },
    user.email,
    { userId },
  );
}
