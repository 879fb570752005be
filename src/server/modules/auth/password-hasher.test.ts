import { hashPassword as libraryHash, verifyPassword as libraryVerify } from 'better-auth/crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error.ts';
import { createPasswordHasher, defaultHashGateLimits } from './password-hasher.ts';

describe('the password hasher', () => {
  const { password } = createPasswordHasher();

  it("verifies a hash made by the auth library's own hasher, and refuses a wrong password", async () => {
    const stored = await libraryHash('correct horse battery');
    expect(await password.verify({ hash: stored, password: 'correct horse battery' })).toBe(true);
    expect(await password.verify({ hash: stored, password: 'correct horse batterY' })).toBe(false);
    expect(await password.verify({ hash: stored, password: '' })).toBe(false);
  });

  it("makes hashes in the library's format that the library verifies", async () => {
    const stored = await password.hash('correct horse battery');
    expect(stored).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await libraryVerify({ hash: stored, password: 'correct horse battery' })).toBe(true);
    expect(await libraryVerify({ hash: stored, password: 'wrong horse battery' })).toBe(false);
    expect(await password.verify({ hash: stored, password: 'correct horse battery' })).toBe(true);
    // A new salt every time.
    expect(await password.hash('correct horse battery')).not.toBe(stored);
  });

  it('treats composed and decomposed accents as the same password, as the library does', async () => {
    const composed = 'caf\u00e9 au lait';
    const decomposed = 'cafe\u0301 au lait';
    expect(await password.verify({ hash: await libraryHash(composed), password: decomposed })).toBe(true);
    expect(await libraryVerify({ hash: await password.hash(decomposed), password: composed })).toBe(true);
  });

  it('matches no password against a stored value in another format', async () => {
    const good = await password.hash('some password');
    const [salt, key] = good.split(':');
    for (const odd of ['', 'nocolon', `${salt}:`, `:${key}`, `${salt}:${key}:extra`, `${salt}:${key!.slice(2)}`, `${salt}:${'z'.repeat(128)}`]) {
      expect(await password.verify({ hash: odd, password: 'some password' })).toBe(false);
    }
  });
});

describe('the limit on hashes at once', () => {
  it('keeps two threads of the pool free, and a core for the event loop', () => {
    expect(defaultHashGateLimits(4, 8).concurrency).toBe(2);
    expect(defaultHashGateLimits(16, 8).concurrency).toBe(7);
    expect(defaultHashGateLimits(16, 2).concurrency).toBe(1);
    expect(defaultHashGateLimits(2, 8).concurrency).toBe(1);
    expect(defaultHashGateLimits(4, 1).concurrency).toBe(1);
  });

  it('runs no more than its limit at once, queues the rest, and refuses past the queue as busy', async () => {
    const hasher = createPasswordHasher({ concurrency: 2, queueLimit: 3 });
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, hasher.load().running)), 1);
    const outcomes = await Promise.allSettled(Array.from({ length: 7 }, (_, i) => hasher.password.hash(`password ${i}`)));
    clearInterval(watch);
    expect(peak).toBe(2);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as AppError);
    expect(refused).toHaveLength(2);
    for (const error of refused) {
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe('unavailable');
      expect(error.message).toMatch(/^Sign-in is busy right now\. Try again in \d+ seconds\.$/);
      expect(Number(error.headers?.['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect(hasher.load()).toEqual({ running: 0, first: 0, behind: 0 });
  });

  it('serves the first lane before the lane behind, and a full queue turns away those behind first', async () => {
    const hasher = createPasswordHasher({ concurrency: 1, queueLimit: 3 });
    const finished: string[] = [];
    const hash = (lane: 'first' | 'behind', name: string) =>
      hasher
        .inLane(lane, () => hasher.password.hash(name))
        .then(
          () => void finished.push(name),
          (error: unknown) => void finished.push(`${name} refused: ${(error as AppError).code}`),
        );
    const all = [
      hash('behind', 'b1'), // runs at once
      hash('behind', 'b2'),
      hash('behind', 'b3'),
      hash('first', 'f1'),
      hash('first', 'f2'), // the queue is full: b3, the newest behind, makes way
      hash('first', 'f3'), // full of the first lane and b2: b2 makes way
      hash('first', 'f4'), // nobody behind is left to make way
    ];
    await Promise.all(all);
    expect(finished).toEqual(['b3 refused: unavailable', 'b2 refused: unavailable', 'f4 refused: unavailable', 'b1', 'f1', 'f2', 'f3']);
  });

  it('makes no hash for a client that has gone, whether it left while waiting or before', async () => {
    const hasher = createPasswordHasher({ concurrency: 1, queueLimit: 8 });
    const made: string[] = [];
    const hash = (name: string, clientGone?: AbortSignal) =>
      hasher
        .inLane('first', () => hasher.password.hash(name), clientGone)
        .then(
          () => void made.push(name),
          (error: unknown) => void made.push(`${name} refused: ${(error as AppError).code}`),
        );
    const left = new AbortController();
    const leftEarlier = AbortSignal.abort();
    const all = [hash('running'), hash('leaves while waiting', left.signal), hash('stays'), hash('left before', leftEarlier)];
    expect(hasher.load()).toEqual({ running: 1, first: 2, behind: 0 });
    left.abort();
    // Its place is given up at once, not when its turn comes.
    expect(hasher.load()).toEqual({ running: 1, first: 1, behind: 0 });
    await Promise.all(all);
    expect(made).toEqual(['left before refused: unavailable', 'leaves while waiting refused: unavailable', 'running', 'stays']);
    expect(hasher.load()).toEqual({ running: 0, first: 0, behind: 0 });
  });
});
