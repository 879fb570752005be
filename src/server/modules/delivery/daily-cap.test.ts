/**
 * The admin's daily cap on what users send through the installation's mail server, held by two
 * app instances on one database (as processes behind a load balancer would be), against a real
 * SMTP server on loopback. On CI's PostgreSQL pass the second instance has its own pool.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZDelivery } from '../../../contract/delivery.ts';
import { ZSystemMailSettings } from '../../../contract/mail.ts';
import { buildApp } from '../../app.ts';
import { openDatabase, type TDatabase } from '../../db/client.ts';
import { emailDeliveries, workspaces } from '../../db/schema.ts';
import { settledDelivery } from './test/settled-delivery.ts';
import { createTestAppWithMail } from '../../test/mail-test-app.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { errorOf, TestClient, type TTestApp, signUpVerified, TEST_PASSWORD_HASH_COST } from '../../test/test-app.ts';

const ADMIN_EMAIL = 'root@example.com';
const background = { emailRetryDelaysMs: [100] };
let t: TTestApp;
let second: { app: FastifyInstance; database: TDatabase | undefined };
let smtp: TSmtpStandIn;
let admin: TestClient;

beforeAll(async () => {
  // The count is per UTC day: a run must not straddle midnight.
  const untilMidnight = 86_400_000 - (Date.now() % 86_400_000);
  if (untilMidnight < 60_000) await new Promise((resolve) => setTimeout(resolve, untilMidnight + 100));
  ({ t, smtp, admin } = await createTestAppWithMail({
    adminEmail: ADMIN_EMAIL,
    mail: { user: 'relay', password: 'relay-pass', fromAddress: 'documents@formwork.test' },
    smtpAccounts: { 'own@acme.test': 'own-pass' },
    // Loopback is allowed as a user's own server only because the operator's list says so.
    env: { IMAGE_FETCH_ALLOWED_IPS: '127.0.0.1' },
    background,
  }));
  const database = t.databaseUrl ? await openDatabase({ driver: 'postgres', url: t.databaseUrl, poolSize: 4 }) : undefined;
  const app = await buildApp({
    config: t.config,
    database: database ?? t.database,
    background: { mailTrustedCa: [smtp.ca], passwordHashCost: TEST_PASSWORD_HASH_COST, ...background },
  });
  await app.ready();
  second = { app, database };
}, 120_000);
afterAll(async () => {
  await second.app.close();
  await second.database?.close();
  await t.close();
});

/** A paid user signed in on `app`, with one document. */
async function sender(app: FastifyInstance) {
  const client = new TestClient(app);
  const { user } = await signUpVerified(t, client, {}, smtp);
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'basic' }).where(eq(workspaces.id, user.id));
  const format = (await client.post('/api/formats', { name: 'Letter', content: { elements: [{ id: 'p', type: 'paragraph', content: 'Hello.' }] } })).json() as {
    id: string;
  };
  const document = (await client.post('/api/documents', { formatId: format.id, data: {} })).json() as { id: string };
  return { client, userId: user.id, documentId: document.id };
}

const setLimit = async (value: string) => admin.post('/api/admin/settings', { key: 'mail.daily_limit', value });

