import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A request that makes a PDF: turned away with 503 and Retry-After when the process is overloaded. */
    shedUnderLoad?: boolean;
  }
}

export type TLoadShedding = {
  /** Mean event-loop delay, over one sample, past which every new generation is turned away (0: never). */
  maxEventLoopDelayMs: number;
  /**
   * How long an admitted generation should take, at the 90th percentile. The number admitted at
   * once adapts to keep it there: lowered by a tenth when a window's generations took longer,
   * raised by one when they were quicker and the limit was reached. Those admitted are answered
   * promptly; the rest are told at once when to come back.
   */
  targetLatencyMs: number;
  /** The adaptive limit's floor and ceiling: never fewer at once than the floor, so the process always works. */
  minInFlight: number;
  maxInFlight: number;
  /** What a turned-away client is told to wait before sending the request again. */
  retryAfterSeconds: number;
};

/**
 * The floor lets a few large documents (a 200-row invoice renders for a few hundred milliseconds)
 * run on every render thread with as many waiting, without any being turned away.
 */
export const LOAD_SHEDDING: TLoadShedding = { maxEventLoopDelayMs: 200, targetLatencyMs: 100, minInFlight: 8, maxInFlight: 256, retryAfterSeconds: 1 };

/**
 * Never sheds: for test servers, whose requests share a machine with many other test processes,
 * so a slow window there says nothing about the server under test.
 */
export const NO_LOAD_SHEDDING: TLoadShedding = {
  maxEventLoopDelayMs: 0,
  targetLatencyMs: Infinity,
  minInFlight: Infinity,
  maxInFlight: Infinity,
  retryAfterSeconds: 1,
};

/** How often the limit is adjusted: long enough to finish dozens of generations at full load. */
const WINDOW_MS = 250;

export const shedMessage = (seconds: number) =>
  `The server is busy making other documents and did not start this one. Send the same request again in ${seconds === 1 ? 'a second' : `${seconds} seconds`}.`;

/**
 * Turns away new generation requests (routes with `shedUnderLoad`) before any work is done on
 * them, when the event loop lags or more are in progress than the process finishes within the
 * target wait. A turned-away request did nothing, so sending it again is always safe. Everything
 * else (health checks, downloads, the web app's pages) is served as usual.
 */
export async function registerLoadShedding(app: FastifyInstance, options: TLoadShedding = LOAD_SHEDDING) {
  const busy = () => new AppError('unavailable', shedMessage(options.retryAfterSeconds), undefined, { 'retry-after': String(options.retryAfterSeconds) });
  const sheds = (request: FastifyRequest) => request.routeOptions.config.shedUnderLoad === true;

  if (options.maxEventLoopDelayMs > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: options.maxEventLoopDelayMs,
      // Four samples a second: a stall is noticed within a quarter of a second.
      sampleInterval: 250,
      // Only generations are turned away; the rest of the app carries on under pressure.
      pressureHandler: async (request) => {
        if (sheds(request)) throw busy();
      },
    });
  }

  const limiter = createAdaptiveLimit(options);
  const window = setInterval(limiter.adjust, WINDOW_MS);
  window.unref();
  app.addHook('onClose', async () => clearInterval(window));

  // Released when the answer is sent, timed only when it made something: a refusal (400, 401,
  // 429) is quick and says nothing about how long a generation takes. A client that goes away
  // releases its place untimed, so a lost answer cannot hold it for ever.
  const releases = new WeakMap<FastifyRequest, (timed: boolean) => void>();
  app.addHook('onRequest', async (request, reply) => {
    if (!sheds(request)) return;
    const release = limiter.enter();
    if (!release) throw busy();
    releases.set(request, release);
    reply.raw.once('close', () => release(false));
  });
  app.addHook('onResponse', async (request, reply) => releases.get(request)?.(reply.statusCode < 400));
}

/** Route options of a request that makes a PDF, which the server may turn away when overloaded. */
export const SHED_UNDER_LOAD = { config: { shedUnderLoad: true } } as const;

/**
 * Route options of a call that makes one document and answers it as JSON of a kilobyte or two:
 * shed under load, and not compressed, which cost about 4% of the server's time under load and
 * saves a client nothing it would notice at that size.
 */
export const GENERATION_ANSWER = { ...SHED_UNDER_LOAD, compress: false } as const;

/** The limit on generations at once, moved by how long the last window's took (additive increase, multiplicative decrease). */
export function createAdaptiveLimit(options: Pick<TLoadShedding, 'targetLatencyMs' | 'minInFlight' | 'maxInFlight'>, now = () => performance.now()) {
  let limit = Math.min(options.maxInFlight, options.minInFlight * 4);
  let inFlight = 0;
  let reachedLimit = false;
  let took: number[] = [];
  return {
    get limit() {
      return Math.floor(limit);
    },
    /** Admits one, with the function that says it is done (and whether to count its time); undefined when the limit is reached. */
    enter(): ((timed: boolean) => void) | undefined {
      if (inFlight >= Math.floor(limit)) {
        reachedLimit = true;
        return undefined;
      }
      inFlight++;
      if (inFlight >= Math.floor(limit)) reachedLimit = true;
      const started = now();
      let done = false;
      return (timed) => {
        if (done) return;
        done = true;
        inFlight--;
        if (timed) took.push(now() - started);
      };
    },
    adjust() {
      if (took.length > 0) {
        took.sort((a, b) => a - b);
        const p90 = took[Math.min(took.length - 1, Math.floor(took.length * 0.9))]!;
        if (p90 > options.targetLatencyMs) limit = Math.max(options.minInFlight, limit * 0.9);
        else if (reachedLimit) limit = Math.min(options.maxInFlight, limit + 1);
      }
      took = [];
      reachedLimit = inFlight >= Math.floor(limit);
    },
  };
}
