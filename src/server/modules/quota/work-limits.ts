import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../http/app-error.ts';

/**
 * Work the server does for free: data that fails its checks costs no quota, and previews store
 * nothing, yet both cost the server a check, formulas and often a render. These per-user rates
 * keep one user from turning that into a flood. They protect this process's own threads, so each
 * process counts for itself, in memory, at no cost per request.
 */
export const WORK_LIMITS = {
  /** Documents whose data failed its checks, per user per minute; a person fixing fields sends a few. */
  failedChecksPerMinute: 30,
  /** Previews per user per minute: the builder and the form ask for one per pause in typing. */
  previewsPerMinute: 120,
  /**
   * Requests of each kind with a large body one user may have in progress at once. Reading and
   * checking a large body takes the event loop for milliseconds, so sixty sent together would
   * queue everyone else's requests behind them; small ones cost little, and an integrator's burst
   * of them is welcome.
   */
  largeInFlightPerUser: 1,
  /** A body this large (or of unknown length) counts as large: a list of a few hundred cells. */
  largeBodyBytes: 32 * 1024,
};

export type TFreeWork = 'document' | 'preview';

const PREVIEWS_REFUSED = 'Too many previews were asked for in the last minute.';
const secondsText = (seconds: number) => (seconds === 1 ? 'a second' : `${seconds} seconds`);
const secondsLeft = (res: RateLimiterRes | null) => Math.max(1, Math.ceil((res?.msBeforeNext ?? 60_000) / 1000));

export function createWorkLimits(limits = WORK_LIMITS) {
  const failedChecks = new RateLimiterMemory({ keyPrefix: 'failed-checks', points: limits.failedChecksPerMinute, duration: 60 });
  const previews = new RateLimiterMemory({ keyPrefix: 'previews', points: limits.previewsPerMinute, duration: 60 });
  const refuse = (message: string, seconds: number) =>
    new AppError('rate_limited', `${message} Try again in ${secondsText(seconds)}.`, undefined, { 'retry-after': String(seconds) });

  const inFlight = new Map<string, number>();

  return {
    /**
     * Counts a request of `kind` with a large body (`bodyBytes`, undefined when unknown) in
     * progress for the user until `release` is called, or refuses it at once when the user already
     * has as many as they may. Small bodies are not counted.
     */
    enter(kind: TFreeWork, ownerId: string, bodyBytes: number | undefined): () => void {
      if (bodyBytes !== undefined && bodyBytes < limits.largeBodyBytes) return () => {};
      const key = `${kind}|${ownerId}`;
      const running = inFlight.get(key) ?? 0;
      if (running >= limits.largeInFlightPerUser) {
        throw refuse(kind === 'preview' ? 'Too many previews are being made for you at once.' : 'Too many documents are being made for you at once.', 1);
      }
      inFlight.set(key, running + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (inFlight.get(key) ?? 1) - 1;
        if (left > 0) inFlight.set(key, left);
        else inFlight.delete(key);
      };
    },

    /** Refuses, before any checking, a user who has sent too much data that failed its checks. */
    async assertMayCheck(ownerId: string): Promise<void> {
      const res = await failedChecks.get(ownerId);
      if (res && res.consumedPoints >= limits.failedChecksPerMinute) {
        throw refuse('Too many documents with data that failed its checks were sent in the last minute. Fix the highlighted fields first.', secondsLeft(res));
      }
    },

    async recordFailedCheck(ownerId: string): Promise<void> {
      await failedChecks.penalty(ownerId, 1);
    },

    /** Refuses, before the request's body is even read, a user past their preview rate. */
    async assertMayPreview(ownerId: string): Promise<void> {
      const res = await previews.get(ownerId);
      if (res && res.consumedPoints >= limits.previewsPerMinute) throw refuse(PREVIEWS_REFUSED, secondsLeft(res));
    },

    /** Counts one preview, or refuses it past the user's rate. */
    async takePreview(ownerId: string): Promise<void> {
      try {
        await previews.consume(ownerId);
      } catch (rejection) {
        throw refuse(PREVIEWS_REFUSED, secondsLeft(rejection as RateLimiterRes));
      }
    },
  };
}
export type TWorkLimits = ReturnType<typeof createWorkLimits>;
