import { RateLimiterMemory } from 'rate-limiter-flexible';
import {
  DEFAULT_SMTP_PORT,
  type TEmailSettings,
  type TMailRoute,
  type TSystemMailSettings,
  type TSystemMailSettingsParsed,
  type TTestEmailResult,
} from '../../../contract/mail.ts';
import type { z } from 'zod';
import type { ZEmailSettingsInput } from '../../../contract/mail.ts';
import type { TSecretBox } from '../../crypto/secret-box.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TCheckHost } from '../../net/address-rule.ts';
import type { TMailer, TMailOutcome, TSmtpServer } from './mail-transport.ts';
import type { TMailRepository, TUserMailRow } from './mail.repository.ts';
import { ownWordsRefusal } from './mail-policy.ts';

type TAddress = { name: string; address: string };

/** Who a user's mail comes from and which server carries it. */
export type TSender = {
  route: Exclude<TMailRoute, 'none'>;
  smtp: TSmtpServer;
  from: TAddress;
  /** Replies reach the user, not the installation's address. */
  replyTo?: TAddress;
  /** A user's own server is reached only at a public address. */
  checkAddress: boolean;
  /** The account's first and last name: what its mail is signed with, never a name from a request. */
  senderName: string;
  /** Why this mail may not carry the sender's own subject and message (`ownWordsRefusal`); null when it may. */
  wordsRefused: string | null;
};

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

/** Test messages one user or admin may send in ten minutes: enough to fix a setting, too few to spam with. */
const TEST_EMAILS_PER_10_MINUTES = 5;

const displayName = (user: Pick<TUserMailRow, 'firstName' | 'lastName' | 'email'>) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ').trim() || user.email;

/**
 * Outgoing mail settings and the choice of server: a user's own SMTP server when their plan has
 * API access and they set one up, else the installation's, else none (then the app offers a
 * mail draft with a share link instead).
 */
