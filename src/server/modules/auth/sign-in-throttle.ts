import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { AppError } from '../../http/app-error.ts';
import type { TAuthRepository, TCounter, TWaitRule } from './auth.repository.ts';
import type { THashLane } from './password-hasher.ts';

/**
 * How password guessing is slowed without letting a stranger lock anyone out for good.
 *
 * Every attempt is counted before its password is checked (and taken back when it was right), so a
 * burst of parallel guesses is held to the same rules as guesses one after another. The counters
 * live in the database, shared by every app process.
 *
 * - Per account and client: a few failures are free, then that client waits before its next try,
 *   twice as long after every failure, up to a cap. A client that has not failed against the
 *   account does not wait for this one's failures.
 * - Per account, from everywhere: past a ceiling of failures in the window, every attempt against
 *   the account waits, whoever makes it, and the wait grows with every further failure up to a cap,
 *   so many addresses buy no more guesses than one. The owner is told once a day by email.
 * - Per client network: failures are only remembered, never refused on; while hashes are scarce, a
 *   network that has failed recently waits behind everyone else (password-hasher.ts).
 */
export const SIGN_IN_THROTTLE = {
  /** Failures one client may make against one account before it has to wait. */
  freeFailuresPerClient: 3,
  firstDelaySeconds: 2,
  maxDelaySeconds: 15 * 60,
  /** Failures against one account from everywhere, per window, after which every attempt waits. */
  accountCeiling: 10,
  firstAccountDelaySeconds: 30,
  maxAccountDelaySeconds: 15 * 60,
  windowSeconds: 60 * 60,
  /** How often the owner of an account past its ceiling is told, at most. */
  noticeEverySeconds: 24 * 60 * 60,
};
export type TSignInLimits = typeof SIGN_IN_THROTTLE;

export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

function refusal(message: string, ms: number): AppError {
  return new AppError('rate_limited', `${message} Try again in ${describeWait(ms)}.`, undefined, {
    'retry-after': String(Math.max(1, Math.ceil(ms / 1000))),
  });
}
const TOO_MANY_FAILURES = 'Too many failed sign-in attempts.';

/**
 * What one client is counted as. An IPv6 user is given a whole /64 and can pick any address in
 * it, so the network is the client there; an IPv4 address (mapped or not) is one client.
 */
export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

/** Keys are digests: the table holds counts, not who was counted. */
const keyOf = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('base64url');

/** One sign-in attempt that has been counted and let through to the password check. */
export type TAdmittedAttempt = {
  lane: THashLane;
  email: string;
  keys: { client: string; account: string; network: string };
  client: TCounter;
  account: TCounter;
};

export function createSignInThrottle(deps: { counters: TAuthRepository; now: () => Date; limits?: TSignInLimits }) {
  const limits = deps.limits ?? SIGN_IN_THROTTLE;
  const { counters, now } = deps;
  const clientRule: TWaitRule = {
    from: limits.freeFailuresPerClient + 1,
    firstSeconds: limits.firstDelaySeconds,
    maxSeconds: limits.maxDelaySeconds,
  };
  const accountRule: TWaitRule = {
    from: limits.accountCeiling,
    firstSeconds: limits.firstAccountDelaySeconds,
    maxSeconds: limits.maxAccountDelaySeconds,
  };
  const keysOf = (email: string, ip: string) => {
    const account = email.trim().toLowerCase();
    const network = clientNetwork(ip);
    return {
      email: account,
      keys: { client: keyOf('client', account, network), account: keyOf('account', account), network: keyOf('network', network) },
    };
  };

  return {
    /**
     * Counts an attempt against the account from this client, or throws a 429 while either must
     * wait. The answer says which hash lane the attempt takes.
     */
    async admit(emailInput: string, ip: string): Promise<TAdmittedAttempt> {
      const at = now();
      const { email, keys } = keysOf(emailInput, ip);
      const admission = await counters.admit(keys, at, limits.windowSeconds, { client: clientRule, account: accountRule });
      if (!admission.admitted) {
        if (admission.refundClient) await counters.refund(keys.client, admission.refundClient);
        // Measured from now, not from `at`: a wait set by a request that read the clock after this
        // one would otherwise look longer than any wait the rules give.
        throw refusal(TOO_MANY_FAILURES, Math.max(1000, (admission.waitUntil?.getTime() ?? 0) - now().getTime()));
      }
      const lane: THashLane = admission.networkFailures > 0 ? 'behind' : 'first';
      return { lane, email, keys, client: admission.client, account: admission.account };
    },

    /**
     * The password was wrong. Answers whether the account has just gone past its ceiling for the
     * first time in a day, which is when its owner is told.
     */
    async failed(attempt: TAdmittedAttempt): Promise<{ tellOwner: boolean }> {
      const at = now();
      await counters.charge(attempt.keys.network, at, limits.windowSeconds);
      if (attempt.account.count < limits.accountCeiling) return { tellOwner: false };
      const first = await counters.take(keyOf('notice', attempt.email), at, limits.noticeEverySeconds, 1);
      return { tellOwner: first !== undefined };
    },

    /** A right password clears this client's record against the account; others keep theirs. */
    async succeeded(attempt: TAdmittedAttempt): Promise<void> {
      await Promise.all([counters.clear(attempt.keys.client), counters.refund(attempt.keys.account, attempt.account)]);
    },

    /** The password was never checked (sign-in was busy, or failed on our side): the attempt does not count. */
    async abandoned(attempt: TAdmittedAttempt): Promise<void> {
      await Promise.all([counters.refund(attempt.keys.client, attempt.client), counters.refund(attempt.keys.account, attempt.account)]);
    },

    /** The hash lane for a request that is not a sign-in (a sign-up) from this client. */
    async laneOf(ip: string): Promise<THashLane> {
      const key = keyOf('network', clientNetwork(ip));
      return ((await counters.read([key], now())).get(key)?.count ?? 0) > 0 ? 'behind' : 'first';
    },

    sweep(): Promise<void> {
      return counters.sweep(now());
    },
  };
}
export type TSignInThrottle = ReturnType<typeof createSignInThrottle>;

