import { createWorkspacesRepository, usagePeriod } from '../workspaces/index.ts';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ZBillingOverview } from '../../../contract/billing.ts';
import type { TPlanCatalogue } from '../../../contract/plans.ts';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plan-catalogue.ts';
import { usageCounters, workspaces } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { createOfferLetterDocument } from '../../test/offer-letter-document.ts';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app.ts';
import { createSigningRepository, type TSigningRepository } from '../signing/signing.repository.ts';
import { createUserAccounts, createUsersRepository } from '../users/index.ts';
import { createQuotaService, ROOM_SEEN_TTL_MS } from './quota.service.ts';

let t: TTestApp;
let signing: TSigningRepository;
beforeAll(async () => {
  t = await createTestApp();
  signing = createSigningRepository(t.database.db);
});
afterAll(() => t.close());

/** The quota service as services.ts wires it, on this test's database, with a catalogue the test may change. */
function quotaWith(plans: TPlanCatalogue = DEFAULT_PLAN_CATALOGUE, onRead = () => {}) {
  const accounts = createUserAccounts(createUsersRepository(t.database.db), createWorkspacesRepository(t.database.db));
  return createQuotaService({
    users: {
      ...accounts,
      findWithUsage: (id) => {
        onRead();
        return accounts.findWithUsage(id);
      },
    },
    imageBytesUsed: async () => 0,
    plans: async () => plans,
    signatureRequestsSince: (ownerId, since) => signing.countCreatedSince(ownerId, since),
  });
}

async function sendRequests(ownerId: string, documentId: string, n: number, createdAt?: Date) {
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    await signing.createRequest(
      { id, ownerId, documentId, expiresAt: new Date(Date.now() + 30 * 86_400_000), documentSha256: 'a'.repeat(64), ...(createdAt ? { createdAt } : {}) },
      [{ id: randomUUID(), requestId: id, role: 1, name: 'Ada', email: 'ada@example.test', order: 1, tokenHash: randomUUID(), tokenEnc: 'sealed' }],
      { type: 'created' },
    );
  }
}

async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('signature requests a month', () => {
  it('lets a free account send five this month, refuses the sixth with the Upgrade kind of refusal, and counts only this month', async () => {
    const client = new TestClient(t.app);
    const { user } = await client.signUp();
    const document = await createOfferLetterDocument(client);
    const quota = quotaWith();

    // Last month's requests do not count against this month.
    const now = new Date();
    await sendRequests(user.id, document.id, 3, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 60_000));
    await sendRequests(user.id, document.id, 4);
    expect(await quota.signatureRequestsUsed(user.id)).toEqual({ used: 4, limit: 5 });
    await expect(quota.assertSignatureRequestRoom(user.id, 1)).resolves.toBeUndefined();

    const tooMany = await refusal(quota.assertSignatureRequestRoom(user.id, 2));
    expect(tooMany.code).toBe('quota_exceeded');
    expect(tooMany.message).toBe("You have sent 4 of your plan's 5 signature requests this month. Upgrade your plan or wait until next month.");

    await sendRequests(user.id, document.id, 1);
    const sixth = await refusal(quota.assertSignatureRequestRoom(user.id, 1));
    expect(sixth).toMatchObject({
      code: 'quota_exceeded',
      message: expect.stringContaining("You have sent 5 of your plan's 5 signature requests this month."),
    });

    // Billing shows the same count beside documents.
    const overview = ZBillingOverview.parse((await client.get('/api/subscription')).json());
    expect(overview.usage.signatureRequests).toEqual({ used: 5, limit: 5 });
  });

  it("follows the admin's catalogue, and an unlimited plan never refuses", async () => {
    const client = new TestClient(t.app);
    const { user } = await client.signUp();
    const document = await createOfferLetterDocument(client);
    await sendRequests(user.id, document.id, 2);

    const stingy = DEFAULT_PLAN_CATALOGUE.map((p) => (p.id === 'free' ? { ...p, signatureRequestsPerMonth: 2 } : p));
    expect((await refusal(quotaWith(stingy).assertSignatureRequestRoom(user.id, 1))).message).toMatch(/^You have sent 2 of your plan's 2 signature/);

    await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, user.id));
    const quota = quotaWith();
    expect(await quota.signatureRequestsUsed(user.id)).toEqual({ used: 2, limit: null });
    await expect(quota.assertSignatureRequestRoom(user.id, 10_000)).resolves.toBeUndefined();
  });
});

