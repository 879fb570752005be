import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TStripeStandIn } from '../../test/gateway-stand-ins/stripe-stand-in.ts';
import type { TestClient } from '../../test/test-app.ts';
import { createStripeKit, errorOf, subscribeThroughStripe, type TBillingKit } from './test/billing-test-kit.ts';

/*
 * Stripe through its official SDK, pointed at the stand-in: Checkout for a subscription, renewals,
 * failures, cancellations and refunds by signed webhook, and plan changes on the card on file.
 */

let kit: TBillingKit;
let stripe: TStripeStandIn;

beforeAll(async () => {
  ({ kit, stripe } = await createStripeKit());
});
afterAll(() => kit.close());

/** Subscribes through Checkout, which sends the buyer to the gateway's own page. */
async function subscribe(client: TestClient, planId: string) {
  const subscribed = await subscribeThroughStripe(kit, stripe, client, planId);
  expect(subscribed.checkout.next.type).toBe('redirect');
  return subscribed;
}

describe('Stripe', () => {
  it('subscribes through Checkout in dollars; the return and the webhooks that follow make one payment', async () => {
    const { client } = await kit.customer('Sam');
    expect((await kit.overview(client)).currency).toBe('USD');
    const { checkout, sessionId, subscriptionId, invoiceId, returnUrl } = await subscribe(client, 'basic_monthly');
    expect(checkout).toMatchObject({ gateway: 'stripe', amount: 2_000, currency: 'USD' });
    expect((checkout.next as { url: string }).url).toBe(`${stripe.url}/c/pay/${checkout.orderId}`);
    expect(returnUrl.pathname).toBe('/payment-success');
    expect(await kit.plan(client)).toBe('basic');

    const session = stripe.sessions.get(sessionId)!;
    const completed = stripe.event('checkout.session.completed', { ...session, line: undefined });
    const paid = stripe.event('invoice.paid', stripe.invoices.get(invoiceId));
    for (const hook of [completed, paid, completed, paid]) expect((await kit.webhook('stripe', hook)).statusCode).toBe(200);
    const invoices = await kit.invoices(client);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ amount: 2_000, currency: 'USD', gateway: 'stripe', gatewayReference: invoiceId });
    expect((await kit.overview(client)).subscription).toMatchObject({ gateway: 'stripe', renewal: 'automatic', status: 'active', payAgain: null });
    expect(stripe.subscriptions.get(subscriptionId)!.metadata).toMatchObject({ planId: 'basic', cycle: 'monthly' });
  });

  it('subscribes a team for its owner: the team gets the plan, the owner’s own stays, and the return names the team', async () => {
    const { client } = await kit.customer('Tess');
    const teamId = ((await client.post('/api/teams', { name: 'Paying Team' })).json() as { id: string }).id;
    client.team = teamId;
    const { returnUrl } = await subscribe(client, 'basic_monthly');
    expect(returnUrl.pathname).toBe('/payment-success');
    expect(returnUrl.searchParams.get('team')).toBe(teamId);
    expect((await kit.overview(client)).planId).toBe('basic');
    client.team = undefined;
    expect((await kit.overview(client)).planId).toBe('free');
    expect(await kit.plan(client)).toBe('free');
  });

  it('refuses a forged signature, another user’s checkout, and an amount that differs from the order', async () => {
    const owner = await kit.customer('Opal');
    const other = await kit.customer('Otto');
    const checkout = await kit.checkout(owner.client, 'premium_yearly');
    expect(checkout.amount).toBe(88_800);
    const session = stripe.sessions.get(checkout.orderId)!;
    stripe.complete(session.id);

    const hook = stripe.event('checkout.session.completed', { ...session, line: undefined });
    const forged = await kit.webhook('stripe', {
      ...hook,
      headers: { ...hook.headers, 'stripe-signature': hook.headers['stripe-signature'].replace(/v1=(.)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`) },
    });
    expect(forged.statusCode).toBe(400);
    expect(await kit.plan(owner.client)).toBe('free');

    const stolen = await other.client.post('/api/subscription/verify-payment', { session_id: session.id });
    expect(stolen.statusCode).toBe(400);
    expect(await kit.plan(other.client)).toBe('free');

    session.amount_total = 100;
    const mismatch = await owner.client.post('/api/subscription/verify-payment', { session_id: session.id });
    expect(mismatch.statusCode).toBe(400);
    expect(errorOf(mismatch).message).toMatch(/amount paid \(\$1\) does not match the order \(\$888\)/);
    expect(await kit.plan(owner.client)).toBe('free');
  });

  it('answers 400 for a checkout Stripe does not know, without asking Stripe about one we never made', async () => {
    const { client } = await kit.customer('Una');
    const unknown = await client.post('/api/subscription/verify-payment', { session_id: 'cs_test_no_such_session' });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown).message).toMatch(/^We could not find this checkout\./);

    // Ours, but gone at Stripe (expired and purged, or another Stripe account): the same answer.
    const checkout = await kit.checkout(client, 'basic_monthly');
    stripe.sessions.delete(checkout.orderId);
    const gone = await client.post('/api/subscription/verify-payment', { session_id: checkout.orderId });
    expect(gone.statusCode).toBe(400);
    expect(errorOf(gone).message).toMatch(/^We could not find this checkout\./);
    expect(await kit.plan(client)).toBe('free');
  });

  it('renews by webhook, resetting the quota, and a late failure from before the renewal changes nothing', async () => {
    const { client } = await kit.customer('Rio');
    const { subscriptionId } = await subscribe(client, 'basic_monthly');
    const before = await kit.overview(client);
    const failedEarlier = stripe.event(
      'invoice.payment_failed',
      { ...stripe.renew(subscriptionId, 'failed').invoice },
      Math.floor(kit.clock().getTime() / 1000) - 60,
    );
    kit.advanceDays(31);
    const { hook } = stripe.renew(subscriptionId);
    expect((await kit.webhook('stripe', hook)).statusCode).toBe(200);
    const renewed = await kit.overview(client);
    expect(renewed.subscription).toMatchObject({ status: 'active', periodStart: before.subscription!.periodEnd });
    expect(renewed.usage.periodStart).toBe(before.subscription!.periodEnd);
    // Out of order: the failure of the first attempt arrives after the retry that paid.
    expect((await kit.webhook('stripe', failedEarlier)).statusCode).toBe(200);
    expect((await kit.overview(client)).subscription).toMatchObject({ status: 'active', graceEndsAt: null });
    expect(await kit.invoices(client)).toHaveLength(2);
  });

  it('gives a week of grace after a failed renewal, then returns to free and stops Stripe charging', async () => {
    const { client } = await kit.customer('Fin');
    const { subscriptionId } = await subscribe(client, 'premium_monthly');
    kit.advanceDays(31);
    const { hook } = stripe.renew(subscriptionId, 'failed');
    expect((await kit.webhook('stripe', hook)).statusCode).toBe(200);
    const lapsed = await kit.overview(client);
    expect(lapsed).toMatchObject({ planId: 'premium', subscription: { status: 'past_due' } });
    kit.advanceDays(8);
    await kit.sweep();
    expect(await kit.plan(client)).toBe('free');
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
  });

  it('upgrades on the card on file at once, prorated by Stripe; a declined card leaves the plan', async () => {
    const { client } = await kit.customer('Ugo');
    const { subscriptionId } = await subscribe(client, 'basic_monthly');
    const before = await kit.overview(client);

    stripe.declineNextCharge();
    const { confirm } = await kit.quote(client, 'premium_monthly');
    const declined = await client.post('/api/subscription/create-order', { planId: 'premium_monthly', confirm });
    expect(declined.statusCode).toBe(402);
    expect(errorOf(declined)).toMatchObject({ code: 'payment_failed' });
    expect(await kit.plan(client)).toBe('basic');

    const upgrade = await kit.checkout(client, 'premium_monthly');
    expect(upgrade.next).toEqual({ type: 'done' });
    expect(upgrade.amount).toBeGreaterThan(7_800);
    expect(upgrade.amount).toBeLessThanOrEqual(7_900);
    expect(await kit.plan(client)).toBe('premium');
    const after = await kit.overview(client);
    expect(after.subscription).toMatchObject({ planId: 'premium', periodStart: before.subscription!.periodStart, periodEnd: before.subscription!.periodEnd });
    expect(stripe.subscriptions.get(subscriptionId)!.items.data[0]!.price.unit_amount).toBe(9_900);
    expect(await kit.invoices(client)).toHaveLength(2);
  });

  it('schedules a downgrade that the next renewal brings, and cancels at the period end', async () => {
    const { client } = await kit.customer('Dee');
    const { subscriptionId } = await subscribe(client, 'premium_monthly');
    const scheduled = await client.post('/api/subscription/downgrade', { planId: 'basic_monthly' });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(await kit.plan(client)).toBe('premium');
    expect(stripe.subscriptions.get(subscriptionId)!.items.data[0]!.price.unit_amount).toBe(2_000);
    kit.advanceDays(31);
    expect((await kit.webhook('stripe', stripe.renew(subscriptionId).hook)).statusCode).toBe(200);
    expect(await kit.plan(client)).toBe('basic');
    expect((await kit.invoices(client))[0]).toMatchObject({ amount: 2_000, planName: 'Basic' });

    const cancelled = await client.post('/api/subscription/cancel');
    expect(cancelled.json()).toMatchObject({ subscription: { cancelAtPeriodEnd: true } });
    expect(stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);
    const deleted = stripe.event('customer.subscription.deleted', { ...stripe.subscriptions.get(subscriptionId), status: 'canceled' });
    expect((await kit.webhook('stripe', deleted)).statusCode).toBe(200);
    expect(await kit.plan(client)).toBe('free');
  });

  it('records a refund that arrives by webhook, once', async () => {
    const { client } = await kit.customer('Ren');
    const { invoiceId } = await subscribe(client, 'basic_yearly');
    const refund = stripe.refund(invoiceId, 18_000);
    expect((await kit.webhook('stripe', refund)).statusCode).toBe(200);
    expect((await kit.webhook('stripe', refund)).statusCode).toBe(200);
    expect((await kit.invoices(client))[0]).toMatchObject({ amount: 18_000, status: 'refunded', refunded: 18_000 });
  });
});
