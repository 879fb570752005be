import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureEvents, signatureRequests, users } from '../../db/schema.ts';
import { createOfferLetterDocument } from '../../test/offer-letter-document.ts';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app.ts';
import { checkChain } from './audit-trail.ts';
import { createSigningRepository, type TSigningRepository } from './signing.repository.ts';

let t: TTestApp;
let repo: TSigningRepository;
beforeAll(async () => {
  t = await createTestApp();
  repo = createSigningRepository(t.database.db);
});
afterAll(() => t.close());

/** A user with a document sent for signature to one signer. */
async function sentRequest() {
  const client = new TestClient(t.app);
  const { user } = await client.signUp();
  const document = await createOfferLetterDocument(client);
  const requestId = randomUUID();
  const signerId = randomUUID();
  await repo.createRequest(
    { id: requestId, ownerId: user.id, documentId: document.id, expiresAt: new Date(Date.now() + 30 * 86_400_000), documentSha256: 'a'.repeat(64) },
    [{ id: signerId, requestId, role: 1, name: 'Ada', email: 'ada@example.test', order: 1, tokenHash: randomUUID(), tokenEnc: 'sealed' }],
    { type: 'created', ip: '203.0.113.5', userAgent: 'test' },
  );
  return { ownerId: user.id, requestId, signerId };
}

async function chainOf(ownerId: string, requestId: string) {
  const trail = await repo.trail(ownerId, requestId);
  return checkChain(trail!.events, trail!);
}

/** What someone with the database's password could do: turn the guard off and edit rows by hand. */
async function withoutGuard(run: () => Promise<unknown>) {
  await t.database.executeSql('alter table signature_events disable trigger signature_events_append_only');
  try {
    await run();
  } finally {
    await t.database.executeSql('alter table signature_events enable trigger signature_events_append_only');
  }
}

describe('the audit trail', () => {
  it('chains every event to the one before, one after another even when they arrive at once', async () => {
    const { ownerId, requestId, signerId } = await sentRequest();
    await Promise.all(Array.from({ length: 20 }, (_, i) => repo.appendEvent(requestId, { type: 'opened', signerId, details: { view: i } })));
    const events = (await repo.trail(ownerId, requestId))!.events;
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(events[0]).toMatchObject({ type: 'created', ip: '203.0.113.5', documentSha256: 'a'.repeat(64) });
    expect(await chainOf(ownerId, requestId)).toMatchObject({ intact: true, count: 21 });
    // Another user's request shows nothing.
    expect(await repo.trail(randomUUID(), requestId)).toBeUndefined();
  });

  it('reads whole while events are being added: the head and count are those of the events read', async () => {
    const { ownerId, requestId, signerId } = await sentRequest();
    let adding = true;
    const added = Promise.all(
      Array.from({ length: 4 }, async (_, writer) => {
        for (let i = 0; i < 25; i++) await repo.appendEvent(requestId, { type: 'delivered', signerId, details: { writer, i } });
      }),
    ).finally(() => (adding = false));
    const broken: unknown[] = [];
    let reads = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (adding) {
          const check = await chainOf(ownerId, requestId);
          reads++;
          if (!check.intact) broken.push(check);
        }
      }),
    );
    await added;
    expect(reads).toBeGreaterThan(4);
    expect(broken).toEqual([]);
    expect(await chainOf(ownerId, requestId)).toMatchObject({ intact: true, count: 101 });
  });

  it('is refused any change or removal by the database itself', async () => {
    const { requestId } = await sentRequest();
    // Drizzle wraps the database's refusal; its own words are the cause.
    const refusal = (query: PromiseLike<unknown>) =>
      Promise.resolve(query).then(
        () => 'accepted',
        (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
      );
    expect(await refusal(t.database.db.update(signatureEvents).set({ type: 'signed' }).where(eq(signatureEvents.requestId, requestId)))).toMatch(
      /never changed or removed/,
    );
    expect(await refusal(t.database.db.delete(signatureEvents).where(eq(signatureEvents.requestId, requestId)))).toMatch(/never changed or removed/);
  });

  it('finds a row changed, a row removed, and the newest rows removed, even past the database guard', async () => {
    const changed = await sentRequest();
    await repo.appendEvent(changed.requestId, { type: 'signed', signerId: changed.signerId, ip: '198.51.100.7' });
    await withoutGuard(() => t.database.executeSql(`update signature_events set ip = '192.0.2.1' where request_id = $1 and seq = 2`, [changed.requestId]));
    expect(await chainOf(changed.ownerId, changed.requestId)).toEqual({ intact: false, seq: 2, reason: 'Event 2 was changed after it was recorded.' });

    const removed = await sentRequest();
    for (const type of ['sent', 'opened', 'signed'] as const) await repo.appendEvent(removed.requestId, { type });
    await withoutGuard(() => t.database.executeSql(`delete from signature_events where request_id = $1 and seq = 2`, [removed.requestId]));
    expect(await chainOf(removed.ownerId, removed.requestId)).toEqual({ intact: false, seq: 2, reason: 'Event 2 is missing.' });

    const cut = await sentRequest();
    for (const type of ['sent', 'declined'] as const) await repo.appendEvent(cut.requestId, { type });
    await withoutGuard(() => t.database.executeSql(`delete from signature_events where request_id = $1 and seq = 3`, [cut.requestId]));
    expect(await chainOf(cut.ownerId, cut.requestId)).toEqual({ intact: false, seq: 3, reason: 'Events recorded after the last one shown are missing.' });
  });

  it('goes with its request when the owner deletes their account', async () => {
    const { ownerId, requestId } = await sentRequest();
    await t.database.db.delete(users).where(eq(users.id, ownerId));
    expect(await t.database.db.select().from(signatureRequests).where(eq(signatureRequests.id, requestId))).toEqual([]);
    expect(await t.database.db.select().from(signatureEvents).where(eq(signatureEvents.requestId, requestId))).toEqual([]);
  });
});