describe('room for one more generation', () => {
  /** A quota service that counts its reads of the owner's usage, for a new user with `limit` generations. */
  async function setUp(limit: number) {
    const { user } = await new TestClient(t.app).signUp();
    await t.database.db.update(workspaces).set({ apiCallsLimit: limit }).where(eq(workspaces.id, user.id));
    let reads = 0;
    const quota = quotaWith(DEFAULT_PLAN_CATALOGUE, () => (reads += 1));
    const setUsed = (generations: number) =>
      t.database.db
        .insert(usageCounters)
        .values({ ownerId: user.id, period: usagePeriod(), generations })
        .onConflictDoUpdate({ target: [usageCounters.ownerId, usageCounters.period], set: { generations } });
    return { ownerId: user.id, quota, reads: () => reads, setUsed };
  }

  it('reads once for a run of documents, again once this process has counted the room it saw, and never remembers a refusal', async () => {
    const { ownerId, quota, reads, setUsed } = await setUp(2);
    await quota.assertRoomForOne(ownerId);
    await quota.assertRoomForOne(ownerId);
    expect(reads()).toBe(1);

    // Both generations it saw room for were counted here: the next check reads, and refuses.
    quota.countedOne(ownerId);
    quota.countedOne(ownerId);
    await setUsed(2);
    const refused = await refusal(quota.assertRoomForOne(ownerId));
    expect(refused.code).toBe('quota_exceeded');
    expect(refused.message).toBe('You have used all 2 documents of your plan this month. Upgrade your plan or wait until next month.');
    expect(reads()).toBe(2);

    // Room made since (a raised limit) is seen by the very next check.
    await t.database.db.update(workspaces).set({ apiCallsLimit: 3 }).where(eq(workspaces.id, ownerId));
    await expect(quota.assertRoomForOne(ownerId)).resolves.toBeUndefined();
    expect(reads()).toBe(3);
  });

  it('sees a limit lowered elsewhere once told, or after a few seconds; until then the statement that counts refuses', async () => {
    const { ownerId, quota, reads } = await setUp(5);
    await quota.assertRoomForOne(ownerId);
    await t.database.db.update(workspaces).set({ apiCallsLimit: 0 }).where(eq(workspaces.id, ownerId));
    // The answer it has is recent, so it stands (createCounted reads the limit itself: counted-inserts.test.ts).
    await expect(quota.assertRoomForOne(ownerId)).resolves.toBeUndefined();
    quota.forgetRoom(ownerId);
    expect((await refusal(quota.assertRoomForOne(ownerId))).code).toBe('quota_exceeded');
    expect(reads()).toBe(2);

    // Nobody told this process: the answer lapses on its own.
    await t.database.db.update(workspaces).set({ apiCallsLimit: 5 }).where(eq(workspaces.id, ownerId));
    await quota.assertRoomForOne(ownerId);
    await t.database.db.update(workspaces).set({ apiCallsLimit: 0 }).where(eq(workspaces.id, ownerId));
    const later = performance.now() + ROOM_SEEN_TTL_MS + 1;
    const clock = vi.spyOn(performance, 'now').mockReturnValue(later);
    try {
      expect((await refusal(quota.assertRoomForOne(ownerId))).code).toBe('quota_exceeded');
    } finally {
      clock.mockRestore();
    }
    expect(reads()).toBe(4);
  });

  it('keeps nothing from a read that was under way when a limit changed', async () => {
    const { ownerId, quota, reads } = await setUp(5);
    const underWay = quota.assertRoomForOne(ownerId);
    quota.forgetRoom(ownerId);
    await underWay;
    await t.database.db.update(workspaces).set({ apiCallsLimit: 0 }).where(eq(workspaces.id, ownerId));
    expect((await refusal(quota.assertRoomForOne(ownerId))).code).toBe('quota_exceeded');
    expect(reads()).toBe(2);
  });
});
