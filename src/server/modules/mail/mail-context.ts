import { RateLimiterMemory } from 'rate-limiter-flexible';
import { DEFAULT_SMTP_PORT, type TMailRoute } from '../../../contract/mail.ts';
import type { TSecretBox } from '../../crypto/secret-box.ts';
import { notFound } from '../../http/app-error.ts';
import type { TCheckHost } from '../../net/address-rule.ts';
import type { TMailer, TSmtpServer } from './mail-transport.ts';
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

/** Test messages one user or admin may send in ten minutes: enough to fix a setting, too few to spam with. */
export const TEST_EMAILS_PER_10_MINUTES = 5;

export const displayName = (user: Pick<TUserMailRow, 'firstName' | 'lastName' | 'email'>) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ').trim() || user.email;

/** What the mail service is built from (see `createMailService`). */
export type TMailDeps = {
  repository: TMailRepository;
  secrets: TSecretBox;
  mailer: TMailer;
  /** Whether the plan includes an own server (plans with API access), and its send rate. */
  plan: { hasApiAccess(ownerId: string): Promise<boolean>; emailsPerHour(ownerId: string): Promise<number> };
  /** The address rule, for a user's own server when it is saved (it is checked again on every send). */
  checkHost: TCheckHost;
  log: { warn: (obj: object, msg: string) => void };
};

/** The state every mail use case shares: its dependencies, the test limiter, and who sends a user's mail. */
export type TMailContext = ReturnType<typeof createMailContext>;

export function createMailContext(deps: TMailDeps) {
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

  return { deps, r, testLimiter, ownServerOf, userOf, senderOf };
}
