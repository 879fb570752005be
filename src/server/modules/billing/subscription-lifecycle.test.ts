import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCheckout } from '../../../contract/billing.ts';
import type { TFormat } from '../../../contract/formats.ts';
import { startRazorpayStandIn, type TRazorpayStandIn } from '../../test/gateway-stand-ins/razorpay-stand-in.ts';
import { NOTICES_ACCOUNT, saveSystemMail } from '../../test/mail-test-app.ts';
import { startSmtpStandIn, type TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import type { TestClient } from '../../test/test-app.ts';
import { createBillingKit, errorOf, type TBillingKit } from './test/billing-test-kit.ts';

/*
 * A subscription's life on a gateway without automatic renewal (Razorpay, and PayPal alike):
 * renewals paid by hand in the week before the end, a week of grace when unpaid, then free;
 * upgrades now at the difference, downgrades and cancellations at the end of the period.
 */

let kit: TBillingKit;
let razorpay: TRazorpayStandIn;
let smtp: TSmtpStandIn;

beforeAll(async () => {
  smtp = await startSmtpStandIn({ accounts: { notices: 'notices-password' } });
  kit = await createBillingKit({ mailTrustedCa: [smtp.ca], mail: smtp });
  razorpay = await startRazorpayStandIn();
  await kit.activateRazorpay(razorpay);
  await saveSystemMail(kit.admin, smtp, { ...NOTICES_ACCOUNT, fromAddress: 'billing@formwork.test', fromName: 'Formwork Billing' });
});
afterAll(async () => {
  await kit.close();
  await razorpay.close();
  await smtp.close();
});

async function pay(client: TestClient, planId: string): Promise<TCheckout> {
  const checkout = await kit.checkout(client, planId);
  const { checkout: result } = razorpay.pay(checkout.orderId);
  const verified = await client.post('/api/subscription/verify-payment', { ...result, planId });
  expect(verified.statusCode, verified.body).toBe(200);
  return checkout;
}

async function makeFormat(client: TestClient, name: string): Promise<TFormat> {
  const response = await client.post('/api/formats', {
    name,
    description: null,
    content: { elements: [{ id: '1', type: 'paragraph', content: 'Dear {{client_name}},' }] },
    placeholders: [{ name: 'client_name', type: 'text', required: false }],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as TFormat;
}

const generate = (client: TestClient, format: TFormat) => client.post('/api/documents', { formatId: format.id, data: { client_name: 'Ann' } });

describe('subscription lifecycle (renewals paid by hand)', () => {
  it('reminds by email in the last week, renews, rolls into the paid period at its end, and resets the quota there', async () => {
    const { client, email } = await kit.customer('Rene');
    await pay(client, 'basic_monthly');
    const format = await makeFormat(client, 'Letter');
    expect((await generate(client, format)).statusCode).toBe(201);
    const first = await kit.overview(client);
    expect(first.usage.generations).toEqual({ used: 1, limit: 5_000 });

    const early = await client.post('/api/subscription/quote', { planId: 'basic_monthly' });
    expect(early.statusCode).toBe(409);
    expect(errorOf(early).message).toMatch(/is paid until .* You can renew it from /);

    kit.advanceDays(25);
    // The last week begins: one reminder by email, however many times the sweep runs.
    const sent = smtp.messages.length;
    await kit.sweep();
    await kit.sweep();
    await smtp.waitFor(sent + 1);
    const reminders = smtp.messages.slice(sent).filter((m) => m.to.includes(email));
    expect(reminders).toHaveLength(1);
    const reminder = await smtp.parse(reminders[0]!);
    expect(reminder.subject).toMatch(/^Your Formwork Basic plan renews on /);
    expect(reminder.text).toContain('pay ₹299 for the next month');
    expect(reminder.text).toContain('/settings?tab=billing');
    const due = await kit.overview(client);
    expect(due.subscription?.payAgain).toMatchObject({ planKey: 'basic_monthly', amount: 29_900, currency: 'INR' });
    const renewal = await pay(client, 'basic_monthly');
    expect(renewal.amount).toBe(29_900);
    const paidAhead = await kit.overview(client);
    // Paid ahead: the current period is unchanged, and nothing more is asked.
    expect(paidAhead.subscription?.periodEnd).toBe(first.subscription?.periodEnd);
    expect(paidAhead.subscription?.payAgain).toBeNull();
    expect((await client.post('/api/subscription/quote', { planId: 'basic_monthly' })).statusCode).toBe(409);

    kit.advanceDays(7);
    expect((await kit.sweep()).rolled).toBeGreaterThanOrEqual(1);
    const rolled = await kit.overview(client);
    expect(rolled.subscription).toMatchObject({ status: 'active', periodStart: first.subscription!.periodEnd, planId: 'basic' });
    expect(rolled.usage.generations).toEqual({ used: 0, limit: 5_000 });
    expect(await kit.invoices(client)).toHaveLength(2);
  });

  it('gives a week of grace when a renewal is not paid, then returns to free, keeping every format read-only beyond the first', async () => {
    const { client } = await kit.customer('Gia');
    await pay(client, 'basic_monthly');
    const older = await makeFormat(client, 'Older');
    const newer = await makeFormat(client, 'Newer');

    kit.advanceDays(32);
    await kit.sweep();
    const lapsed = await kit.overview(client);
    expect(lapsed.planId).toBe('basic');
    expect(lapsed.subscription).toMatchObject({ status: 'past_due', payAgain: { planKey: 'basic_monthly' } });
    expect(Date.parse(lapsed.subscription!.graceEndsAt!) - Date.parse(lapsed.subscription!.periodEnd)).toBe(7 * 86_400_000);

    kit.advanceDays(8);
    expect((await kit.sweep()).ended).toBeGreaterThanOrEqual(1);
    expect(await kit.plan(client)).toBe('free');
    const free = await kit.overview(client);
    expect(free).toMatchObject({ planId: 'free', subscription: null, managedByAdmin: false });
    expect(free.usage.formats).toEqual({ used: 2, limit: 1 });

    // Nothing is deleted: both formats are there, the one edited last stays editable.
    const formats = (await client.get('/api/formats')).json() as TFormat[];
    expect(formats.map((f) => [f.name, f.readOnly])).toEqual([
      ['Newer', false],
      ['Older', true],
    ]);
    const body = { name: 'Older, edited', description: null, content: older.content, placeholders: older.placeholders };
    const refused = await client.request('PUT', `/api/formats/${older.id}`, body);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toMatchObject({ code: 'plan_limit' });
    expect(errorOf(refused).message).toMatch(/read-only/);
    expect((await client.request('PUT', `/api/formats/${newer.id}`, { ...body, name: 'Newer, edited' })).statusCode).toBe(200);
    expect((await generate(client, older)).statusCode).toBe(201);

    // Paying again after the grace starts a new period from the day of payment.
    await pay(client, 'basic_monthly');
    expect(((await client.get('/api/formats')).json() as TFormat[]).every((f) => !f.readOnly)).toBe(true);
  });

  it('upgrades now at the difference for the rest of the period, keeping the period and its count', async () => {
    const { client } = await kit.customer('Uma');
    await pay(client, 'basic_monthly');
    const format = await makeFormat(client, 'Letter');
    expect((await generate(client, format)).statusCode).toBe(201);
    const before = await kit.overview(client);
    kit.advanceDays(10);
    const upgrade = await pay(client, 'premium_monthly');
    const share =
      (Date.parse(before.subscription!.periodEnd) - kit.clock().getTime()) /
      (Date.parse(before.subscription!.periodEnd) - Date.parse(before.subscription!.periodStart));
    expect(Math.abs(upgrade.amount - Math.round((99_900 - 29_900) * share))).toBeLessThanOrEqual(50);
    const after = await kit.overview(client);
    expect(after.planId).toBe('premium');
    expect(after.subscription).toMatchObject({ planId: 'premium', periodStart: before.subscription!.periodStart, periodEnd: before.subscription!.periodEnd });
    expect(after.usage.generations).toEqual({ used: 1, limit: 50_000 });
    const invoices = await kit.invoices(client);
    expect(invoices[0]).toMatchObject({ amount: upgrade.amount, planName: 'Premium' });
  });

  it('moves from monthly to yearly now, less the unused part of the month', async () => {
    const { client } = await kit.customer('Yara');
    await pay(client, 'basic_monthly');
    kit.advanceDays(15);
    const yearly = await pay(client, 'basic_yearly');
    expect(yearly.credit).toBeGreaterThan(10_000);
    expect(yearly.credit).toBeLessThan(20_000);
    expect(yearly.amount).toBe(268_800 - yearly.credit);
    const after = await kit.overview(client);
    expect(after.subscription).toMatchObject({ cycle: 'yearly' });
    const days = (Date.parse(after.subscription!.periodEnd) - Date.parse(after.subscription!.periodStart)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(365);
  });

  it('schedules a downgrade for the end of the period, charged at the lower price when renewed', async () => {
    const { client } = await kit.customer('Dov');
    await pay(client, 'premium_monthly');
    const refused = await client.post('/api/subscription/quote', { planId: 'basic_monthly' });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toMatch(/Choose Downgrade/);

    const scheduled = await client.post('/api/subscription/downgrade', { planId: 'basic_monthly' });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json()).toMatchObject({ planId: 'premium', subscription: { scheduled: { planId: 'basic', cycle: 'monthly' } } });
    expect((await client.post('/api/subscription/downgrade', { planId: 'premium_yearly' })).statusCode).toBe(409);

    kit.advanceDays(26);
    expect((await kit.overview(client)).subscription?.payAgain).toMatchObject({ planKey: 'basic_monthly', amount: 29_900 });
    await pay(client, 'basic_monthly');
    expect(await kit.plan(client)).toBe('premium');
    kit.advanceDays(6);
    await kit.sweep();
    expect(await kit.plan(client)).toBe('basic');
    expect((await kit.overview(client)).subscription).toMatchObject({ planId: 'basic', scheduled: null, status: 'active' });
  });

  it('cancels at the end of the period, can take it back, and then returns to free without grace', async () => {
    const { client } = await kit.customer('Cal');
    await pay(client, 'basic_monthly');
    const cancelled = await client.post('/api/subscription/cancel');
    expect(cancelled.json()).toMatchObject({ planId: 'basic', subscription: { cancelAtPeriodEnd: true, payAgain: null } });
    const resumed = await client.post('/api/subscription/resume');
    expect(resumed.json()).toMatchObject({ subscription: { cancelAtPeriodEnd: false } });
    await client.post('/api/subscription/cancel');
    kit.advanceDays(32);
    await kit.sweep();
    expect(await kit.plan(client)).toBe('free');
    expect((await kit.overview(client)).subscription).toBeNull();
  });

  it('counts a yearly plan month by month: each month of the year starts a fresh allowance', async () => {
    const { client } = await kit.customer('Yuki');
    await pay(client, 'premium_yearly');
    const format = await makeFormat(client, 'Letter');
    expect((await generate(client, format)).statusCode).toBe(201);
    const first = await kit.overview(client);
    expect(first.usage).toMatchObject({ periodStart: first.subscription!.periodStart, generations: { used: 1, limit: 50_000 } });
    kit.advanceDays(32);
    expect((await kit.sweep()).months).toBeGreaterThanOrEqual(1);
    const second = await kit.overview(client);
    expect(second.subscription!.periodStart).toBe(first.subscription!.periodStart);
    expect(second.usage.periodStart).toBe(first.usage.periodEnd);
    expect(second.usage.generations).toEqual({ used: 0, limit: 50_000 });
    expect(Date.parse(second.usage.periodEnd) - Date.parse(second.usage.periodStart)).toBeLessThanOrEqual(31 * 86_400_000);
  });

  it('refuses what cannot be bought, and explains why', async () => {
    const { client } = await kit.customer('Fay');
    const free = await client.post('/api/subscription/quote', { planId: 'free_monthly' });
    expect(free.statusCode).toBe(400);
    const enterprise = await client.post('/api/subscription/quote', { planId: 'enterprise_monthly' });
    expect(enterprise.statusCode).toBe(400);
    expect(errorOf(enterprise).message).toMatch(/Contact Sales/);
    const nonsense = await client.post('/api/subscription/quote', { planId: 'gold_forever' });
    expect(nonsense.statusCode).toBe(400);
    expect(errorOf(nonsense).fields?.planId).toBeDefined();
    expect((await client.post('/api/subscription/cancel')).statusCode).toBe(409);
    const signedOut = await kit.t.app.inject({ method: 'GET', url: '/api/subscription' });
    expect(signedOut.statusCode).toBe(401);
  });
});
