import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TFormat, TFormatInput } from '../../../contract/formats.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { users } from '../../db/schema.ts';
import { createTestApp, TEST_ORIGIN, TestClient, type TTestApp } from '../../test/test-app.ts';

/*
 * What one signed-in user can make the server do for free: data that fails its checks costs no
 * quota, and previews store nothing, yet both make the server work. Neither may hold the event
 * loop, so /healthz (and everyone else) keeps answering while one user floods them.
 */

let t: TTestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
});

const errorOf = (response: { json(): unknown }) => ZApiError.parse(response.json()).error;

const textColumns = Array.from({ length: 16 }, (_, i) => ({ name: `c${i}`, type: i % 2 ? 'number' : 'text', required: true }) as const);
/** Twenty columns, two of them formulas over the row: the costliest list a format may have to check. */
const invoice: TFormatInput = {
  name: 'Wide invoice',
  content: {
    elements: [
      { id: 'h', type: 'heading', content: 'Invoice' },
      { id: 't', type: 'table', rows: [['{{c0}}', '{{c1}}', '{{qty}}', '{{amount}}']], repeat: { row: 0, list: 'items' } },
      { id: 'p', type: 'paragraph', content: 'Total {{total}}' },
    ],
  },
  placeholders: [
    {
      name: 'items',
      type: 'list',
      required: true,
      columns: [
        ...textColumns,
        { name: 'qty', type: 'number', required: true },
        { name: 'price', type: 'number', required: true },
        { name: 'amount', type: 'formula', expression: 'qty * price' },
        { name: 'tax', type: 'formula', expression: 'round(amount * 0.18, 2)' },
      ],
    },
    { name: 'total', type: 'formula', expression: 'sum(items.amount)' },
  ],
};

function rows(count: number, valid: boolean) {
  return Array.from({ length: count }, (_, i) => ({
    ...Object.fromEntries(textColumns.map((c) => [c.name, c.type === 'number' ? (valid ? String(i) : 'not a number') : `row ${i} text`])),
    qty: valid ? '2' : 'two',
    price: '12.50',
  }));
}

async function signedIn(plan: 'free' | 'basic' = 'basic') {
  const client = new TestClient(t.app);
  const { user } = await client.signUp();
  await t.database.db.update(users).set({ subscriptionPlan: plan }).where(eq(users.id, user.id));
  return { client, user };
}

type TFlood = { url: string; body: string; connections: number };

/**
 * Sends each flood from its own thread until `ms` have passed, so building and sending requests
 * takes no time from the event loop being measured here. Resolves with the statuses seen.
 */
function flood(floods: TFlood[], cookie: string, ms: number): Promise<Record<string, number>> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { floods, cookie, ms, origin } = workerData;
    const statuses = {};
    const until = Date.now() + ms;
    const loop = async (f) => {
      while (Date.now() < until) {
        try {
          const r = await fetch(f.url, { method: 'POST', body: f.body, headers: { cookie, origin, 'content-type': 'application/json' } });
          await r.arrayBuffer();
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        } catch {
          statuses.failed = (statuses.failed ?? 0) + 1;
        }
      }
    };
    Promise.all(floods.flatMap((f) => Array.from({ length: f.connections }, () => loop(f)))).then(() => parentPort.postMessage(statuses));
  `;
  const worker = new Worker(source, { eval: true, workerData: { floods, cookie, ms, origin: TEST_ORIGIN } });
  return new Promise((resolve, reject) => {
    worker.once('message', (statuses: Record<string, number>) => {
      void worker.terminate();
      resolve(statuses);
    });
    worker.once('error', reject);
  });
}

/** /healthz's answer times (ms), one probe every 20 ms until `done` settles. */
async function probeHealth(done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  const times: number[] = [];
  while (!finished) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/healthz`);
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return times.sort((a, b) => a - b);
}
const p99 = (sorted: number[]) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;