describe('the daily cap on the installation’s mail server', () => {
  it('is a whole number an admin sets in Settings', async () => {
    for (const value of ['0', '-1', '2.5', 'many', '10000001']) {
      const refused = await setLimit(value);
      expect(refused.statusCode, value).toBe(400);
      expect(errorOf(refused).fields).toEqual({ value: 'Enter a whole number of emails a day from 1 to 10,000,000, such as 500.' });
    }
    const card = ZSystemMailSettings.parse((await admin.get('/api/admin/mail-settings')).json());
    expect(card).toMatchObject({ dailyLimit: null, sentToday: 0 });
  });

  it('refuses the email that would pass it with 429 until midnight UTC, counting across both instances', async () => {
    expect((await setLimit('3')).statusCode).toBe(200);
    const one = await sender(t.app);
    const two = await sender(second.app);
    const before = smtp.messages.length;
    // Two recipients on the first instance, one on the second: three.
    const first = await one.client.post(`/api/documents/${one.documentId}/email`, { to: ['a@example.com', 'b@example.com'] });
    expect(first.statusCode, first.body).toBe(202);
    expect((await settledDelivery(one.client, ZDelivery.parse(first.json()).id)).status).toBe('sent');
    const next = await two.client.post(`/api/documents/${two.documentId}/email`, { to: ['c@example.com'] });
    expect(next.statusCode, next.body).toBe(202);
    expect((await settledDelivery(two.client, ZDelivery.parse(next.json()).id)).status).toBe('sent');
    await smtp.waitFor(before + 2);

    for (const [client, documentId] of [
      [one.client, one.documentId],
      [two.client, two.documentId],
    ] as const) {
      const refused = await client.post(`/api/documents/${documentId}/email`, { to: ['d@example.com'] });
      expect(refused.statusCode).toBe(429);
      expect(errorOf(refused).code).toBe('rate_limited');
      expect(errorOf(refused).message).toMatch(
        /^This installation’s mail server has sent its limit of 3 emails for today\. Sending starts again at midnight UTC/,
      );
      const untilMidnight = (86_400_000 - (Date.now() % 86_400_000)) / 1000;
      expect(Math.abs(Number(refused.headers['retry-after']) - untilMidnight)).toBeLessThan(5);
    }
    expect(smtp.messages.length).toBe(before + 2);
    const card = ZSystemMailSettings.parse((await admin.get('/api/admin/mail-settings')).json());
    expect(card).toMatchObject({ dailyLimit: 3, sentToday: 3 });
  });

  it('holds queued emails past it for the next day, however many processes send', async () => {
    expect((await setLimit('5')).statusCode).toBe(200);
    const one = await sender(t.app);
    const before = smtp.messages.length;
    // Four emails already accepted (as if queued before the cap was lowered), two places left today.
    const ids = Array.from({ length: 4 }, () => crypto.randomUUID());
    await t.database.db.insert(emailDeliveries).values(
      ids.map((id, i) => ({
        id,
        ownerId: one.userId,
        documentId: one.documentId,
        to: [`queued${i}@example.com`],
        cc: [],
        recipientCount: 1,
        subject: 'Letter',
        message: 'Hello',
        status: 'queued' as const,
        nextAttemptAt: new Date(),
      })),
    );
    const midnight = new Date(Date.now() + 86_400_000 - (Date.now() % 86_400_000)).toISOString();
    let rows: (typeof emailDeliveries.$inferSelect)[] = [];
    for (let i = 0; i < 400; i++) {
      rows = await t.database.db.select().from(emailDeliveries).where(eq(emailDeliveries.ownerId, one.userId));
      if (rows.filter((r) => r.status === 'sent').length === 2 && rows.filter((r) => r.nextAttemptAt?.toISOString() === midnight).length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(2);
    const waiting = rows.filter((r) => r.status === 'queued');
    expect(waiting).toHaveLength(2);
    expect(waiting.every((r) => r.nextAttemptAt?.toISOString() === midnight && r.attempts === 0)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages.length).toBe(before + 2);
    expect(ZSystemMailSettings.parse((await admin.get('/api/admin/mail-settings')).json()).sentToday).toBe(5);
  });

  it('does not hold mail a user sends through their own server', async () => {
    const own = await sender(second.app);
    await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, own.userId));
    const saved = await own.client.request('PUT', '/api/user/email-settings', {
      enterpriseEmail: 'own@acme.test',
      enterpriseEmailPassword: 'own-pass',
      smtpHost: smtp.host,
      smtpPort: smtp.port,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const queued = await own.client.post(`/api/documents/${own.documentId}/email`, { to: ['e@example.com'] });
    expect(queued.statusCode, queued.body).toBe(202);
    expect(await settledDelivery(own.client, ZDelivery.parse(queued.json()).id)).toMatchObject({ status: 'sent', transport: 'own' });
    expect(ZSystemMailSettings.parse((await admin.get('/api/admin/mail-settings')).json()).sentToday).toBe(5);
  });
});
