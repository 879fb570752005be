import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TBillingOverview, TCheckout, TCheckoutQuote, TInvoiceSummary } from '../../../../contract/billing.ts';
import { pino } from 'pino';
import { createServices } from '../../../services.ts';
import type { TRazorpayStandIn } from '../../../test/gateway-stand-ins/razorpay-stand-in.ts';
import type { TStripeOptions } from '../../../test/gateway-stand-ins/stripe/state.ts';
import { startStripeStandIn, type TStripeStandIn } from '../../../test/gateway-stand-ins/stripe-stand-in.ts';
import { createTestApp, TestClient, type TTestApp, signUpVerified } from '../../../test/test-app.ts';

/*
 * What every billing test needs: the app with a clock the test moves, an admin who turns a gateway
 * on (pointed at its stand-in), customers, and a way to post a gateway's signed webhook.
 */

export const ADMIN_EMAIL = 'billing-admin@example.com';
const DAY_MS = 86_400_000;

export type TBillingKit = Awaited<ReturnType<typeof createBillingKit>>;

/** `mail`: the SMTP stand-in the installation's mail server sends to, when a test sets one up (new accounts then verify their address). */
export async function createBillingKit(options: { mailTrustedCa?: string[]; mail?: { messages: { to: string[] }[] } } = {}) {
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);
  const background = { billingClock: clock, ...(options.mailTrustedCa ? { mailTrustedCa: options.mailTrustedCa } : {}) };
  const t: TTestApp = await createTestApp({ ADMIN_EMAILS: ADMIN_EMAIL }, background);
  // A second set of services on the same database, as another app process would have: the sweep
  // the app runs every minute is called from here at once.
  const other = createServices({ config: t.config, database: t.database, log: pino({ level: 'silent' }), ...background });
  const admin = new TestClient(t.app);
  await signUpVerified(t, admin, { email: ADMIN_EMAIL, firstName: 'Avery', lastName: 'Admin' });

  return {
    t,
    admin,
    clock,
    /** Moves the billing clock on; `sweep` then runs what the minute timer would. */
    advanceDays(days: number) {
      offsetMs += days * DAY_MS;
    },
    sweep: () => other.billing.sweep(),
    async activateGateway(input: {
      gatewayName: 'razorpay' | 'stripe' | 'paypal';
      keyId: string;
      keySecret: string;
      webhookSecret?: string;
      configuration: Record<string, string>;
    }) {
      const response = await admin.post('/api/admin/payment-gateways', { ...input, isActive: true });
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as { id: string };
    },
    /** Razorpay on, pointed at its stand-in: the gateway most tests pay through. */
    async activateRazorpay(standIn: TRazorpayStandIn) {
      return this.activateGateway({
        gatewayName: 'razorpay',
        keyId: standIn.keyId,
        keySecret: standIn.keySecret,
        webhookSecret: standIn.webhookSecret,
        configuration: { apiBaseUrl: standIn.url, checkoutScriptUrl: standIn.checkoutScriptUrl },
      });
    },
    async customer(name = 'Casey') {
      const client = new TestClient(t.app);
      const { user } = await signUpVerified(
        t,
        client,
        { firstName: name, lastName: 'Customer', email: `${name.toLowerCase()}-${randomBytes(3).toString('hex')}@example.com` },
        options.mail,
      );
      return { client, id: user.id, email: user.email };
    },
    /** What a plan would cost, with the token that confirms paying it. */
    async quote(client: TestClient, planId: string): Promise<TCheckoutQuote> {
      const response = await client.post('/api/subscription/quote', { planId });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as TCheckoutQuote;
    },
    /** The user reviews the price and confirms it: a quote, then create-order with its token. */
    async checkout(client: TestClient, planId: string): Promise<TCheckout> {
      const { confirm } = await this.quote(client, planId);
      const response = await client.post('/api/subscription/create-order', { planId, confirm });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as TCheckout;
    },
    async overview(client: TestClient): Promise<TBillingOverview> {
      const response = await client.get('/api/subscription');
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as TBillingOverview;
    },
    async invoices(client: TestClient): Promise<TInvoiceSummary[]> {
      const response = await client.get('/api/subscription/invoices');
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as TInvoiceSummary[];
    },
    async plan(client: TestClient): Promise<string> {
      return ((await client.get('/api/auth/user')).json() as { subscriptionPlan: string }).subscriptionPlan;
    },
    /** Posts a webhook exactly as the gateway would: raw body, its own headers, no cookies, no Origin. */
    webhook(gateway: 'razorpay' | 'stripe' | 'paypal', hook: { body: string; headers: Record<string, string> }) {
      return t.app.inject({ method: 'POST', url: `/api/billing/webhooks/${gateway}`, headers: hook.headers, payload: hook.body });
    },
    async close() {
      await other.background.stop();
      await t.close();
    },
  };
}

/**
 * The kit with Stripe on, pointed at a stand-in that bills on the kit's clock (`options`: the card
 * buyers enter, and the like); the kit's close() stops the stand-in too.
 */
export async function createStripeKit(options: Omit<TStripeOptions, 'clock'> = {}): Promise<{ kit: TBillingKit; stripe: TStripeStandIn }> {
  const kit = await createBillingKit();
  const stripe = await startStripeStandIn({ ...options, clock: kit.clock });
  await kit.activateGateway({
    gatewayName: 'stripe',
    keyId: 'pk_test_standin',
    keySecret: stripe.secretKey,
    webhookSecret: stripe.webhookSecret,
    configuration: { apiBaseUrl: stripe.url },
  });
  const closeKit = kit.close;
  kit.close = async () => {
    await closeKit();
    await stripe.close();
  };
  return { kit, stripe };
}

/** Subscribes through Stripe Checkout: the session, paid on the stand-in's page, then the return. */
export async function subscribeThroughStripe(kit: TBillingKit, stripe: TStripeStandIn, client: TestClient, planId: string) {
  const checkout = await kit.checkout(client, planId);
  const returnUrl = new URL(stripe.complete(checkout.orderId));
  const sessionId = returnUrl.searchParams.get('session_id')!;
  const verified = await client.post('/api/subscription/verify-payment', { session_id: sessionId });
  expect(verified.statusCode, verified.body).toBe(200);
  const session = stripe.sessions.get(sessionId)!;
  return { checkout, sessionId, subscriptionId: session.subscription!, invoiceId: session.invoice!, returnUrl };
}

export { errorOf } from '../../../test/test-app.ts';
