import type { TConfig } from '../../config.ts';
import { coresPerProcess } from '../../cores.ts';
import type { TDb } from '../../db/client.ts';
import type { TUserAccounts, TUsersService } from '../users/index.ts';
import { createAuthRepository } from './auth.repository.ts';
import { guessingNotice, type TNotice } from './auth-notices.ts';
import type { TBetterAuth } from './better-auth.ts';
import { createEmailVerificationRepository } from './email-verification.repository.ts';
import { createPasswordHasher, defaultHashGateLimits, type THashGateLimits, type TScryptCost } from './password-hasher.ts';
import { createSessionMemo, SESSION_MEMO_MS, SHARED_SESSION_MEMO_MS } from './session-memo.ts';
import { createRecoveryLimiter, createSignInThrottle, createSignUpLimiter } from './sign-in-throttle.ts';
import type { TSignUpPolicyGate } from './sign-up-policy.ts';

export type TAuthServiceDeps = {
  db: TDb;
  config: TConfig;
  users: Pick<TUserAccounts, 'findById' | 'findByEmail' | 'setName' | 'setRole'>;
  usersService: TUsersService;
  log: { warn: (obj: object, msg: string) => void };
  /** Sends a notice through the installation's mail server; false when none is set up. */
  notify?: (userId: string, notice: TNotice) => Promise<boolean>;
  /** Whether the installation has a mail server: verification is only asked for when a link can arrive. */
  mailServer?: () => Promise<boolean>;
  /** The same, to an address that is no account's yet (the new address of an email change). */
  mailTo?: (address: string, notice: TNotice) => Promise<boolean>;
  /** The throttle's clock; tests move it past the waits. */
  clock?: () => Date;
  hashLimits?: THashGateLimits;
  /** The scrypt cost (default SCRYPT_COST); tests pass a cheaper one. */
  hashCost?: TScryptCost;
  /** Who may create an account (sign-up-policy.ts); without it, anyone may. */
  signUpPolicy?: TSignUpPolicyGate;
};

/**
 * What the auth use cases share: one hasher, one throttle and one session memo per service, so
 * their limits and memories hold across sign-in, sign-up, recovery and password changes alike.
 * `auth` is a getter because the library instance is rebuilt when OIDC discovery failed at start.
 */
export function createAuthContext(deps: TAuthServiceDeps, auth: () => TBetterAuth) {
  const { config } = deps;
  // A hash holds a core for its whole run: the WEB_CONCURRENCY processes on this machine split them.
  const hasher = createPasswordHasher(deps.hashLimits ?? defaultHashGateLimits(undefined, coresPerProcess(config.webConcurrency)), deps.hashCost);
  const isAdminEmail = (email: string) => config.adminEmails.has(email.toLowerCase());
  const mailServer = deps.mailServer ?? (async () => false);
  const links = createEmailVerificationRepository(deps.db);
  const counters = createAuthRepository(deps.db);
  const now = deps.clock ?? (() => new Date());

  // Emails go out after the answer, so a caller learns nothing from the time they take; shutting
  // down waits for those on their way.
  const noticesInFlight = new Set<Promise<void>>();
  function inBackground(what: string, work: () => Promise<unknown>) {
    const sending = work()
      .then(() => undefined)
      .catch((error: unknown) => deps.log.warn({ err: error }, `could not send the ${what}`))
      .finally(() => noticesInFlight.delete(sending));
    noticesInFlight.add(sending);
  }

  // On the embedded database this is the only process that can end a session (the data directory
  // is locked to it), so remembering which user a session cookie belongs to stays exact as long
  // as sign-out forgets it here; that saves two reads on every request. On PostgreSQL other
  // processes may end a session too, so it is remembered for seconds only: a sign-out elsewhere
  // applies within SHARED_SESSION_MEMO_MS.
  const knownSessions = createSessionMemo(config.databaseUrl ? SHARED_SESSION_MEMO_MS : SESSION_MEMO_MS);

  const throttle = createSignInThrottle({ counters, now });
  const signUps = createSignUpLimiter({ counters, now, perHour: config.signUpsPerIpPerHour });
  const recovery = createRecoveryLimiter({ counters, now });

  function sendGuessingNotice(email: string) {
    const notify = deps.notify;
    if (!notify) return;
    inBackground('sign-in attempts notice', async () => {
      const owner = await deps.users.findByEmail(email);
      if (owner) await notify(owner.id, guessingNotice(owner.firstName, owner.email, config.publicUrl));
    });
  }

  return {
    deps,
    config,
    auth,
    hasher,
    isAdminEmail,
    mailServer,
    links,
    counters,
    now,
    inBackground,
    noticesInFlight,
    knownSessions,
    throttle,
    signUps,
    recovery,
    sendGuessingNotice,
  };
}
export type TAuthContext = ReturnType<typeof createAuthContext>;
