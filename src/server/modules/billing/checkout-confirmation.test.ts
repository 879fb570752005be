import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCheckoutQuote } from '../../../contract/billing.ts';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plan-catalogue.ts';
import { billingOrders, checkoutQuotes } from '../../db/schema.ts';
import type { TStripeStandIn } from '../../test/gateway-stand-ins/stripe-stand-in.ts';
import { TestClient } from '../../test/test-app.ts';
import { createStripeKit, errorOf, subscribeThroughStripe, type TBillingKit } from './test/billing-test-kit.ts';

/*
 * No money moves without the payer's click: create-order charges only with the token of a quote
 * the user was shown, in the same sign-in session, once, before it expires, and while the price is
 * still the one quoted. Against Stripe, where an upgrade charges the saved card at once.
 */

let kit: TBillingKit;
let stripe: TStripeStandIn;

beforeAll(async () => {
  ({ kit, stripe } = await createStripeKit({ card: { brand: 'mastercard', last4: '4444' } }));
});
afterAll(() => kit.close());

const PASSWORD = 'correct horse battery';

/** A Stripe subscriber on Basic monthly, signed in, with the card Checkout saved. */
async function subscriber(name: string) {
  const { client, id, email } = await kit.customer(name);
  const { subscriptionId } = await subscribeThroughStripe(kit, stripe, client, 'basic_monthly');
  return { client, id, email, subscriptionId };
}

/** What the gateway and our books hold for a subscriber: what must not move on a refusal. */
async function ledger(ownerId: string, subscriptionId: string) {
  const orders = await kit.t.database.db.select().from(billingOrders).where(eq(billingOrders.ownerId, ownerId));
  const sub = stripe.subscriptions.get(subscriptionId)!;
  return {
    charges: stripe.charges.filter((c) => c.subscription === subscriptionId).length,
    price: sub.items.data[0]!.price.unit_amount,
    latestInvoice: sub.latest_invoice,
    orders: orders.length,
  };
}

const createOrder = (client: TestClient, body: Record<string, unknown>) => client.post('/api/subscription/create-order', body);