describe('free work is bounded and counted', () => {
  it('answers an invalid 1,000-row list with every cell named, and refuses an over-quota user before checking anything', async () => {
    const { client, user } = await signedIn();
    const format = (await client.post('/api/formats', invoice)).json() as TFormat;
    const refused = await client.post('/api/documents', { formatId: format.id, data: { items: rows(1_000, false) } });
    expect(refused.statusCode).toBe(400);
    const error = errorOf(refused);
    expect(error.code).toBe('validation_failed');
    expect(error.fields?.['items[0].c1']).toMatch(/number/i);
    // The first hundred problems are named, enough to know what to fix.
    expect(Object.keys(error.fields ?? {})).toHaveLength(100);

    const made = await client.post('/api/documents', { formatId: format.id, data: { items: rows(1_000, true) } });
    expect(made.statusCode).toBe(201);

    // No generations left: refused at once, even though the data is wrong too.
    await t.database.db.update(users).set({ apiCallsLimit: 1 }).where(eq(users.id, user.id));
    const overQuota = await client.post('/api/documents', { formatId: format.id, data: { items: rows(1_000, false) } });
    expect(overQuota.statusCode).toBe(429);
    expect(errorOf(overQuota).code).toBe('quota_exceeded');
  });

  it('limits how often one user may send data that fails its checks, and how many previews they ask for', async () => {
    const { client } = await signedIn();
    const format = (await client.post('/api/formats', invoice)).json() as TFormat;
    const bad = { formatId: format.id, data: { items: rows(3, false) } };
    const answers: number[] = [];
    for (let i = 0; i < 40; i++) answers.push((await client.post('/api/documents', bad)).statusCode);
    expect(answers.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(answers.at(-1)).toBe(429);
    const limited = await client.post('/api/documents', bad);
    expect(errorOf(limited).code).toBe('rate_limited');
    expect(errorOf(limited).message).toMatch(/failed its checks/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another user is not affected.
    const other = await signedIn();
    const theirs = (await other.client.post('/api/formats', invoice)).json() as TFormat;
    expect((await other.client.post('/api/documents', { formatId: theirs.id, data: { items: rows(3, false) } })).statusCode).toBe(400);

    const previews: number[] = [];
    for (let i = 0; i < 150; i++) previews.push((await client.post(`/api/formats/${format.id}/preview`, { data: {} })).statusCode);
    expect(previews.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(previews.at(-1)).toBe(429);
  }, 120_000);
});

describe('a flood of free work does not stall the server', () => {
  it('keeps /healthz p99 under 100 ms while 6 connections send invalid 1,000-row lists and 60 previews run at once, for 15 s', async () => {
    const { client } = await signedIn();
    const format = (await client.post('/api/formats', invoice)).json() as TFormat;
    // Steady state: the render threads are started and their code loaded before the flood.
    expect((await client.post(`/api/formats/${format.id}/preview`, { data: { items: rows(1_000, true) } })).statusCode).toBe(200);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const statuses = flood(
      [
        { url: `${baseUrl}/api/documents`, body: JSON.stringify({ formatId: format.id, data: { items: rows(1_000, false) } }), connections: 6 },
        { url: `${baseUrl}/api/formats/${format.id}/preview`, body: JSON.stringify({ data: { items: rows(1_000, true) } }), connections: 60 },
      ],
      client.cookieHeader,
      15_000,
    );
    const health = await probeHealth(statuses);
    const seen = await statuses;
    expect(seen.failed ?? 0).toBe(0);
    expect(Object.keys(seen).every((s) => ['200', '400', '429'].includes(s))).toBe(true);
    delay.disable();
    // Said when the bound is missed: where the time went.
    const figures = JSON.stringify({ seen, probes: health.length, p50: health[health.length >> 1], p99: p99(health), loopDelayMaxMs: delay.max / 1e6 });
    expect(health.length, figures).toBeGreaterThan(100);
    expect(p99(health), figures).toBeLessThan(100);
  }, 90_000);
});
