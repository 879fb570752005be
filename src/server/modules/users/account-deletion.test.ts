import { eq, isNull } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAdminPayments } from '../../../contract/billing.ts';
import { ZAuditPage } from '../../../contract/admin.ts';
import { ZCreatedApiKey } from '../../../contract/api-keys.ts';
import { ZShareLink } from '../../../contract/delivery.ts';
import {
  accountExports,
  apiKeys,
  billingOrders,
  documents,
  formats,
  invoices,
  payments,
  sessions,
  shareLinks,
  subscriptions,
  users,
  workspaces,
} from '../../db/schema.ts';
import type { TStripeStandIn } from '../../test/gateway-stand-ins/stripe-stand-in.ts';
import { TEST_ORIGIN, TestClient } from '../../test/test-app.ts';
import { createStripeKit, errorOf, subscribeThroughStripe, type TBillingKit } from '../billing/test/billing-test-kit.ts';

/*
 * Deleting an account: the password first, then the subscription cancelled at its gateway (a
 * refusal there deletes nothing), then everything the account owns goes, except the invoices and
 * payments the seller keeps, which stay readable to admins without an owner. Afterwards the
 * account's cookie and keys are refused, its links and documents are gone, and its address is free.
 */

const PASSWORD = 'correct horse battery';
let kit: TBillingKit;
let stripe: TStripeStandIn;

beforeAll(async () => {
  ({ kit, stripe } = await createStripeKit());
});
afterAll(() => kit.close());

/** A format, a document and a share link of it. */
async function withContent(client: TestClient) {
  const format = await client.post('/api/formats', {
    name: 'Lease',
    content: { elements: [{ id: 'p', type: 'paragraph', content: 'Lease for {{client_name}}.' }] },
    placeholders: [{ name: 'client_name', type: 'text' }],
  });
  expect(format.statusCode, format.body).toBe(201);
  const formatId = (format.json() as { id: string }).id;
  const document = await client.post('/api/documents', { formatId, data: { client_name: 'Jane Doe' } });
  expect(document.statusCode, document.body).toBe(201);
  const documentId = (document.json() as { id: string }).id;
  const link = await client.post(`/api/documents/${documentId}/share`, {});
  expect(link.statusCode, link.body).toBe(201);
  return { formatId, documentId, shareToken: ZShareLink.parse(link.json()).url.split('/s/')[1]! };
}

const deleteAccount = (client: TestClient, body: unknown) => client.request('DELETE', '/api/user', body);
/** A request with a cookie kept from before, as a browser that missed the answer would send it. */
const withCookie = (cookie: string, url: string) => kit.t.app.inject({ method: 'GET', url, headers: { cookie, origin: TEST_ORIGIN } });
const rowsOf = async (table: typeof formats | typeof documents | typeof shareLinks | typeof apiKeys | typeof accountExports, ownerId: string) =>
  (await kit.t.database.db.select().from(table).where(eq(table.ownerId, ownerId))).length;

