import { RateLimiterMemory } from 'rate-limiter-flexible';
import { AppError } from '../../http/app-error.ts';

/**
 * How password guessing is slowed without letting a stranger lock anyone out.
 *
 * Failures are counted per (account, client IP). The first few are free; after that the same
 * client must wait before its next try, and the wait doubles with every failure, up to a cap. A
 * client that has not failed against an account is never refused, so an attacker's failures
 * cannot keep the owner out. Two wider counters stop the cheap ways around it: one IP spraying
 * many accounts is refused outright, and once an account draws failures from many IPs every
 * failing client waits from its first failure on.
 */
export const SIGN_IN_THROTTLE = {
  /** Failures one client may make against one account before it has to wait. */
  freeFailuresPerClient: 3,
  firstDelaySeconds: 2,
  maxDelaySeconds: 15 * 60,
  /** Failures from one IP across all accounts, per window, before that IP is refused. */
  perIp: 30,
  /** Failures against one account from all IPs, per window, after which no failure is free. */
  perAccountBeforeStrict: 10,
  windowSeconds: 60 * 60,
};

function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

const COUNT_ONLY = 1_000_000;

export function createSignInThrottle(limits = SIGN_IN_THROTTLE) {
  const counter = (keyPrefix: string) =>
    new RateLimiterMemory({ keyPrefix, points: COUNT_ONLY, duration: limits.windowSeconds });
  const clientFailures = counter('signin-client');
  const accountFailures = counter('signin-account');
  const ipFailures = counter('signin-ip');
  // Holds a client's current wait; block() sets it, get() reads what is left.
  const clientWaits = new RateLimiterMemory({ keyPrefix: 'signin-wait', points: 1, duration: 1 });

  const clientKey = (email: string, ip: string) => `${email.toLowerCase()}|${ip}`;
  const refuse = (ms: number) =>
    new AppError('rate_limited', `Too many failed sign-in attempts. Try again in ${describeWait(ms)}.`, undefined, {
      'retry-after': String(Math.ceil(ms / 1000)),
    });

  return {
    /** Throws a 429 while this client must wait, or while this IP has failed too often. */
    async assertMayTry(email: string, ip: string): Promise<void> {
      const [wait, byIp] = await Promise.all([clientWaits.get(clientKey(email, ip)), ipFailures.get(ip)]);
      const waitMs = wait?.msBeforeNext ?? 0;
      const ipMs = byIp && byIp.consumedPoints >= limits.perIp ? byIp.msBeforeNext : 0;
      const blockedFor = Math.max(waitMs, ipMs);
      if (blockedFor > 0) throw refuse(blockedFor);
    },

    async recordFailure(email: string, ip: string): Promise<void> {
      const key = clientKey(email, ip);
      const [client, account] = await Promise.all([
        clientFailures.penalty(key, 1),
        accountFailures.penalty(email.toLowerCase(), 1),
        ipFailures.penalty(ip, 1),
      ]);
      const free = account.consumedPoints > limits.perAccountBeforeStrict ? 0 : limits.freeFailuresPerClient;
      const overFree = client.consumedPoints - free;
      if (overFree <= 0) return;
      const seconds = Math.min(limits.maxDelaySeconds, limits.firstDelaySeconds * 2 ** (overFree - 1));
      await clientWaits.block(key, seconds);
    },

    /** A right password clears this client's record against the account; others keep theirs. */
    async recordSuccess(email: string, ip: string): Promise<void> {
      const key = clientKey(email, ip);
      await Promise.all([clientFailures.delete(key), clientWaits.delete(key)]);
    },
  };
}
export type TSignInThrottle = ReturnType<typeof createSignInThrottle>;

/** New accounts multiply the free quota, so one IP may open only a few an hour. */
export function createSignUpLimiter(perHour: number) {
  const limiter = new RateLimiterMemory({ keyPrefix: 'signup-ip', points: perHour, duration: 60 * 60 });
  return {
    async consume(ip: string): Promise<void> {
      try {
        await limiter.consume(ip);
      } catch (rejection) {
        const ms = (rejection as { msBeforeNext?: number }).msBeforeNext ?? 60_000;
        throw new AppError(
          'rate_limited',
          `Too many accounts were created from your network. Try again in ${describeWait(ms)}.`,
          undefined,
          { 'retry-after': String(Math.ceil(ms / 1000)) },
        );
      }
    },
  };
}
