import { startStandIn } from './stand-in-server.ts';
import { checkoutSessionRoutes, completeSession } from './stripe/checkout-sessions.ts';
import { customerRoutes, moveCardToCustomer } from './stripe/customers.ts';
import { invoiceRoutes, refundInvoice } from './stripe/invoices.ts';
import { productRoutes } from './stripe/products.ts';
import { createStripeState, type TStripeOptions } from './stripe/state.ts';
import { renewSubscription, subscriptionRoutes } from './stripe/subscriptions.ts';
import { stripeEvent } from './stripe/webhooks.ts';

/*
 * Stripe on loopback, for the official SDK pointed at it: products, Checkout Sessions in
 * subscription mode with inline prices, a hosted checkout page that pays or fails on a click (and
 * saves the card as the subscription's default payment method), customers and payment methods,
 * subscriptions (retrieve, update with prorations or a new billing anchor from a proration date,
 * cancel), invoices and invoice previews of such an update, and
 * webhooks signed as Stripe signs them: Stripe-Signature t=<unix>,v1=HMAC-SHA256("t.payload").
 * Objects carry the fields of the API version the SDK pins (periods on subscription items,
 * an invoice's subscription under parent.subscription_details, its PaymentIntent under payments).
 * Each resource lives in its own file under stripe/; this file routes to them and is what tests drive.
 */

export type TStripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;

export async function startStripeStandIn(opts: TStripeOptions = {}) {
  const state = createStripeState(opts);
  const server = await startStandIn(
    [...productRoutes(state), ...checkoutSessionRoutes(state), ...subscriptionRoutes(state), ...invoiceRoutes(state), ...customerRoutes(state)],
    opts.port,
  );
  state.origin = server.url;

  return {
    url: server.url,
    secretKey: state.secretKey,
    webhookSecret: state.webhookSecret,
    sessions: state.sessions,
    subscriptions: state.subscriptions,
    invoices: state.invoices,
    customers: state.customers,
    paymentMethods: state.paymentMethods,
    charges: state.charges,
    delivered: state.delivered,
    setWebhookUrl: (url: string | undefined) => (state.webhookUrl = url),
    declineNextCharge: () => (state.declineNext = true),
    event: (type: string, object: unknown, created?: number) => stripeEvent(state, type, object, created),
    /** The buyer pays on the checkout page; the address the browser is sent back to. */
    complete: (sessionId: string) => completeSession(state, state.sessions.get(sessionId)!),
    /** The period ends and Stripe charges the saved card: the next period's paid invoice, or a failure. */
    renew: (subscriptionId: string, outcome: 'paid' | 'failed' = 'paid') => renewSubscription(state, subscriptionId, outcome),
    /**
     * Moves a subscription's card to its customer's invoice default (as when the buyer saves a
     * card in the customer portal): the subscription names none of its own.
     */
    moveCardToCustomer: (subscriptionId: string) => moveCardToCustomer(state, subscriptionId),
    /** Refunds part of an invoice's payment: the charge.refunded event, with the refunded total. */
    refund: (invoiceId: string, amountRefunded: number) => refundInvoice(state, invoiceId, amountRefunded),
    close: server.close,
  };
}
