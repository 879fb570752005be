import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAdminUser, TAuditEntry, TPaymentGateway } from '../../../contract/admin.ts';
import type { TAdminPayments } from '../../../contract/billing.ts';
import type { TPlanCatalogue } from '../../../contract/plans.ts';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plan-catalogue.ts';
import { checkAccessibility } from '../../../render/test/pdf-accessibility-check.ts';
import { pdfInfo, pdfText } from '../../../render/testdata/pdf-tools.ts';
import { startRazorpayStandIn, type TRazorpayStandIn } from '../../test/gateway-stand-ins/razorpay-stand-in.ts';
import type { TestClient } from '../../test/test-app.ts';
import { createBillingKit, errorOf, type TBillingKit } from './test/billing-test-kit.ts';

let kit: TBillingKit;
let razorpay: TRazorpayStandIn;
let gatewayId: string;

beforeAll(async () => {
  kit = await createBillingKit();
  razorpay = await startRazorpayStandIn();
  gatewayId = (await kit.activateRazorpay(razorpay)).id;
});
afterAll(async () => {
  await kit.close();
  await razorpay.close();
});

async function subscribe(client: TestClient, planId: string) {
  const checkout = await kit.checkout(client, planId);
  const { checkout: result } = razorpay.pay(checkout.orderId);
  expect((await client.post('/api/subscription/verify-payment', { ...result, planId })).statusCode).toBe(200);
  return result.razorpay_payment_id;
}

