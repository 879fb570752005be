import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../../../render/testdata/pdf-tools.ts';
import { startRazorpayStandIn, type TRazorpayStandIn } from '../../test/gateway-stand-ins/razorpay-stand-in.ts';
import type { TestClient } from '../../test/test-app.ts';
import { createBillingKit, errorOf, type TBillingKit } from './test/billing-test-kit.ts';

let kit: TBillingKit;
let razorpay: TRazorpayStandIn;

beforeAll(async () => {
  kit = await createBillingKit();
  razorpay = await startRazorpayStandIn();
  await kit.activateRazorpay(razorpay);
});
afterAll(async () => {
  await kit.close();
  await razorpay.close();
});

/** Orders a plan and pays it on the stand-in, returning what Checkout hands the page. */
async function orderAndPay(client: TestClient, planId: string, override: Parameters<TRazorpayStandIn['pay']>[1] = {}) {
  const checkout = await kit.checkout(client, planId);
  expect(checkout.next.type).toBe('razorpay');
  const { checkout: result, payment } = razorpay.pay(checkout.orderId, override);
  return { checkout, result, payment };
}

const verify = (client: TestClient, result: Record<string, string>, planId: string) => client.post('/api/subscription/verify-payment', { ...result, planId });

describe('Razorpay', () => {
  it('takes a payment: the order is priced by the server in rupees, verified, and the plan and invoice follow', async () => {
    const { client } = await kit.customer('Asha');
    const before = await kit.overview(client);
    expect(before).toMatchObject({ planId: 'free', gateway: 'razorpay', currency: 'INR', subscription: null });
    expect(before.usage.formats).toEqual({ used: 0, limit: 1 });

    const { checkout, result } = await orderAndPay(client, 'basic_monthly');
    expect(checkout).toMatchObject({ gateway: 'razorpay', amount: 29_900, currency: 'INR', planId: 'basic', cycle: 'monthly', credit: 0 });
    expect(checkout.next).toMatchObject({
      type: 'razorpay',
      checkoutScriptUrl: razorpay.checkoutScriptUrl,
      options: { key: razorpay.keyId, order_id: checkout.orderId, amount: 29_900, currency: 'INR' },
    });
    // The gateway was asked for exactly the catalogue's price.
    expect(razorpay.orders.get(checkout.orderId)).toMatchObject({ amount: 29_900, currency: 'INR' });

    const verified = await verify(client, result, 'basic_monthly');
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ planId: 'basic', planName: 'Basic', cycle: 'monthly' });
    expect(await kit.plan(client)).toBe('basic');

    const after = await kit.overview(client);
    expect(after.subscription).toMatchObject({ planId: 'basic', cycle: 'monthly', gateway: 'razorpay', status: 'active', renewal: 'manual', payAgain: null });
    const days = (Date.parse(after.subscription!.periodEnd) - Date.parse(after.subscription!.periodStart)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(31);
    expect(after.usage.generations.limit).toBe(5_000);
    expect(after.usage.formats.limit).toBeNull();

    // The webhook that follows the same payment changes nothing: one payment, one invoice.
    const hook = razorpay.webhook('payment.captured', { payment: { entity: razorpay.payments.get(result.razorpay_payment_id)! } });
    expect((await kit.webhook('razorpay', hook)).statusCode).toBe(200);
    const invoices = await kit.invoices(client);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ amount: 29_900, currency: 'INR', gateway: 'razorpay', gatewayReference: result.razorpay_payment_id, status: 'paid' });
    expect(invoices[0]!.number).toMatch(/^FW-\d{6}$/);

    const pdf = await client.get(`/api/subscription/invoices/${invoices[0]!.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain(invoices[0]!.number);
    expect(text).toContain('₹299');
    expect(text).toContain('Basic plan, monthly');
    expect(text).toContain(result.razorpay_payment_id);
    expect(text).toContain('Asha Customer');
  });

  it('quotes the price and the page it is paid on before any order exists at Razorpay', async () => {
    const { client } = await kit.customer('Quade');
    const orders = razorpay.orders.size;
    const quote = await kit.quote(client, 'premium_yearly');
    expect(quote).toMatchObject({
      kind: 'new',
      gateway: 'razorpay',
      currency: 'INR',
      chargesNow: false,
      paidWith: { type: 'page', gateway: 'razorpay', label: 'Razorpay' },
    });
    expect(razorpay.orders.size).toBe(orders);
    const order = await client.post('/api/subscription/create-order', { planId: 'premium_yearly', confirm: quote.confirm });
    expect(order.statusCode, order.body).toBe(200);
    expect(order.json()).toMatchObject({ amount: quote.amount, currency: 'INR' });
    expect(razorpay.orders.size).toBe(orders + 1);
    const missing = await client.post('/api/subscription/create-order', { planId: 'premium_yearly' });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).fields?.confirm).toMatch(/confirm it first/);
    expect(razorpay.orders.size).toBe(orders + 1);
  });

  it('refuses a second payment of an order already paid: no payment, no invoice, and Razorpay refunds it', async () => {
    const { client, email } = await kit.customer('Dora');
    const { checkout, result } = await orderAndPay(client, 'basic_monthly');
    expect((await verify(client, result, 'basic_monthly')).statusCode).toBe(200);
    const recorded = async () => ((await kit.admin.get(`/api/admin/payments?email=${encodeURIComponent(email)}`)).json() as { total: number }).total;
    expect(await recorded()).toBe(1);

    // The same order paid again (a second tab's Checkout), reported by the return page.
    const second = razorpay.pay(checkout.orderId);
    const response = await verify(client, second.checkout, 'basic_monthly');
    expect(response.statusCode).toBe(409);
    expect(errorOf(response).message).toMatch(
      /already paid by an earlier payment, so this second payment of ₹299 has been refunded in full through Razorpay.*Your plan is not affected/,
    );
    expect(razorpay.refunds).toEqual([expect.objectContaining({ payment_id: second.payment.id, amount: 29_900, status: 'processed' })]);
    expect(razorpay.payments.get(second.payment.id)).toMatchObject({ status: 'refunded', amount_refunded: 29_900 });
    expect(await recorded()).toBe(1);
    expect(await kit.invoices(client)).toHaveLength(1);
    expect(await kit.plan(client)).toBe('basic');

    // Its webhooks (the capture, replayed, and Razorpay's refund event) change nothing and refund nothing more.
    const captured = razorpay.webhook('payment.captured', { payment: { entity: { ...second.payment, status: 'captured', amount_refunded: 0 } } });
    expect((await kit.webhook('razorpay', captured)).statusCode).toBe(200);
    expect((await kit.webhook('razorpay', captured)).statusCode).toBe(200);
    const refunded = razorpay.webhook('refund.processed', {
      refund: { entity: razorpay.refunds[0]! },
      payment: { entity: razorpay.payments.get(second.payment.id)! },
    });
    expect((await kit.webhook('razorpay', refunded)).statusCode).toBe(200);
    expect(razorpay.refunds).toHaveLength(1);

    // A third payment that only the webhook reports is refunded from there.
    const third = razorpay.pay(checkout.orderId);
    const hook = razorpay.webhook('payment.captured', { payment: { entity: third.payment } });
    expect((await kit.webhook('razorpay', hook)).statusCode).toBe(200);
    expect(razorpay.refunds.map((r) => r.payment_id)).toEqual([second.payment.id, third.payment.id]);
    expect(await recorded()).toBe(1);
    const invoices = await kit.invoices(client);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ gatewayReference: result.razorpay_payment_id, status: 'paid' });
  });

  it('refuses a tampered signature with 400 and leaves the plan as it was', async () => {
    const { client } = await kit.customer('Tamsin');
    const { result } = await orderAndPay(client, 'premium_monthly');
    const tampered = { ...result, razorpay_signature: result.razorpay_signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) };
    const response = await verify(client, tampered, 'premium_monthly');
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toMatch(/signature does not match/);
    expect(await kit.plan(client)).toBe('free');
    expect(await kit.invoices(client)).toEqual([]);

    // A webhook with a forged signature is refused too.
    const hook = razorpay.webhook('payment.captured', { payment: { entity: razorpay.payments.get(result.razorpay_payment_id)! } });
    const forged = await kit.webhook('razorpay', { ...hook, headers: { ...hook.headers, 'x-razorpay-signature': '0'.repeat(64) } });
    expect(forged.statusCode).toBe(400);
    expect(await kit.plan(client)).toBe('free');
  });

  it("refuses another user's order, and an order for another plan", async () => {
    const owner = await kit.customer('Olu');
    const thief = await kit.customer('Theo');
    const { result } = await orderAndPay(owner.client, 'basic_monthly');

    const stolen = await verify(thief.client, result, 'basic_monthly');
    expect(stolen.statusCode).toBe(400);
    expect(errorOf(stolen).message).toMatch(/does not belong to an order of yours/);
    expect(await kit.plan(thief.client)).toBe('free');

    const otherPlan = await verify(owner.client, result, 'premium_yearly');
    expect(otherPlan.statusCode).toBe(400);
    expect(errorOf(otherPlan).message).toMatch(/was for the basic monthly plan/);
    expect(await kit.plan(owner.client)).toBe('free');

    // Without any of the three fields: SPEC's message.
    const missing = await owner.client.post('/api/subscription/verify-payment', { planId: 'basic_monthly' });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).message).toBe('Missing payment details');
  });

  it('refuses a payment whose amount or currency differs from the order, by return and by webhook', async () => {
    const { client } = await kit.customer('Mona');
    const short = await orderAndPay(client, 'basic_monthly', { amount: 100 });
    const response = await verify(client, short.result, 'basic_monthly');
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toMatch(/amount paid \(₹1\) does not match the order \(₹299\)/);
    expect(await kit.plan(client)).toBe('free');

    const dollars = await orderAndPay(client, 'basic_monthly', { currency: 'USD' });
    expect((await verify(client, dollars.result, 'basic_monthly')).statusCode).toBe(400);
    const hook = razorpay.webhook('payment.captured', { payment: { entity: dollars.payment } });
    expect((await kit.webhook('razorpay', hook)).statusCode).toBe(200);
    expect(await kit.plan(client)).toBe('free');
    expect(await kit.invoices(client)).toEqual([]);
  });

  it('captures a payment left authorized, and a webhook alone can activate the plan', async () => {
    const { client } = await kit.customer('Ade');
    const { result, payment } = await orderAndPay(client, 'basic_yearly', { status: 'authorized' });
    expect((await verify(client, result, 'basic_yearly')).statusCode).toBe(200);
    expect(razorpay.payments.get(payment.id)!.status).toBe('captured');
    expect((await kit.overview(client)).subscription).toMatchObject({ planId: 'basic', cycle: 'yearly' });
    // ₹299 less 25%, rounded to ₹224 a month, billed as ₹2,688 for the year.
    expect((await kit.invoices(client))[0]).toMatchObject({ amount: 268_800, currency: 'INR' });

    // The page was closed before it could report: the webhook alone finishes the job.
    const late = await kit.customer('Lena');
    const checkout = await kit.checkout(late.client, 'premium_monthly');
    const { payment: latePayment } = razorpay.pay(checkout.orderId);
    const hook = razorpay.webhook('payment.captured', { payment: { entity: latePayment } });
    expect((await kit.webhook('razorpay', hook)).statusCode).toBe(200);
    expect(await kit.plan(late.client)).toBe('premium');
  });

  it('applies a replayed webhook once, and an event that arrives early once its payment is known', async () => {
    const { client } = await kit.customer('Rhea');
    const { result, payment } = await orderAndPay(client, 'basic_monthly');
    // The refund's event overtakes the capture: it is refused for now, and the gateway sends it again.
    razorpay.payments.get(payment.id)!.status = 'captured';
    const refund = razorpay.refund(payment.id, 10_000);
    const early = await kit.webhook('razorpay', refund);
    expect(early.statusCode).toBe(409);

    const captured = razorpay.webhook('payment.captured', { payment: { entity: { ...payment, amount_refunded: 0, status: 'captured' } } });
    expect((await kit.webhook('razorpay', captured)).statusCode).toBe(200);
    expect((await kit.webhook('razorpay', captured)).statusCode).toBe(200);
    expect((await verify(client, result, 'basic_monthly')).statusCode).toBe(200);
    expect(await kit.invoices(client)).toHaveLength(1);

    expect((await kit.webhook('razorpay', refund)).statusCode).toBe(200);
    expect((await kit.webhook('razorpay', refund)).statusCode).toBe(200);
    expect((await kit.invoices(client))[0]).toMatchObject({ status: 'partially_refunded', refunded: 10_000 });
  });
});