export function createMailService(deps: {
  repository: TMailRepository;
  secrets: TSecretBox;
  mailer: TMailer;
  /** Whether the plan includes an own server (plans with API access), and its send rate. */
  plan: { hasApiAccess(ownerId: string): Promise<boolean>; emailsPerHour(ownerId: string): Promise<number> };
  /** The address rule, for a user's own server when it is saved (it is checked again on every send). */
  checkHost: TCheckHost;
  log: { warn: (obj: object, msg: string) => void };
}) {
  const r = deps.repository;
  const testLimiter = new RateLimiterMemory({ points: TEST_EMAILS_PER_10_MINUTES, duration: 600 });

  const ownServerOf = (user: TUserMailRow): TSmtpServer | undefined =>
    user.smtpHost && user.enterpriseEmail && user.enterpriseEmailPasswordEnc
      ? {
          host: user.smtpHost,
          port: user.smtpPort ?? DEFAULT_SMTP_PORT,
          secure: user.smtpSecure,
          user: user.enterpriseEmail,
          password: deps.secrets.open(user.enterpriseEmailPasswordEnc),
        }
      : undefined;

  async function userOf(userId: string): Promise<TUserMailRow> {
    const user = await r.userMail(userId);
    if (!user) throw notFound('User');
    return user;
  }

  async function senderOf(user: TUserMailRow): Promise<TSender | undefined> {
    const own = (await deps.plan.hasApiAccess(user.id)) ? ownServerOf(user) : undefined;
    const senderName = displayName(user);
    if (own) return { route: 'own', smtp: own, from: { name: senderName, address: user.enterpriseEmail! }, checkAddress: true, senderName, wordsRefused: null };
    const system = await r.systemMail();
    if (!system) return undefined;
    return {
      route: 'system',
      smtp: {
        host: system.host,
        port: system.port,
        secure: system.secure,
        user: system.user,
        password: system.passwordEnc ? deps.secrets.open(system.passwordEnc) : null,
      },
      // The installation's address, so its server may send it; the user's name, so the reader knows who.
      from: { name: `${senderName} via ${system.fromName}`, address: system.fromAddress },
      replyTo: { name: senderName, address: user.email },
      checkAddress: false,
      senderName,
      wordsRefused: ownWordsRefusal({ plan: user.subscriptionPlan, standing: { emailVerified: user.emailVerified, mailServer: true } }),
    };
  }

  async function throttleTests(key: string): Promise<void> {
    try {
      await testLimiter.consume(key);
    } catch {
      throw new AppError('rate_limited', `You can send ${TEST_EMAILS_PER_10_MINUTES} test emails in ten minutes. Try again in a few minutes.`, undefined, {
        'retry-after': '600',
      });
    }
  }

  /** A test message through `sender` to `to`; the server's answer on success, its words on failure. */
  async function sendTest(sender: TSender, to: string, log: object): Promise<TTestEmailResult> {
    const where = `${sender.smtp.host}:${sender.smtp.port}`;
    const outcome: TMailOutcome = await deps.mailer.send(
      sender.smtp,
      {
        from: sender.from,
        ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
        to,
        subject: 'Formwork test email',
        text: `This message went through ${where} to check the mail settings. Documents you email from Formwork go out the same way.\n`,
      },
      { checkAddress: sender.checkAddress },
    );
    if (outcome.ok) return { to, response: outcome.response };
    deps.log.warn({ ...log, route: sender.route, smtpHost: sender.smtp.host, smtpPort: sender.smtp.port, smtpResponse: outcome.response }, `test email failed: ${outcome.message}`);
    throw new AppError('unprocessable', outcome.message);
  }

  async function toSystemSettings(stored: Awaited<ReturnType<TMailRepository['systemMail']>>): Promise<TSystemMailSettings> {
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

  async function sendSystemMail(to: string, notice: { subject: string; text: string }, log: object): Promise<boolean> {
    const system = await r.systemMail();
    if (!system) return false;
    const outcome = await deps.mailer.send(
      { host: system.host, port: system.port, secure: system.secure, user: system.user, password: system.passwordEnc ? deps.secrets.open(system.passwordEnc) : null },
      { from: { name: system.fromName, address: system.fromAddress }, to, subject: notice.subject, text: notice.text },
      { checkAddress: false },
    );
    if (!outcome.ok) deps.log.warn({ ...log, smtpHost: system.host, smtpResponse: outcome.response }, `notice email failed: ${outcome.message}`);
    return outcome.ok;
  }

  return {
    senderFor: async (userId: string) => senderOf(await userOf(userId)),

    /** Whether the installation has a mail server of its own (verification links need one). */
    hasSystemServer: async () => (await r.systemMail()) !== undefined,

    /** The admin's daily cap on users' emails through the installation's server; null when none. */
    systemDailyLimit: () => r.systemDailyLimit(),

    /** Refuses (429, until midnight UTC) what would take the installation's server past its daily cap. */
    async assertDailyRoom(recipients: number, now = new Date()): Promise<void> {
      const limit = await r.systemDailyLimit();
      if (limit === null) return;
      const sent = await r.systemSentOn(utcDay(now));
      if (sent + recipients > limit) throw dailyLimitReached(limit, now);
    },

    /**
     * A notice from the installation to one of its users (a renewal reminder), through the
     * installation's own server. False when no server is set up or it refused; the app shows the
     * same notice on screen either way.
     */
    async sendNotice(userId: string, notice: { subject: string; text: string }): Promise<boolean> {
      const user = await r.userMail(userId);
      return user ? sendSystemMail(user.email, notice, { userId }) : false;
    },

    /** The same, to an address that is not (yet) an account's: the new address of an email change. */
    sendNoticeTo: (address: string, notice: { subject: string; text: string }) => sendSystemMail(address, notice, {}),

    async emailSettings(userId: string): Promise<TEmailSettings> {
      const user = await userOf(userId);
      const [ownServerAllowed, sender, emailsPerHour] = await Promise.all([deps.plan.hasApiAccess(userId), senderOf(user), deps.plan.emailsPerHour(userId)]);
      // With no server yet, say what the installation's would allow once there is one.
      const wordsRefused = sender ? sender.wordsRefused : ownWordsRefusal({ plan: user.subscriptionPlan, standing: { emailVerified: user.emailVerified, mailServer: true } });
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
    },

    async saveEmailSettings(userId: string, input: z.output<typeof ZEmailSettingsInput>): Promise<TEmailSettings> {
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
      return this.emailSettings(userId);
    },

    /** Sends a test message through the user's own saved server to their account's address. */
    async testEmailSettings(userId: string): Promise<TTestEmailResult> {
      const user = await userOf(userId);
      if (!(await deps.plan.hasApiAccess(userId))) {
        throw new AppError('plan_limit', 'Sending through your own mail server comes with the Enterprise plan. Contact sales to upgrade.');
      }
      const own = ownServerOf(user);
      if (!own) throw new AppError('conflict', 'Save your mail server settings first, then send a test email.');
      await throttleTests(`user:${userId}`);
      return sendTest(
        { route: 'own', smtp: own, from: { name: displayName(user), address: user.enterpriseEmail! }, checkAddress: true, senderName: displayName(user), wordsRefused: null },
        user.email,
        { userId },
      );
    },

    async systemSettings(): Promise<TSystemMailSettings> {
      return toSystemSettings(await r.systemMail());
    },

    async saveSystemSettings(input: TSystemMailSettingsParsed): Promise<TSystemMailSettings> {
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
      return toSystemSettings(value);
    },

    async deleteSystemSettings(): Promise<void> {
      if (!(await r.deleteSystemMail())) throw notFound('Mail server');
    },

    /** Sends a test message through the installation's server to `to` (the admin's own address by default). */
    async testSystemSettings(adminId: string, to: string | undefined): Promise<TTestEmailResult> {
      const admin = await userOf(adminId);
      const stored = await r.systemMail();
      if (!stored) throw new AppError('conflict', 'Save the mail server first, then send a test email.');
      await throttleTests(`admin:${adminId}`);
      return sendTest(
        {
          route: 'system',
          smtp: { host: stored.host, port: stored.port, secure: stored.secure, user: stored.user, password: stored.passwordEnc ? deps.secrets.open(stored.passwordEnc) : null },
          from: { name: stored.fromName, address: stored.fromAddress },
          checkAddress: false,
          senderName: stored.fromName,
          wordsRefused: null,
        },
        to ?? admin.email,
        { adminId },
      );
    },
  };
}
export type TMailService = ReturnType<typeof createMailService>;