describe('billing in the admin panel', () => {
  it('lists payments with filters and totals, and downloads any invoice; users may not', async () => {
    await kit.admin.post('/api/admin/settings', { key: 'billing.seller_name', value: 'Formwork Labs Pvt Ltd' });
    await kit.admin.post('/api/admin/settings', { key: 'billing.seller_tax_id', value: '29ABCDE1234F1Z5' });
    const a = await kit.customer('Ana');
    const b = await kit.customer('Bo');
    const paymentA = await subscribe(a.client, 'basic_monthly');
    await subscribe(b.client, 'premium_yearly');

    const all = (await kit.admin.get('/api/admin/payments')).json() as TAdminPayments;
    expect(all.total).toBe(2);
    expect(all.totals).toEqual([{ currency: 'INR', amount: 29_900 + 898_800 }]);
    expect(all.payments[0]).toMatchObject({ user: { email: b.email }, planId: 'premium', cycle: 'yearly', status: 'paid', gateway: 'razorpay' });

    const byEmail = (await kit.admin.get(`/api/admin/payments?email=${encodeURIComponent(a.email.slice(0, 6))}`)).json() as TAdminPayments;
    expect(byEmail.payments.map((p) => p.gatewayReference)).toEqual([paymentA]);
    const none = (await kit.admin.get('/api/admin/payments?status=refunded')).json() as TAdminPayments;
    expect(none).toMatchObject({ total: 0, payments: [], totals: [] });
    expect((await kit.admin.get('/api/admin/payments?from=2020-01-01&to=2020-01-31')).json()).toMatchObject({ total: 0 });
    expect((await kit.admin.get('/api/admin/payments?status=lost')).statusCode).toBe(400);

    const invoiceId = byEmail.payments[0]!.invoiceId!;
    const pdf = await kit.admin.get(`/api/admin/invoices/${invoiceId}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Formwork Labs Pvt Ltd');
    expect(text).toContain('Tax ID: 29ABCDE1234F1Z5');
    expect(text).toContain(a.email);
    // Tagged, PDF/UA-1 and PDF/A-2a, as an archive keeps it.
    expect(pdfInfo(pdf.rawPayload).Tagged).toBe('yes');
    const report = await checkAccessibility(pdf.rawPayload);
    expect(report.findings).toEqual([]);
    expect(report.pdfa).toEqual([]);
    expect(report.elements.map((e) => e.role).slice(0, 3)).toEqual(['Document', 'H1', 'P']);
    expect(report.elements.filter((e) => e.role === 'TH').map((e) => e.text)).toEqual(['From', 'Billed to', 'Description', 'Amount']);

    expect((await a.client.get('/api/admin/payments')).statusCode).toBe(403);
    // Another customer's invoice is not found, exactly as if it did not exist.
    expect((await b.client.get(`/api/subscription/invoices/${invoiceId}/pdf`)).statusCode).toBe(404);
  });

  // Days past these once reached PostgreSQL as times it cannot read (year 0, year 10000): a 500.
  it('filters payments by days from 1970-01-01 to 9998-12-31 and refuses others with 400', async () => {
    const { client } = await kit.customer('Ida');
    await subscribe(client, 'basic_monthly');
    const widest = await kit.admin.get('/api/admin/payments?from=1970-01-01&to=9998-12-31');
    expect(widest.statusCode, widest.body).toBe(200);
    expect((widest.json() as TAdminPayments).total).toBeGreaterThan(0);
    for (const query of ['from=0000-01-01', 'to=9999-12-31', 'from=1969-12-31', 'to=2026-02-30', 'from=10000-01-01']) {
      const refused = await kit.admin.get(`/api/admin/payments?${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(errorOf(refused), query).toMatchObject({
        code: 'validation_failed',
        fields: { [query.split('=')[0]!]: 'Use a date as YYYY-MM-DD, from 1970-01-01 to 9998-12-31.' },
      });
    }
  });

  it('numbers invoices in sequence across customers, with no gaps', async () => {
    const numbers: number[] = [];
    for (const name of ['Cy', 'Di', 'Ed']) {
      const { client } = await kit.customer(name);
      await subscribe(client, 'basic_monthly');
      numbers.push(Number((await kit.invoices(client))[0]!.number.slice(3)));
    }
    expect(numbers[1]! - numbers[0]!).toBe(1);
    expect(numbers[2]! - numbers[1]!).toBe(1);
  });

  it('edits the plan catalogue in a checked form, and the new price is what checkout charges', async () => {
    const catalogue = (await kit.admin.get('/api/admin/plans')).json() as TPlanCatalogue;
    expect(catalogue).toEqual(DEFAULT_PLAN_CATALOGUE);
    const edited = catalogue.map((p) => (p.id === 'basic' ? { ...p, inrMonthly: 349, inrAnnualPerMonth: 279, generationsPerMonth: 6_000 } : p));
    const saved = await kit.admin.request('PUT', '/api/admin/plans', edited);
    expect(saved.statusCode, saved.body).toBe(200);
    const { client } = await kit.customer('Flo');
    expect((await kit.checkout(client, 'basic_monthly')).amount).toBe(34_900);
    expect((await kit.checkout(client, 'basic_yearly')).amount).toBe(279 * 12 * 100);
    const plans = (await client.get('/api/plans')).json() as { plans: TPlanCatalogue; currency: string; checkout: boolean };
    expect(plans).toMatchObject({ currency: 'INR', checkout: true });
    expect(plans.plans.find((p) => p.id === 'basic')).toMatchObject({ inrMonthly: 349, generationsPerMonth: 6_000 });

    const missing = await kit.admin.request('PUT', '/api/admin/plans', edited.slice(1));
    expect(missing.statusCode).toBe(400);
    const freeCosts = await kit.admin.request(
      'PUT',
      '/api/admin/plans',
      edited.map((p) => (p.id === 'free' ? { ...p, usdMonthly: 5 } : p)),
    );
    expect(freeCosts.statusCode).toBe(400);
    expect(Object.values(errorOf(freeCosts).fields ?? {})).toContain('The free plan costs nothing.');
    const oneCurrency = await kit.admin.request(
      'PUT',
      '/api/admin/plans',
      edited.map((p) => (p.id === 'premium' ? { ...p, inrMonthly: null } : p)),
    );
    expect(oneCurrency.statusCode).toBe(400);
    await kit.admin.request('PUT', '/api/admin/plans', DEFAULT_PLAN_CATALOGUE);
  });

  it('sets a user’s plan and limit by hand, shows real format and document counts, and audits every change', async () => {
    const { client, id, email } = await kit.customer('Gus');
    await subscribe(client, 'basic_monthly');
    await client.post('/api/formats', { name: 'One', description: null, content: { elements: [] }, placeholders: [] });
    await client.post('/api/formats', { name: 'Two', description: null, content: { elements: [] }, placeholders: [] });
    const users = (await kit.admin.get('/api/admin/users')).json() as TAdminUser[];
    expect(users.find((u) => u.id === id)).toMatchObject({ totalFormats: 2, totalDocuments: 0, subscriptionPlan: 'basic', apiCallsLimit: 5_000 });

    const patched = await kit.admin.request('PATCH', `/api/admin/users/${id}`, { subscriptionPlan: 'enterprise' });
    expect(patched.json()).toMatchObject({ subscriptionPlan: 'enterprise', apiCallsLimit: 100_000 });
    // The plan is now the admin's to manage: the gateway subscription no longer decides it.
    expect(await kit.overview(client)).toMatchObject({ planId: 'enterprise', managedByAdmin: true, subscription: null });
    expect((await client.post('/api/subscription/quote', { planId: 'premium_monthly' })).statusCode).toBe(409);
    await kit.admin.request('PATCH', `/api/admin/users/${id}`, { apiCallsLimit: 250_000 });

    await kit.admin.request('PATCH', `/api/admin/payment-gateways/${gatewayId}`, { webhookSecret: razorpay.webhookSecret });
    const audit = ((await kit.admin.get('/api/admin/audit')).json() as { entries: TAuditEntry[] }).entries;
    expect(audit[0]).toMatchObject({
      action: 'gateway.update',
      actorEmail: 'billing-admin@example.com',
      targetId: gatewayId,
      details: { webhookSecret: 'replaced' },
    });
    expect(JSON.stringify(audit)).not.toContain(razorpay.webhookSecret);
    expect(JSON.stringify(audit)).not.toContain(razorpay.keySecret);
    expect(audit.find((e) => e.action === 'user.plan' && e.targetId === id && 'limit' in e.details)?.details).toMatchObject({
      email,
      limit: { from: null, to: 250_000 },
    });
    expect(audit.find((e) => e.action === 'user.plan' && e.targetId === id && 'plan' in e.details)?.details).toMatchObject({
      plan: { from: 'basic', to: 'enterprise' },
    });
    expect(audit.some((e) => e.action === 'plans.update')).toBe(true);
    expect(audit.some((e) => e.action === 'gateway.create')).toBe(true);
    expect((await client.get('/api/admin/audit')).statusCode).toBe(403);

    const gateways = (await kit.admin.get('/api/admin/payment-gateways')).json() as TPaymentGateway[];
    expect(JSON.stringify(gateways)).not.toContain(razorpay.keySecret);
  });

  it('lets pages load Razorpay Checkout from the configured origin, and nothing else', async () => {
    const page = await kit.t.app.inject({ method: 'GET', url: '/healthz' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(new RegExp(`script-src 'self' ${razorpay.url.replace(/[.]/g, '\\.')}`));
    expect(csp).toMatch(new RegExp(`frame-src 'self' blob: ${razorpay.url.replace(/[.]/g, '\\.')}`));
  });
});
