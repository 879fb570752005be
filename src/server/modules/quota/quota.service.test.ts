import { createWorkspacesRepository } from '../workspaces/index.ts';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZBillingOverview } from '../../../contract/billing.ts';
import type { TPlanCatalogue } from '../../../contract/plans.ts';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plan-catalogue.ts';
import { workspaces } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { createOfferLetterDocument } from '../../test/offer-letter-document.ts';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app.ts';
import { createSigningRepository, type TSigningRepository } from '../signing/signing.repository.ts';
import { createUserAccounts, createUsersRepository } from '../users/index.ts';
import { createQuotaService } from './quota.service.ts';

let t: TTestApp;
let signing: TSigningRepository;
beforeAll(async () => {
  t = await createTestApp();
  signing = createSigningRepository(t.database.db);
});
afterAll(() => t.close());

/** The quota service as services.ts wires it, on this test's database, with a catalogue the test may change. */
function quotaWith(plans: TPlanCatalogue = DEFAULT_PLAN_CATALOGUE) {
  return createQuotaService({
    users: createUserAccounts(createUsersRepository(t.database.db), createWorkspacesRepository(t.database.db)),
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
