import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAdminUser, TPaymentGateway } from '../../../contract/admin.ts';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plan-catalogue.ts';
import { paymentGateways } from '../../db/schema.ts';
import { createTestApp, TestClient, type TTestApp, signUpVerified } from '../../test/test-app.ts';

let t: TTestApp;
let admin: TestClient;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'root@example.com' });
  admin = new TestClient(t.app);
  adminId = (await signUpVerified(t, admin, { email: 'root@example.com' })).user.id;
});
afterAll(async () => {
  await t.close();
});

const patch = (client: TestClient, url: string, body: unknown) => client.request('PATCH', url, body);

describe('admin access', () => {
  it('is 401 signed out and 403 for ordinary users on every admin route', async () => {
    const user = new TestClient(t.app);
    await user.signUp();
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['PATCH', `/api/admin/users/${adminId}/role`, { role: 'user' }],
      ['GET', '/api/admin/settings'],
      ['POST', '/api/admin/settings', { key: 'a', value: 'b' }],
      ['GET', '/api/admin/payment-gateways'],
      ['POST', '/api/admin/payment-gateways', { gatewayName: 'stripe', keyId: 'k' }],
    ];
    for (const [method, url, body] of routes) {
      expect((await new TestClient(t.app).request(method, url, body)).statusCode).toBe(401);
      const denied = await user.request(method, url, body);
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toMatchObject({ error: { code: 'forbidden' } });
    }
  });
});

describe('users', () => {
  it('lists users with usage, changes roles (taking effect at once) and refuses self-demotion', async () => {
    const other = new TestClient(t.app);
    const { user } = await other.signUp({ firstName: 'Olga' });
    const list = (await admin.get('/api/admin/users')).json() as TAdminUser[];
    expect(list.find((u) => u.id === user.id)).toMatchObject({ role: 'user', subscriptionPlan: 'free', apiCallsLimit: 30 });

    const promoted = await patch(admin, `/api/admin/users/${user.id}/role`, { role: 'admin' });
    expect(promoted.json()).toMatchObject({ role: 'admin' });
    // Sessions are read from the server on every request, so the new role applies immediately.
    expect((await other.get('/api/admin/users')).statusCode).toBe(200);
    await patch(admin, `/api/admin/users/${user.id}/role`, { role: 'user' });
    expect((await other.get('/api/admin/users')).statusCode).toBe(403);

    const self = await patch(admin, `/api/admin/users/${adminId}/role`, { role: 'user' });
    expect(self.statusCode).toBe(409);
    expect((await patch(admin, '/api/admin/users/nobody/role', { role: 'admin' })).statusCode).toBe(404);
    expect((await patch(admin, `/api/admin/users/${user.id}/role`, { role: 'owner' })).statusCode).toBe(400);
  });

  it('sets an enterprise plan and a per-user limit that the user then sees', async () => {
    const customer = new TestClient(t.app);
    const { user } = await customer.signUp();
    const updated = await patch(admin, `/api/admin/users/${user.id}`, { subscriptionPlan: 'enterprise', apiCallsLimit: 250000 });
    expect(updated.json()).toMatchObject({ subscriptionPlan: 'enterprise', apiCallsLimit: 250000 });
    expect((await customer.get('/api/auth/user')).json()).toMatchObject({ subscriptionPlan: 'enterprise', apiCallsLimit: 250000 });
    await patch(admin, `/api/admin/users/${user.id}`, { apiCallsLimit: null });
    expect((await customer.get('/api/user/stats')).json()).toMatchObject({ apiCallsLimit: 100000 });
  });

  it("holds a user to a lowered limit from their next document, before that document's data is checked", async () => {
    const customer = new TestClient(t.app);
    const { user } = await customer.signUp();
    const format = (
      await customer.post('/api/formats', {
        name: 'Note',
        content: { elements: [{ id: 'p', type: 'paragraph', content: 'Dear {{name}}' }] },
        placeholders: [{ name: 'name', type: 'text', required: true }],
      })
    ).json() as { id: string };
    expect((await customer.post('/api/documents', { formatId: format.id, data: { name: 'Ada' } })).statusCode).toBe(201);
    await patch(admin, `/api/admin/users/${user.id}`, { apiCallsLimit: 1 });
    // Missing its required field, and over the limit: the limit answers.
    const refused = await customer.post('/api/documents', { formatId: format.id, data: {} });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: { code: 'quota_exceeded' } });
  });
});

