import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents.ts';
import type { TFormat } from '../../../contract/formats.ts';
import { documents, usageCounters, workspaces } from '../../db/schema.ts';
import { createTestApp, signUpOnPlan, type TTestApp } from '../../test/test-app.ts';
import { countingStatements } from '../../test/counting-db.ts';
import { DEFAULT_PLAN_CATALOGUE, FALLBACK_API_CALLS_LIMIT } from '../../../contract/plan-catalogue.ts';
import { usagePeriod, type TGenerationLimits } from '../workspaces/index.ts';
import { createDocumentsRepository, FormatChangedError, QuotaExceededError, type TNewDocument } from './documents.repository.ts';

/*
 * createCounted groups the generations that arrive while a statement runs into one statement
 * (group commit). These call the repository directly, all at once, so every call after the first
 * is stored by a grouped statement, which must count exactly as one statement per document does.
 */

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The default catalogue's limits, as the quota service gives them: the free plan makes 30 a month. */
const LIMITS: TGenerationLimits = {
  byPlan: Object.fromEntries(DEFAULT_PLAN_CATALOGUE.map((p) => [p.id, p.generationsPerMonth])),
  fallback: FALLBACK_API_CALLS_LIMIT,
};

const FORMAT = {
  name: 'Note',
  content: { elements: [{ id: 'p', type: 'paragraph', content: 'Hello {{client_name}}' }] },
  placeholders: [{ name: 'client_name', type: 'text', required: true }],
};

/** A user on the free plan with `used` generations counted this month, and a document of theirs to copy. */
async function owner(used: number) {
  const { client, user } = await signUpOnPlan(t, 'free');
  const format = (await client.post('/api/formats', FORMAT)).json() as TFormat;
  const made = (await client.post('/api/documents', { formatId: format.id, data: { client_name: 'First' } })).json() as TDocument;
  await t.database.db
    .update(usageCounters)
    .set({ generations: used })
    .where(and(eq(usageCounters.ownerId, user.id), eq(usageCounters.period, usagePeriod())));
  const [row] = await t.database.db.select().from(documents).where(eq(documents.id, made.id));
  const copy = (overrides: Partial<Omit<TNewDocument, 'formatId'>> = {}): TNewDocument & { ownerId: string; formatId: string } => ({
    ...row!,
    formatId: format.id,
    id: randomUUID(),
    expiresAt: null,
    createdAt: new Date(),
    ...overrides,
  });
  return { id: user.id, copy, client, format };
}

/** The repository on a handle that counts its statements. */
function countingRepository() {
  const { db, statements } = countingStatements(t.database.db);
  return { repository: createDocumentsRepository(db), statements };
}

const counted = async (ownerId: string) =>
  (await t.database.db.select().from(usageCounters).where(eq(usageCounters.ownerId, ownerId))).reduce((n, r) => n + r.generations, 0);

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'stored',
    (error: unknown) =>
      error instanceof QuotaExceededError ? 'refused' : error instanceof FormatChangedError ? 'stale' : `failed: ${(error as Error).message}`,
  );

