import { count, eq, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, usageCounters } from '../db/schema.ts';
import { createTestApp, signUpOnPlan, type TTestApp } from '../test/test-app.ts';
import { createAdaptiveLimit, shedMessage } from './load-shedding.ts';

/*
 * Past its capacity the process turns new generations away at once, with 503 and Retry-After,
 * instead of making everyone wait; what it admits it finishes, and the rest of the app is served.
 */

let t: TTestApp;
let lagging: TTestApp;
beforeAll(async () => {
  // One generation at a time: the in-flight limit is reached on purpose. The event-loop signal is
  // off here: on a loaded machine (CI runs many test files at once) the loop's own delay could
  // otherwise turn every generation away, whatever the limit.
  t = await createTestApp({}, { loadShedding: { maxEventLoopDelayMs: 0, targetLatencyMs: 1, minInFlight: 1, maxInFlight: 1, retryAfterSeconds: 1 } });
  // The event-loop signal alone, with a threshold well above what a busy machine's loop shows and
  // well below the stall the test makes.
  lagging = await createTestApp(
    {},
    { loadShedding: { maxEventLoopDelayMs: 150, targetLatencyMs: 60_000, minInFlight: 256, maxInFlight: 256, retryAfterSeconds: 1 } },
  );
});
afterAll(async () => {
  await t.close();
  await lagging.close();
});

const letter = {
  name: 'Letter',
  description: '',
  content: { elements: [{ id: '1', type: 'paragraph', content: 'Dear {{name}},' }] },
  placeholders: [{ name: 'name', type: 'text', required: true }],
};

describe('load shedding', () => {
  it('turns away generations past what is in progress, with the error shape and Retry-After, and makes nothing for them', async () => {
    const { client, user } = await signUpOnPlan(t, 'premium');
    const format = (await client.post('/api/formats', letter)).json() as { id: string };
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => client.post('/api/documents', { formatId: format.id, data: { name: `N${i}` } })));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    const shed = answers.filter((a) => a.statusCode === 503);
    expect(shed.length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 503)).toBe(true);
    for (const answer of shed) {
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.json()).toEqual({ error: { code: 'unavailable', message: shedMessage(1) } });
    }
    const [stored] = await t.database.db.select({ n: count() }).from(documents).where(eq(documents.ownerId, user.id));
    expect(stored!.n).toBe(answers.length - shed.length);
    const [counted] = await t.database.db
      .select({ n: sum(usageCounters.generations) })
      .from(usageCounters)
      .where(eq(usageCounters.ownerId, user.id));
    expect(Number(counted!.n)).toBe(answers.length - shed.length);

    // Once those are done, the next is admitted.
    expect((await client.post('/api/documents', { formatId: format.id, data: { name: 'Later' } })).statusCode).toBe(201);
  });

  it('sends a generation’s answer uncompressed, as a small answer should be', async () => {
    const { client } = await signUpOnPlan(t, 'premium');
    const format = (await client.post('/api/formats', letter)).json() as { id: string };
    const made = await client.request(
      'POST',
      '/api/documents',
      { formatId: format.id, data: { name: 'Plain text '.repeat(150) } },
      { 'accept-encoding': 'br, gzip' },
    );
    expect(made.body.length).toBeGreaterThan(1024);
    expect(made.statusCode).toBe(201);
    expect(made.headers['content-encoding']).toBeUndefined();
    expect((made.json() as { name: string }).name).toBeTruthy();
  });

  it('turns away generations while the event loop lags, and still answers health checks and reads', async () => {
    const { client } = await signUpOnPlan(lagging, 'premium');
    const format = (await client.post('/api/formats', letter)).json() as { id: string };
    // Hold the event loop in 400 ms turns, as a run of heavy work would, for over a second and until
    // the request has its answer: the delay is sampled four times a second, and a busy machine can
    // take longer than that to bring a request to the check, which would then see a quiet loop.
    let stalling = true;
    const stall = (async () => {
      while (stalling) {
        const until = performance.now() + 400;
        while (performance.now() < until);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const refused = await client.post('/api/documents', { formatId: format.id, data: { name: 'Stalled' } });
    stalling = false;
    await stall;
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect((await lagging.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await client.get('/api/documents')).statusCode).toBe(200);

    // Once the loop is quiet again it makes documents again, as a client that waits out
    // Retry-After finds (within a few tries on a busy machine).
    let calm = 0;
    for (let attempt = 0; attempt < 10 && calm !== 201; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      calm = (await client.post('/api/documents', { formatId: format.id, data: { name: 'Calm' } })).statusCode;
    }
    expect(calm).toBe(201);
  });
});

describe('the adaptive limit', () => {
  let clock = 0;
  const limiter = () => createAdaptiveLimit({ targetLatencyMs: 100, minInFlight: 2, maxInFlight: 10 }, () => clock);
  /** Admits as many as it will, lets them take `ms`, and closes the window. */
  function window(limit: ReturnType<typeof limiter>, ms: number): number {
    const admitted: ((timed: boolean) => void)[] = [];
    for (let release = limit.enter(); release; release = limit.enter()) admitted.push(release);
    clock += ms;
    for (const release of admitted) release(true);
    limit.adjust();
    return admitted.length;
  }

  it('admits up to its limit, lowers it by a tenth while generations are slow, down to its floor', () => {
    const limit = limiter();
    expect(window(limit, 300)).toBe(8);
    expect(limit.limit).toBe(7);
    for (let i = 0; i < 30; i++) window(limit, 300);
    expect(limit.limit).toBe(2);
  });

  it('raises it by one while generations are quick and the limit is reached, up to its ceiling', () => {
    const limit = limiter();
    window(limit, 20);
    expect(limit.limit).toBe(9);
    for (let i = 0; i < 30; i++) window(limit, 20);
    expect(limit.limit).toBe(10);
  });

  it('does not count the time of answers that made nothing', () => {
    const limit = limiter();
    const admitted: ((timed: boolean) => void)[] = [];
    for (let release = limit.enter(); release; release = limit.enter()) admitted.push(release);
    clock += 1;
    for (const release of admitted) release(false);
    limit.adjust();
    expect(limit.limit).toBe(8);
  });

  it('stays put when quick but not full, and when nothing finished', () => {
    const limit = limiter();
    const release = limit.enter()!;
    clock += 10;
    release(true);
    limit.adjust();
    expect(limit.limit).toBe(8);
    limit.adjust();
    expect(limit.limit).toBe(8);
  });
});