describe('create-order needs a confirmed quote', () => {
  it('quotes exactly what the saved card is charged, and charges it once', async () => {
    const { client, id, subscriptionId } = await subscriber('Quinn');
    const before = await ledger(id, subscriptionId);

    const quote = await kit.quote(client, 'premium_monthly');
    expect(quote).toMatchObject({
      planId: 'premium',
      cycle: 'monthly',
      planKey: 'premium_monthly',
      planName: 'Premium',
      kind: 'upgrade',
      gateway: 'stripe',
      currency: 'USD',
      chargesNow: true,
      paidWith: { type: 'card', brand: 'mastercard', last4: '4444' },
    });
    // Stripe's own proration: the unused Basic time as a credit, Premium for the rest of the period.
    expect(quote.amount).toBeGreaterThan(7_800);
    expect(quote.amount).toBeLessThanOrEqual(7_900);
    expect(quote.lines).toHaveLength(2);
    expect(quote.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(quote.amount);
    expect(quote.credit).toBe(-quote.lines[0]!.amount);
    expect(Date.parse(quote.expiresAt) - Date.parse(quote.chargeAt)).toBe(15 * 60_000);
    // At least 128 random bits, and only a hash of it is kept.
    expect(Buffer.from(quote.confirm, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await kit.t.database.db.select().from(checkoutQuotes).where(eq(checkoutQuotes.ownerId, id));
    expect(stored.map((row) => row.tokenHash)).toContain(createHash('sha256').update(quote.confirm).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(quote.confirm);
    // Quoting charged nothing and changed nothing.
    expect(await ledger(id, subscriptionId)).toEqual(before);

    // Minutes of reading later, the charge is still exactly what was shown.
    kit.advanceDays(10 / 1440);
    const paid = await createOrder(client, { planId: 'premium_monthly', confirm: quote.confirm });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ next: { type: 'done' }, amount: quote.amount, planId: 'premium' });
    const after = await ledger(id, subscriptionId);
    expect(after).toMatchObject({ charges: before.charges + 1, price: 9_900, orders: before.orders + 1 });
    expect(stripe.charges.at(-1)!.amount).toBe(quote.amount);
    expect(await kit.plan(client)).toBe('premium');

    // The same confirmation again: refused, and nothing more is charged.
    const replay = await createOrder(client, { planId: 'premium_monthly', confirm: quote.confirm });
    expect(replay.statusCode).toBe(409);
    expect(errorOf(replay)).toMatchObject({ code: 'conflict', fields: { confirm: 'This confirmation was already used.' } });
    expect(errorOf(replay).message).toMatch(/already used.*Nothing was charged/);
    expect(await ledger(id, subscriptionId)).toEqual(after);
  });

  it('refuses a missing, made-up, expired, other-plan or other-session confirmation, charging nothing', async () => {
    const { client, id, email, subscriptionId } = await subscriber('Rory');
    const before = await ledger(id, subscriptionId);
    const refused = async (body: Record<string, unknown>, status: number, pattern: RegExp, on = client) => {
      const response = await createOrder(on, body);
      expect(response.statusCode, response.body).toBe(status);
      expect(errorOf(response).message).toMatch(pattern);
      expect(errorOf(response).fields?.confirm).toBeDefined();
      expect(await ledger(id, subscriptionId)).toEqual(before);
      expect(await kit.plan(client)).toBe('basic');
    };

    await refused({ planId: 'premium_yearly' }, 400, /confirm/);
    await refused({ planId: 'premium_yearly', confirm: 'x'.repeat(43) }, 400, /was not confirmed.*Nothing was charged/);

    const yearly = await kit.quote(client, 'premium_yearly');
    await refused({ planId: 'premium_monthly', confirm: yearly.confirm }, 400, /is for the Premium \(yearly\) plan, not Premium \(monthly\)/);

    // The same user signed in elsewhere (another browser): its quote does not pay here.
    const elsewhere = new TestClient(kit.t.app);
    expect((await elsewhere.post('/api/auth/sign-in', { email, password: PASSWORD })).statusCode).toBe(200);
    const theirs = await kit.quote(elsewhere, 'premium_yearly');
    await refused({ planId: 'premium_yearly', confirm: theirs.confirm }, 403, /another sign-in/);
    // Nor does another user's, which is simply not one of ours.
    const stranger = await subscriber('Sage');
    const strangers = await kit.quote(stranger.client, 'premium_yearly');
    await refused({ planId: 'premium_yearly', confirm: strangers.confirm }, 400, /was not confirmed/);

    const stale = await kit.quote(client, 'premium_monthly');
    kit.advanceDays(16 / 1440);
    await refused({ planId: 'premium_monthly', confirm: stale.confirm }, 409, /expired/);

    // The one that holds still works, once: the refusals above did not use it up.
    const fresh = await kit.quote(client, 'premium_yearly');
    const paid = await createOrder(client, { planId: 'premium_yearly', confirm: fresh.confirm });
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await ledger(id, subscriptionId)).charges).toBe(before.charges + 1);
    expect(stripe.charges.at(-1)!.amount).toBe(fresh.amount);
  });

  it('refuses a quote whose price has changed since, until the new price is confirmed', async () => {
    const { client, id, subscriptionId } = await subscriber('Tate');
    const before = await ledger(id, subscriptionId);
    const quote = await kit.quote(client, 'premium_monthly');
    const raised = DEFAULT_PLAN_CATALOGUE.map((p) => (p.id === 'premium' ? { ...p, usdMonthly: 129 } : p));
    expect((await kit.admin.request('PUT', '/api/admin/plans', raised)).statusCode).toBe(200);
    try {
      const response = await createOrder(client, { planId: 'premium_monthly', confirm: quote.confirm });
      expect(response.statusCode).toBe(409);
      expect(errorOf(response).message).toMatch(/price changed since you reviewed it: it is now \$\d+(\.\d\d)?, not \$\d+(\.\d\d)?\. Nothing was charged/);
      expect(await ledger(id, subscriptionId)).toEqual(before);

      const requoted = await kit.quote(client, 'premium_monthly');
      expect(requoted.amount).toBeGreaterThan(quote.amount);
      const paid = await createOrder(client, { planId: 'premium_monthly', confirm: requoted.confirm });
      expect(paid.statusCode, paid.body).toBe(200);
      expect(stripe.charges.at(-1)!.amount).toBe(requoted.amount);
    } finally {
      await kit.admin.request('PUT', '/api/admin/plans', DEFAULT_PLAN_CATALOGUE);
    }
  });

  it('limits how many prices one user may ask for in a quarter of an hour', async () => {
    const { client } = await kit.customer('Wren');
    for (let i = 0; i < 30; i++) await kit.quote(client, i % 2 ? 'basic_monthly' : 'premium_monthly');
    const refused = await client.post('/api/subscription/quote', { planId: 'basic_monthly' });
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused)).toMatchObject({ code: 'rate_limited' });
    // Another user is not held up by it.
    const { client: other } = await kit.customer('Xan');
    expect((await other.post('/api/subscription/quote', { planId: 'basic_monthly' })).statusCode).toBe(200);
  });

  it("names the customer's default card when the subscription has none of its own, and a new subscriber's Stripe Checkout", async () => {
    const { client, subscriptionId } = await subscriber('Uma');
    stripe.moveCardToCustomer(subscriptionId);
    const quote = await kit.quote(client, 'basic_yearly');
    expect(quote).toMatchObject({ kind: 'new', chargesNow: true, paidWith: { type: 'card', brand: 'mastercard', last4: '4444' } });
    // Monthly to yearly: a new yearly period from now, less the unused month.
    expect(quote.amount).toBeLessThan(18_000);
    expect(Date.parse(quote.period.end) - Date.parse(quote.period.start)).toBeGreaterThanOrEqual(365 * 86_400_000);

    const { client: newcomer } = await kit.customer('Vic');
    const first: TCheckoutQuote = await kit.quote(newcomer, 'premium_yearly');
    expect(first).toMatchObject({
      kind: 'new',
      amount: 88_800,
      credit: 0,
      currency: 'USD',
      chargesNow: false,
      paidWith: { type: 'page', gateway: 'stripe', label: 'Stripe Checkout' },
      lines: [{ description: 'Premium plan, yearly', amount: 88_800 }],
    });
    const sessions = stripe.sessions.size;
    const checkout = await newcomer.post('/api/subscription/create-order', { planId: 'premium_yearly', confirm: first.confirm });
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect(checkout.json()).toMatchObject({ amount: 88_800, next: { type: 'redirect' } });
    expect(stripe.sessions.size).toBe(sessions + 1);
  });
});