describe('system settings', () => {
  it('creates, edits and deletes settings, validating the known ones', async () => {
    const created = await admin.post('/api/admin/settings', { key: 'support.email', value: 'help@acme.example', description: 'Support' });
    expect(created.statusCode).toBe(200);
    const bad = await admin.request('PUT', '/api/admin/settings/support.email', { value: 'javascript:alert(1)' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { fields: { value: expect.stringMatching(/email address/) } } });
    const badCatalogue = await admin.post('/api/admin/settings', { key: 'plans.catalogue', value: '[{"id":"gold"}]' });
    expect(badCatalogue.statusCode).toBe(400);
    expect((await admin.get('/api/admin/settings')).json()).toEqual([
      expect.objectContaining({ key: 'support.email', value: 'help@acme.example', description: 'Support' }),
    ]);
    expect((await new TestClient(t.app).get('/api/app-config')).json()).toMatchObject({ supportEmail: 'help@acme.example' });
    expect((await admin.request('DELETE', '/api/admin/settings/support.email')).statusCode).toBe(204);
    expect((await new TestClient(t.app).get('/api/app-config')).json()).toMatchObject({ supportEmail: null });
    expect((await admin.request('DELETE', '/api/admin/settings/support.email')).statusCode).toBe(404);
  });

  it('sends Contact Sales to the sales address an admin sets', async () => {
    expect((await new TestClient(t.app).get('/api/app-config')).json()).toMatchObject({ salesEmail: null });
    expect((await admin.post('/api/admin/settings', { key: 'sales.email', value: 'not an address' })).statusCode).toBe(400);
    expect((await admin.post('/api/admin/settings', { key: 'sales.email', value: 'deals@acme.example' })).statusCode).toBe(200);
    expect((await new TestClient(t.app).get('/api/app-config')).json()).toMatchObject({ salesEmail: 'deals@acme.example' });
    expect((await admin.request('DELETE', '/api/admin/settings/sales.email')).statusCode).toBe(204);
    expect((await new TestClient(t.app).get('/api/app-config')).json()).toMatchObject({ salesEmail: null });
  });

  it('changes the public plan catalogue when an admin edits it', async () => {
    const catalogue = DEFAULT_PLAN_CATALOGUE.map((p) => (p.id === 'basic' ? { ...p, usdMonthly: 25 } : p));
    await admin.post('/api/admin/settings', { key: 'plans.catalogue', value: JSON.stringify(catalogue) });
    const plans = (await new TestClient(t.app).get('/api/plans')).json() as { plans: { id: string; usdMonthly: number }[] };
    expect(plans.plans.find((p) => p.id === 'basic')!.usdMonthly).toBe(25);
    await admin.request('DELETE', '/api/admin/settings/plans.catalogue');
  });
});

describe('payment gateways', () => {
  it('creates gateways with encrypted secrets that never come back, and keeps one active', async () => {
    const stripe = await admin.post('/api/admin/payment-gateways', {
      gatewayName: 'stripe',
      keyId: 'pk_test_1',
      keySecret: 'sk_test_SUPERSECRET',
      isActive: true,
    });
    expect(stripe.statusCode).toBe(201);
    expect(stripe.body).not.toContain('SUPERSECRET');
    expect(stripe.json()).toMatchObject({ hasKeySecret: true, hasWebhookSecret: false, isActive: true });
    const [row] = await t.database.db.select().from(paymentGateways);
    expect(row!.keySecretEnc).not.toContain('SUPERSECRET');

    const missingKey = await admin.post('/api/admin/payment-gateways', { gatewayName: 'paypal' });
    expect(missingKey.statusCode).toBe(400);
    expect(missingKey.json()).toMatchObject({ error: { fields: { keyId: expect.any(String) } } });

    const razorpay = (
      await admin.post('/api/admin/payment-gateways', { gatewayName: 'razorpay', keyId: 'rzp_1', keySecret: 'rzp_secret' })
    ).json() as TPaymentGateway;
    expect((await new TestClient(t.app).get('/api/plans')).json()).toMatchObject({ currency: 'USD', checkout: true });
    await patch(admin, `/api/admin/payment-gateways/${razorpay.id}`, { isActive: true });
    const list = (await admin.get('/api/admin/payment-gateways')).json() as TPaymentGateway[];
    expect(list.map((g) => [g.gatewayName, g.isActive])).toEqual([
      ['stripe', false],
      ['razorpay', true],
    ]);
    expect(JSON.stringify(list)).not.toContain('secret');
    expect((await new TestClient(t.app).get('/api/plans')).json()).toMatchObject({ currency: 'INR' });
    expect((await patch(admin, '/api/admin/payment-gateways/nope', { isActive: true })).statusCode).toBe(404);
  });
});