describe('grouped counted inserts', () => {
  it('counts each owner under its own limit, in arrival order, and test documents not at all', async () => {
    const { repository, statements } = countingRepository();
    const a = await owner(27); // 3 of 30 left
    const b = await owner(0);
    const docs = [
      a.copy({ name: 'a1' }),
      a.copy({ name: 'a2' }),
      b.copy({ name: 'b1' }),
      a.copy({ name: 'a3' }),
      a.copy({ name: 'a4' }),
      a.copy({ name: 'a5', testMode: true }),
      b.copy({ name: 'b2' }),
      a.copy({ name: 'a6' }),
    ];
    const outcomes = await Promise.all(docs.map((doc) => outcome(repository.createCounted(doc.ownerId, LIMITS, doc))));
    expect(Object.fromEntries(docs.map((d, i) => [d.name, outcomes[i]]))).toEqual({
      a1: 'stored',
      a2: 'stored',
      b1: 'stored',
      a3: 'stored',
      a4: 'refused',
      a5: 'stored',
      b2: 'stored',
      a6: 'refused',
    });
    // The first went alone; the seven that came while it ran, together.
    expect(statements.count).toBe(2);
    expect(await counted(a.id)).toBe(30);
    expect(await counted(b.id)).toBe(2);
    const stored = await t.database.db
      .select({ name: documents.name })
      .from(documents)
      .where(
        inArray(
          documents.id,
          docs.map((d) => d.id),
        ),
      );
    expect(stored.map((r) => r.name).sort()).toEqual(['a1', 'a2', 'a3', 'a5', 'b1', 'b2']);
  });

  it('counts in the paid period billing set, not the calendar month', async () => {
    const { repository } = countingRepository();
    const a = await owner(0);
    await t.database.db.update(workspaces).set({ quotaPeriod: '2026-11-03T10:00:00.000Z' }).where(eq(workspaces.id, a.id));
    const docs = [a.copy(), a.copy(), a.copy()];
    await Promise.all(docs.map((doc) => repository.createCounted(doc.ownerId, LIMITS, doc)));
    const [row] = await t.database.db
      .select()
      .from(usageCounters)
      .where(and(eq(usageCounters.ownerId, a.id), eq(usageCounters.period, '2026-11-03T10:00:00.000Z')));
    expect(row?.generations).toBe(3);
  });

  it('counts each document in its own month when a group spans the turn of one', async () => {
    const { repository, statements } = countingRepository();
    const a = await owner(0);
    const at = (iso: string) => a.copy({ createdAt: new Date(iso) });
    const docs = [at('2026-01-31T12:00:00Z'), at('2026-01-31T23:59:59.900Z'), at('2026-02-01T00:00:00.100Z'), at('2026-02-01T00:00:00.200Z')];
    await Promise.all(docs.map((doc) => repository.createCounted(doc.ownerId, LIMITS, doc)));
    expect(statements.count).toBe(2);
    const rows = await t.database.db
      .select({ period: usageCounters.period, generations: usageCounters.generations })
      .from(usageCounters)
      .where(and(eq(usageCounters.ownerId, a.id), inArray(usageCounters.period, ['2026-01', '2026-02'])));
    expect(Object.fromEntries(rows.map((r) => [r.period, r.generations]))).toEqual({ '2026-01': 2, '2026-02': 2 });
  });

  it('gives a document that cannot be stored its own error, and stores and counts the rest', async () => {
    const { repository, statements } = countingRepository();
    const a = await owner(0);
    const docs = [
      a.copy({ name: 'first' }),
      a.copy({ name: 'good' }),
      a.copy({ name: 'orphan', snapshotId: 'no-such-snapshot' }),
      a.copy({ name: 'also good' }),
    ];
    const outcomes = await Promise.all(docs.map((doc) => outcome(repository.createCounted(doc.ownerId, LIMITS, doc))));
    expect(outcomes[0]).toBe('stored');
    expect(outcomes[1]).toBe('stored');
    expect(outcomes[2]).toMatch(/^failed: /);
    expect(outcomes[3]).toBe('stored');
    // The first alone, the failed group, then each of its three alone.
    expect(statements.count).toBe(5);
    // The failed group and the failed document counted nothing.
    expect(await counted(a.id)).toBe(3);
  });
});

