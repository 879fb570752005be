import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPayPalStandIn, type TPayPalStandIn } from '../../test/gateway-stand-ins/paypal-stand-in.ts';
import type { TestClient } from '../../test/test-app.ts';
import { createBillingKit, errorOf, type TBillingKit } from './test/billing-test-kit.ts';

/* PayPal Orders v2 against the stand-in: approve on PayPal's page, capture on return, signed webhooks. */

let kit: TBillingKit;
let paypal: TPayPalStandIn;

beforeAll(async () => {
  kit = await createBillingKit();
  paypal = await startPayPalStandIn();
  await kit.activateGateway({
    gatewayName: 'paypal',
    keyId: paypal.clientId,
    keySecret: paypal.clientSecret,
    configuration: { apiBaseUrl: paypal.url, webhookId: paypal.webhookId },
  });
});
afterAll(async () => {
  await kit.close();
  await paypal.close();
});

async function approveAndReturn(client: TestClient, planId: string) {
  const checkout = await kit.checkout(client, planId);
  expect(checkout.next).toEqual({ type: 'redirect', url: `${paypal.url}/checkoutnow?token=${checkout.orderId}` });
  const back = new URL(paypal.approve(checkout.orderId));
  expect(back.pathname).toBe('/payment-success');
  expect(back.searchParams.get('token')).toBe(checkout.orderId);
  const verified = await client.post('/api/subscription/verify-payment', { paypal_order_id: back.searchParams.get('token') });
  return { checkout, verified };
}

const captureOf = (orderId: string) => paypal.orders.get(orderId)!.purchase_units[0]!.payments!.captures[0]!;

describe('PayPal', () => {
  it('captures an approved order on return; the webhook for the same capture changes nothing', async () => {
    const { client } = await kit.customer('Pia');
    const { checkout, verified } = await approveAndReturn(client, 'premium_monthly');
    expect(checkout).toMatchObject({ gateway: 'paypal', amount: 9_900, currency: 'USD' });
    expect(paypal.orders.get(checkout.orderId)!.purchase_units[0]!.amount).toEqual({ currency_code: 'USD', value: '99.00' });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ planId: 'premium', planName: 'Premium' });
    expect(await kit.plan(client)).toBe('premium');

    const capture = captureOf(checkout.orderId);
    const hook = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', capture);
    expect((await kit.webhook('paypal', hook)).statusCode).toBe(200);
    expect((await kit.webhook('paypal', hook)).statusCode).toBe(200);
    // Returning to the page again (a reload) reads the capture back instead of charging twice.
    expect((await client.post('/api/subscription/verify-payment', { paypal_order_id: checkout.orderId })).statusCode).toBe(200);
    const invoices = await kit.invoices(client);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ amount: 9_900, currency: 'USD', gateway: 'paypal', gatewayReference: capture.id });
  });

  it('refuses a forged webhook, an order not approved, and another user’s order', async () => {
    const { client } = await kit.customer('Quin');
    const checkout = await kit.checkout(client, 'basic_monthly');
    const unapproved = await client.post('/api/subscription/verify-payment', { paypal_order_id: checkout.orderId });
    expect(unapproved.statusCode).toBe(402);
    expect(errorOf(unapproved)).toMatchObject({ code: 'payment_failed' });
    expect(await kit.plan(client)).toBe('free');

    const other = await kit.customer('Rafe');
    paypal.approve(checkout.orderId);
    const stolen = await other.client.post('/api/subscription/verify-payment', { paypal_order_id: checkout.orderId });
    expect(stolen.statusCode).toBe(400);
    expect(await kit.plan(other.client)).toBe('free');

    const hook = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', {
      id: 'FAKE',
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '20.00' },
      supplementary_data: { related_ids: { order_id: checkout.orderId } },
    });
    const forged = await kit.webhook('paypal', { ...hook, body: hook.body.replace('20.00', '0.01') });
    expect(forged.statusCode).toBe(400);
    expect(await kit.plan(client)).toBe('free');
    // Headers PayPal refuses to check at all (it answers 400) are a forgery too, not a gateway outage.
    const malformed = await kit.webhook('paypal', { ...hook, headers: { ...hook.headers, 'paypal-transmission-time': 'yesterday' } });
    expect(malformed.statusCode, malformed.body).toBe(400);
    expect(errorOf(malformed).message).toMatch(/signature/i);
    expect(await kit.plan(client)).toBe('free');
  });

  it('refuses a capture whose amount differs from the order', async () => {
    const { client } = await kit.customer('Sol');
    const checkout = await kit.checkout(client, 'basic_monthly');
    paypal.orders.get(checkout.orderId)!.purchase_units[0]!.amount = { currency_code: 'USD', value: '0.50' };
    paypal.approve(checkout.orderId);
    const response = await client.post('/api/subscription/verify-payment', { paypal_order_id: checkout.orderId });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toMatch(/amount paid \(\$0\.50\) does not match the order \(\$20\)/);
    expect(await kit.plan(client)).toBe('free');
  });

  it('records refunds once each, even one that arrives before its capture', async () => {
    const { client } = await kit.customer('Tia');
    const checkout = await kit.checkout(client, 'basic_yearly');
    paypal.approve(checkout.orderId);
    // The capture happens at PayPal, but its completion event is late.
    const captured = (await (
      await fetch(`${paypal.url}/v1/oauth2/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${paypal.clientId}:${paypal.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      })
    ).json()) as { access_token: string };
    await fetch(`${paypal.url}/v2/checkout/orders/${checkout.orderId}/capture`, {
      method: 'POST',
      headers: { authorization: `Bearer ${captured.access_token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const capture = captureOf(checkout.orderId);
    const refund = paypal.refund(capture.id, { currency_code: 'USD', value: '30.00' });
    expect((await kit.webhook('paypal', refund)).statusCode).toBe(409);

    expect((await kit.webhook('paypal', paypal.webhook('PAYMENT.CAPTURE.COMPLETED', capture))).statusCode).toBe(200);
    expect(await kit.plan(client)).toBe('basic');
    expect((await kit.webhook('paypal', refund)).statusCode).toBe(200);
    expect((await kit.webhook('paypal', refund)).statusCode).toBe(200);
    expect((await kit.webhook('paypal', paypal.refund(capture.id, { currency_code: 'USD', value: '20.00' }))).statusCode).toBe(200);
    expect((await kit.invoices(client))[0]).toMatchObject({ amount: 18_000, refunded: 5_000, status: 'partially_refunded' });
  });

  it('lapses into grace when the renewal is not paid, then returns to free', async () => {
    const { client } = await kit.customer('Uli');
    expect((await approveAndReturn(client, 'basic_monthly')).verified.statusCode).toBe(200);
    kit.advanceDays(32);
    await kit.sweep();
    expect((await kit.overview(client)).subscription).toMatchObject({
      status: 'past_due',
      payAgain: { planKey: 'basic_monthly', amount: 2_000, currency: 'USD' },
    });
    kit.advanceDays(8);
    await kit.sweep();
    expect(await kit.plan(client)).toBe('free');
  });
});