describe('deleting an account', () => {
  it('refuses a wrong or missing password and deletes nothing', async () => {
    const { client, id } = await kit.customer('Wren');
    await withContent(client);
    const wrong = await deleteAccount(client, { password: 'not my password at all' });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong).fields).toEqual({ password: 'This is not your password.' });
    const missing = await deleteAccount(client, {});
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).fields).toHaveProperty('password');
    expect((await client.get('/api/auth/user')).statusCode).toBe(200);
    expect(await rowsOf(documents, id)).toBe(1);
  });

  it('stops with nothing deleted when the gateway will not cancel the subscription', async () => {
    const { client, id } = await kit.customer('Gale');
    const { subscriptionId } = await subscribeThroughStripe(kit, stripe, client, 'basic_monthly');
    await withContent(client);
    // Stripe no longer knows the subscription: it refuses to cancel it.
    const held = stripe.subscriptions.get(subscriptionId)!;
    stripe.subscriptions.delete(subscriptionId);
    try {
      const refused = await deleteAccount(client, { password: PASSWORD });
      expect(refused.statusCode).toBe(503);
      expect(errorOf(refused).message).toMatch(/could not be cancelled at Stripe just now, so nothing was deleted/);
    } finally {
      stripe.subscriptions.set(subscriptionId, held);
    }
    expect((await client.get('/api/auth/user')).statusCode).toBe(200);
    expect(await rowsOf(documents, id)).toBe(1);
    expect((await kit.overview(client)).subscription).toMatchObject({ status: 'active' });
  });

  it('cancels the subscription at Stripe, removes everything but the books, and leaves an audit entry', async () => {
    const { client, id, email } = await kit.customer('Hale');
    const { subscriptionId } = await subscribeThroughStripe(kit, stripe, client, 'premium_monthly');
    const { documentId, shareToken } = await withContent(client);
    const [invoice] = await kit.invoices(client);
    const invoicePdf = (await client.get(`/api/subscription/invoices/${invoice!.id}/pdf`)).rawPayload;

    // The export carries the invoice as Billing gives it.
    const exported = await client.get('/api/user/export');
    expect(exported.statusCode).toBe(200);
    const zip = await JSZip.loadAsync(exported.rawPayload);
    expect(JSON.parse(await zip.file('invoices/invoices.json')!.async('string'))).toEqual(await kit.invoices(client));
    const number = invoice!.number;
    expect((await zip.file(`invoices/formwork-invoice-${number}.pdf`)!.async('nodebuffer')).equals(invoicePdf)).toBe(true);

    const other = await kit.customer('Ivo');
    const cookie = client.cookieHeader;
    const deleted = await deleteAccount(client, { password: PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(String(deleted.headers['set-cookie'])).toMatch(/formwork\.session_token=; Max-Age=0/);
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');

    // The old cookie is refused everywhere; nobody else reaches what was there.
    for (const url of ['/api/auth/user', '/api/formats', '/api/documents', '/api/user/exports/status', '/api/subscription']) {
      expect((await withCookie(cookie, url)).statusCode, url).toBe(401);
    }
    expect((await other.client.get(`/api/documents/${documentId}/download`)).statusCode).toBe(404);
    expect((await kit.t.app.inject({ method: 'GET', url: `/api/share/${shareToken}` })).statusCode).toBe(404);

    const db = kit.t.database.db;
    for (const table of [formats, documents, shareLinks, apiKeys, accountExports] as const) expect(await rowsOf(table, id)).toBe(0);
    expect(await db.select().from(users).where(eq(users.id, id))).toEqual([]);
    expect(await db.select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    expect(await db.select().from(subscriptions).where(eq(subscriptions.ownerId, id))).toEqual([]);

    // The seller's books keep the payment, its order and its invoice, with no owner.
    const [kept] = await db.select().from(invoices).where(eq(invoices.id, invoice!.id));
    expect(kept).toMatchObject({ ownerId: null, details: expect.objectContaining({ buyer: expect.objectContaining({ email }) }) });
    expect((await db.select().from(payments).where(eq(payments.id, kept!.paymentId)))[0]).toMatchObject({ ownerId: null });
    expect((await db.select().from(billingOrders).where(isNull(billingOrders.ownerId))).length).toBeGreaterThan(0);
    const listed = ZAdminPayments.parse((await kit.admin.get(`/api/admin/payments?email=${encodeURIComponent(email)}`)).json());
    expect(listed.payments).toEqual([expect.objectContaining({ user: { id: null, email }, invoiceId: invoice!.id })]);
    const adminPdf = await kit.admin.get(`/api/admin/invoices/${invoice!.id}/pdf`);
    expect(adminPdf.statusCode).toBe(200);
    expect(adminPdf.rawPayload.equals(invoicePdf)).toBe(true);

    // The audit log says that the account was deleted, when and by whom, and nothing it held.
    const audit = ZAuditPage.parse((await kit.admin.get('/api/admin/audit')).json());
    const entry = audit.entries.find((e) => e.action === 'account.delete' && e.targetId === id);
    expect(entry).toMatchObject({ targetType: 'user', actorEmail: 'the account’s owner', details: { by: 'owner' } });
    expect(JSON.stringify(entry)).not.toContain(email);
  });

  it('keeps the installation’s only administrator', async () => {
    const refused = await deleteAccount(kit.admin, { password: PASSWORD });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toMatch(/only administrator/);
    expect((await kit.admin.get('/api/admin/audit')).statusCode).toBe(200);
  });

  it('refuses its API keys and frees its address', async () => {
    const { client, id, email } = await kit.customer('Juno');
    await kit.t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, id));
    const key = ZCreatedApiKey.parse((await client.post('/api/user/api-keys', { name: 'Server', mode: 'live' })).json());
    const { formatId } = await withContent(client);
    const keyed = (url: string) => kit.t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key.key}` } });
    expect((await keyed(`/api/v1/formats/${formatId}`)).statusCode).toBe(200);

    expect((await deleteAccount(client, { password: PASSWORD })).statusCode).toBe(204);
    expect((await keyed(`/api/v1/formats/${formatId}`)).statusCode).toBe(401);
    expect((await keyed('/api/v1/documents')).statusCode).toBe(401);
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);

    const again = new TestClient(kit.t.app);
    const signedUp = await again.signUp({ email, password: 'another long passphrase' });
    expect(signedUp.user.id).not.toBe(id);
    expect((await again.get('/api/formats')).json()).toEqual([]);
  });
});