describe('the limit, read by the statement that counts', () => {
  it("follows a workspace's own limit and its plan as they are now, alone and grouped, whatever an earlier read found", async () => {
    const { repository } = countingRepository();
    const a = await owner(5);
    // Lowered after the owner's last check: the next document is refused all the same.
    await t.database.db.update(workspaces).set({ apiCallsLimit: 5 }).where(eq(workspaces.id, a.id));
    expect(await outcome(repository.createCounted(a.id, LIMITS, a.copy()))).toBe('refused');
    // Raised: three more fit, whether they arrive one by one or together.
    await t.database.db.update(workspaces).set({ apiCallsLimit: 8 }).where(eq(workspaces.id, a.id));
    expect(await outcome(repository.createCounted(a.id, LIMITS, a.copy()))).toBe('stored');
    const together = await Promise.all([a.copy(), a.copy(), a.copy()].map((doc) => outcome(repository.createCounted(a.id, LIMITS, doc))));
    expect(together.sort()).toEqual(['refused', 'stored', 'stored']);
    expect(await counted(a.id)).toBe(8);
    // Without an override, the plan's limit from the catalogue it is given.
    await t.database.db.update(workspaces).set({ apiCallsLimit: null, subscriptionPlan: 'basic' }).where(eq(workspaces.id, a.id));
    expect(await outcome(repository.createCounted(a.id, { ...LIMITS, byPlan: { ...LIMITS.byPlan, basic: 9 } }, a.copy()))).toBe('stored');
    expect(await outcome(repository.createCounted(a.id, { ...LIMITS, byPlan: { ...LIMITS.byPlan, basic: 9 } }, a.copy()))).toBe('refused');
    // A plan the catalogue does not name gets the fallback.
    expect(await outcome(repository.createCounted(a.id, { byPlan: {}, fallback: 10 }, a.copy()))).toBe('stored');
    expect(await counted(a.id)).toBe(10);
  });

  it('refuses a workspace whose limit is 0 before its first generation of the period, and counts nothing', async () => {
    const { repository } = countingRepository();
    const a = await owner(0);
    await t.database.db.delete(usageCounters).where(eq(usageCounters.ownerId, a.id));
    await t.database.db.update(workspaces).set({ apiCallsLimit: 0 }).where(eq(workspaces.id, a.id));
    expect(await outcome(repository.createCounted(a.id, LIMITS, a.copy()))).toBe('refused');
    expect(await t.database.db.select().from(usageCounters).where(eq(usageCounters.ownerId, a.id))).toEqual([]);
    // A test document is free, so the limit does not apply.
    expect(await outcome(repository.createCounted(a.id, LIMITS, a.copy({ testMode: true })))).toBe('stored');
  });
});

describe("the format's version, checked by the statement that counts", () => {
  it('stores and counts nothing made from a version saved over or a format deleted since, alone and grouped', async () => {
    const { repository, statements } = countingRepository();
    const a = await owner(0);
    const b = await owner(0);
    const c = await owner(0);
    const fromVersion1 = { a: a.copy({ name: 'a old' }), b: b.copy({ name: 'b old' }), c: c.copy({ name: 'c old' }) };
    expect((await a.client.request('PUT', `/api/formats/${a.format.id}`, { ...FORMAT, name: 'Note, edited' })).statusCode).toBe(200);
    expect((await c.client.request('DELETE', `/api/formats/${c.format.id}`)).statusCode).toBe(204);
    expect(await outcome(repository.createCounted(a.id, LIMITS, fromVersion1.a))).toBe('stale');
    expect(await outcome(repository.createCounted(a.id, LIMITS, a.copy({ name: 'a new', formatVersion: 2 })))).toBe('stored');
    const docs = [
      b.copy({ name: 'first' }),
      a.copy({ name: 'a test', testMode: true }),
      fromVersion1.b,
      a.copy({ name: 'a new 2', formatVersion: 2 }),
      fromVersion1.c,
    ];
    const outcomes = await Promise.all(docs.map((doc) => outcome(repository.createCounted(doc.ownerId, LIMITS, doc))));
    expect(Object.fromEntries(docs.map((d, i) => [d.name, outcomes[i]]))).toEqual({
      first: 'stored',
      'a test': 'stale',
      'b old': 'stored',
      'a new 2': 'stored',
      'c old': 'stale',
    });
    // Alone, alone, the first of the group alone, then the rest together.
    expect(statements.count).toBe(4);
    // What was stored, and nothing for what was not.
    expect([await counted(a.id), await counted(b.id), await counted(c.id)]).toEqual([2, 2, 0]);
  });
});