/** New accounts multiply the free quota, so one client may open only a few an hour. */
export function createSignUpLimiter(deps: { counters: TAuthRepository; now: () => Date; perHour: number }) {
  const windowSeconds = 60 * 60;
  return {
    /** Counts a sign-up from this client, or throws a 429 once the hour holds the limit. */
    async consume(ip: string): Promise<{ key: string; counter: TCounter }> {
      const at = deps.now();
      const key = keyOf('sign-up', clientNetwork(ip));
      const counter = await deps.counters.take(key, at, windowSeconds, deps.perHour);
      if (counter) return { key, counter };
      const windowEnds = (await deps.counters.read([key], at)).get(key)?.windowEnds;
      throw refusal('Too many accounts were created from your network.', Math.max(1000, (windowEnds?.getTime() ?? 0) - at.getTime()));
    },
    async refund(counted: { key: string; counter: TCounter }): Promise<void> {
      await deps.counters.refund(counted.key, counted.counter);
    },
  };
}

/**
 * Limits on the ways back into an account. Reset links go only to the account's own address, but
 * each request is a mail, so an address gets a few an hour and a network a few more; a reset token
 * is too long to guess, and a network still gets only so many tries at one. Addresses without an
 * account are counted the same way, so the limits tell nothing about who has one.
 */
export const RECOVERY_LIMITS = {
  resetMailsPerAddressPerHour: 3,
  resetRequestsPerNetworkPerHour: 10,
  resetTriesPerNetworkPerHour: 20,
};

export function createRecoveryLimiter(deps: { counters: TAuthRepository; now: () => Date; limits?: typeof RECOVERY_LIMITS }) {
  const limits = deps.limits ?? RECOVERY_LIMITS;
  const windowSeconds = 60 * 60;
  async function take(key: string, limit: number, message: string): Promise<void> {
    const at = deps.now();
    if (await deps.counters.take(key, at, windowSeconds, limit)) return;
    const windowEnds = (await deps.counters.read([key], at)).get(key)?.windowEnds;
    throw refusal(message, Math.max(1000, (windowEnds?.getTime() ?? 0) - at.getTime()));
  }
  return {
    /** Counts a request for a reset link, or throws a 429 once the network or the address has had its share. */
    async resetRequested(email: string, ip: string): Promise<void> {
      await take(keyOf('reset-network', clientNetwork(ip)), limits.resetRequestsPerNetworkPerHour, 'Too many password reset requests from your network.');
      await take(
        keyOf('reset-address', email.trim().toLowerCase()),
        limits.resetMailsPerAddressPerHour,
        'Too many password reset emails were asked for this address.',
      );
    },
    /** Counts a use of a reset link, or throws a 429 past the network's share. */
    async resetTried(ip: string): Promise<void> {
      await take(keyOf('reset-try', clientNetwork(ip)), limits.resetTriesPerNetworkPerHour, 'Too many password reset attempts from your network.');
    },
  };
}
