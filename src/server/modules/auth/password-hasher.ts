import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import os from 'node:os';
import { AppError } from '../../http/app-error.ts';

/**
 * The auth library's scrypt parameters and encoding (`salt:key`, both hex, the salt used as its hex
 * text, the password NFKC-normalised): every stored hash was made this way, so changing any of
 * them would lock every existing account out.
 */
const SCRYPT = { p: 1, dkLen: 64 } as const;
const SALT_BYTES = 16;

/** How much work one hash is. The encoding does not record it: a hash checks only at the cost it was made with. */
export type TScryptCost = { N: number; r: number };

/** The auth library's cost, the one every stored hash was made with: about 100 ms of a core. */
export const SCRYPT_COST: TScryptCost = { N: 16384, r: 16 };

function derive(password: string, salt: string, { N, r }: TScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, SCRYPT.dkLen, { N, r, p: SCRYPT.p, maxmem: 128 * N * r * 2 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

const HEX_KEY = new RegExp(`^[0-9a-f]{${SCRYPT.dkLen * 2}}$`, 'i');

/**
 * Which queue a hash waits in when hashes are scarce. Callers with recent failed sign-ins from
 * their network wait behind everyone else, so a crowd of guessers cannot starve real sign-ins.
 */
export type THashLane = 'first' | 'behind';

export type THashGateLimits = {
  /** Hashes running at once. */
  concurrency: number;
  /** Hashes waiting for a turn, both lanes together; past it a request is refused as busy. */
  queueLimit: number;
};

/**
 * Two threads of libuv's pool are kept for file and DNS work (and Node's other users of the pool),
 * and one core is left to the event loop: a hash holds a core for its whole run.
 */
export function defaultHashGateLimits(poolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4, cores = os.availableParallelism()): THashGateLimits {
  return { concurrency: Math.max(1, Math.min(poolSize - 2, cores - 1)), queueLimit: 64 };
}

type TWaiter = { resolve: () => void; reject: (error: Error) => void };

/** Where a hash waits, and the signal of the client it is for (aborted when that client leaves). */
type THashContext = { lane: THashLane; clientGone?: AbortSignal };

/**
 * The scrypt hasher the auth library uses, with a limit on hashes at once and a bounded queue.
 * `cost` stays SCRYPT_COST outside tests, whose throwaway accounts would otherwise spend a tenth of
 * the test run's processor time on hashing.
 */
export function createPasswordHasher(limits: THashGateLimits = defaultHashGateLimits(), cost: TScryptCost = SCRYPT_COST) {
  const contexts = new AsyncLocalStorage<THashContext>();
  const queues: Record<THashLane, TWaiter[]> = { first: [], behind: [] };
  let running = 0;
  // How long one hash takes here, to tell a refused client when to come back.
  let averageMs = 100;

  const queued = () => queues.first.length + queues.behind.length;
  const busy = () => {
    const seconds = Math.max(1, Math.ceil(((queued() + running) * averageMs) / limits.concurrency / 1000));
    return new AppError('unavailable', `Sign-in is busy right now. Try again in ${seconds} seconds.`, undefined, {
      'retry-after': String(seconds),
    });
  };

  /** Neither a hash nor its answer is wanted any more; nobody will read this error. */
  const gone = () => new AppError('unavailable', 'The client closed its connection before its turn to sign in.');

  function acquire({ lane, clientGone }: THashContext): Promise<void> {
    if (clientGone?.aborted) return Promise.reject(gone());
    if (running < limits.concurrency) {
      running++;
      return Promise.resolve();
    }
    if (queued() >= limits.queueLimit) {
      // A full queue turns away the newest of those waiting behind before anyone in the first lane.
      const displaced = lane === 'first' ? queues.behind.pop() : undefined;
      if (!displaced) return Promise.reject(busy());
      displaced.reject(busy());
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: TWaiter = {
        resolve() {
          clientGone?.removeEventListener('abort', leave);
          resolve();
        },
        reject(error) {
          clientGone?.removeEventListener('abort', leave);
          reject(error);
        },
      };
      // A client that has gone gives up its place: under a flood of guesses whose senders hang
      // up, the queue would otherwise spend a full hash on each of them.
      function leave() {
        const queue = queues[lane];
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        reject(gone());
      }
      clientGone?.addEventListener('abort', leave, { once: true });
      queues[lane].push(waiter);
    });
  }

  function release() {
    const next = queues.first.shift() ?? queues.behind.shift();
    if (next) next.resolve();
    else running--;
  }

  async function gated<T>(work: () => Promise<T>): Promise<T> {
    await acquire(contexts.getStore() ?? { lane: 'first' });
    const started = performance.now();
    try {
      return await work();
    } finally {
      averageMs = averageMs * 0.8 + (performance.now() - started) * 0.2;
      release();
    }
  }

  return {
    /** What the auth library is given as `emailAndPassword.password`. */
    password: {
      async hash(password: string): Promise<string> {
        const salt = randomBytes(SALT_BYTES).toString('hex');
        const key = await gated(() => derive(password, salt, cost));
        return `${salt}:${key.toString('hex')}`;
      },
      async verify({ hash, password }: { hash: string; password: string }): Promise<boolean> {
        const [salt, stored, extra] = hash.split(':');
        // A stored value in another format matches no password.
        if (!salt || !stored || extra !== undefined || !HEX_KEY.test(stored)) return false;
        const key = await gated(() => derive(password, salt, cost));
        return timingSafeEqual(key, Buffer.from(stored, 'hex'));
      },
    },
    /**
     * Runs `work` with every hash it makes waiting in `lane`; a hash still waiting when
     * `clientGone` aborts leaves the queue without being made.
     */
    inLane<T>(lane: THashLane, work: () => Promise<T>, clientGone?: AbortSignal): Promise<T> {
      return contexts.run({ lane, clientGone }, work);
    },
    /** Hashes running and waiting, for tests and diagnostics. */
    load() {
      return { running, first: queues.first.length, behind: queues.behind.length };
    },
  };
}
export type TPasswordHasher = ReturnType<typeof createPasswordHasher>;
