import Stripe from 'stripe';
import { AppError } from '../../../http/app-error.ts';
import { GatewayRefusal, gatewayUnavailable } from './gateway-http.ts';

/*
 * Stripe through its official SDK, which takes another API host (host, port, protocol), so staging
 * and tests can point it at a stand-in. Subscriptions are made with Checkout (mode subscription,
 * the price given inline, so no product has to be set up in Stripe first); plan changes update the
 * subscription; renewals, failures, cancellations and refunds arrive as signed webhooks.
 */

export type TStripeConfig = { secretKey: string; webhookSecret: string | undefined; apiBaseUrl: string };

export type TStripePrice = {
  planId: string;
  cycle: 'monthly' | 'yearly';
  /** Minor units per period. */
  amountMinor: number;
  currency: string;
  productName: string;
};

/** One Stripe product per plan, with a fixed id, so prices given inline all point at it. */
const productIdOf = (planId: string) => `formwork_${planId}`;

const priceData = (price: TStripePrice) => ({
  currency: price.currency.toLowerCase(),
  unit_amount: price.amountMinor,
  recurring: { interval: price.cycle === 'yearly' ? ('year' as const) : ('month' as const) },
  product: productIdOf(price.planId),
});

/** The SDK's errors in our terms: a declined card is the user's to fix, the rest is not. */
function translate(error: unknown): never {
  if (error instanceof Stripe.errors.StripeCardError) {
    throw new AppError('payment_failed', `Your card was declined: ${error.message} Your plan has not changed.`);
  }
  if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError) {
    throw gatewayUnavailable('stripe');
  }
  if (error instanceof Stripe.errors.StripeError) throw new GatewayRefusal('stripe', error.statusCode ?? 400, error.raw);
  throw error;
}

async function stripeCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    return translate(error);
  }
}

/** The subscription's one item: where its price and, in this API version, its period live. */
export function subscriptionItem(subscription: Stripe.Subscription): Stripe.SubscriptionItem {
  const item = subscription.items.data[0];
  if (!item) throw new GatewayRefusal('stripe', 200, { message: `subscription ${subscription.id} has no items` });
  return item;
}

/** The period a subscription is in (kept on its item in this API version). */
export function subscriptionPeriod(subscription: Stripe.Subscription): { start: Date; end: Date } {
  const item = subscriptionItem(subscription);
  return { start: new Date(item.current_period_start * 1000), end: new Date(item.current_period_end * 1000) };
}

/** The subscription an invoice bills, whichever way the API version nests it. */
export function invoiceSubscriptionId(invoice: Stripe.Invoice): string | undefined {
  const ref = invoice.parent?.subscription_details?.subscription;
  return typeof ref === 'string' ? ref : ref?.id;
}

/** The period a subscription invoice pays for: its subscription line's period. */
export function invoicePeriod(invoice: Stripe.Invoice): { start: Date; end: Date } {
  const line = invoice.lines.data.find((l) => l.period) ?? invoice.lines.data[0];
  const start = line?.period?.start ?? invoice.period_start;
  const end = line?.period?.end ?? invoice.period_end;
  return { start: new Date(start * 1000), end: new Date(end * 1000) };
}

/** The PaymentIntent an invoice was paid with; refunds name it. */
export function invoicePaymentIntent(invoice: Stripe.Invoice): string | null {
  for (const entry of invoice.payments?.data ?? []) {
    const intent = entry.payment?.payment_intent;
    if (intent) return typeof intent === 'string' ? intent : intent.id;
  }
  return null;
}

export function createStripeGateway(config: TStripeConfig) {
  const base = new URL(config.apiBaseUrl);
  const stripe = new Stripe(config.secretKey, {
    host: base.hostname,
    port: base.port || (base.protocol === 'https:' ? 443 : 80),
    protocol: base.protocol.replace(':', '') as 'http' | 'https',
    // A payment request is never repeated behind the caller's back.
    maxNetworkRetries: 0,
    timeout: 20_000,
  });

  const knownProducts = new Set<string>();
  /** Creates the plan's product the first time it is needed (ids are ours, so this is idempotent). */
  async function ensureProduct(price: TStripePrice): Promise<void> {
    const id = productIdOf(price.planId);
    if (knownProducts.has(id)) return;
    try {
      await stripe.products.retrieve(id);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.code !== 'resource_missing') throw error;
      await stripe.products.create({ id, name: price.productName });
    }
    knownProducts.add(id);
  }

  return {
    createCheckoutSession(input: {
      orderId: string;
      ownerId: string;
      email: string;
      customerId?: string | null;
      price: TStripePrice;
      successUrl: string;
      cancelUrl: string;
    }) {
      const metadata = { ownerId: input.ownerId, orderId: input.orderId, planId: input.price.planId, cycle: input.price.cycle };
      return stripeCall(async () => {
        await ensureProduct(input.price);
        return stripe.checkout.sessions.create({
          mode: 'subscription',
          client_reference_id: input.orderId,
          ...(input.customerId ? { customer: input.customerId } : { customer_email: input.email }),
          line_items: [{ price_data: priceData(input.price), quantity: 1 }],
          subscription_data: { metadata },
          metadata,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        });
      });
    },

    retrieveSession(id: string) {
      return stripeCall(() => stripe.checkout.sessions.retrieve(id, { expand: ['invoice', 'invoice.payments'] }));
    },

    retrieveSubscription(id: string) {
      return stripeCall(() => stripe.subscriptions.retrieve(id));
    },

    retrieveInvoice(id: string) {
      return stripeCall(() => stripe.invoices.retrieve(id, { expand: ['payments'] }));
    },

    /**
     * The invoice a change charged now would produce, computed by Stripe without changing
     * anything. `prorationDate` fixes the instant the unused time is counted from; the change
     * itself passes the same one, so it charges exactly what was previewed.
     */
    previewChange(subscriptionId: string, price: TStripePrice, when: { newPeriod: boolean; prorationDate: number }) {
      return stripeCall(async () => {
        await ensureProduct(price);
        const current = await stripe.subscriptions.retrieve(subscriptionId);
        return stripe.invoices.createPreview({
          subscription: subscriptionId,
          subscription_details: {
            items: [{ id: subscriptionItem(current).id, price_data: priceData(price) }],
            proration_behavior: 'always_invoice',
            proration_date: when.prorationDate,
            ...(when.newPeriod ? { billing_cycle_anchor: { type: 'now' as const } } : {}),
          },
        });
      });
    },

    /**
     * The card Stripe charges for this subscription: the subscription's default payment method,
     * else its customer's invoice default. Null when neither names a card.
     */
    savedCard(subscriptionId: string): Promise<{ brand: string; last4: string } | null> {
      const cardOf = (method: string | Stripe.PaymentMethod | null | undefined) =>
        method && typeof method === 'object' && method.card ? { brand: method.card.brand, last4: method.card.last4 } : null;
      return stripeCall(async () => {
        const subscription = await stripe.subscriptions.retrieve(subscriptionId, { expand: ['default_payment_method'] });
        const own = cardOf(subscription.default_payment_method);
        if (own) return own;
        const customerId = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
        const customer = await stripe.customers.retrieve(customerId, { expand: ['invoice_settings.default_payment_method'] });
        return customer.deleted ? null : cardOf(customer.invoice_settings.default_payment_method);
      });
    },

    /**
     * Moves the subscription to another price. `now`: charged at once for the rest of the period
     * (or, with a new anchor, for a new period less the unused time) counted from `prorationDate`,
     * refused if the card fails; `at-renewal`: nothing charged now, the next invoice is at the new price.
     */
    changePrice(subscriptionId: string, price: TStripePrice, when: { charge: 'now' | 'at-renewal'; newPeriod?: boolean; prorationDate?: number }) {
      return stripeCall(async () => {
        await ensureProduct(price);
        const current = await stripe.subscriptions.retrieve(subscriptionId);
        return stripe.subscriptions.update(subscriptionId, {
          items: [{ id: subscriptionItem(current).id, price_data: priceData(price) }],
          metadata: { planId: price.planId, cycle: price.cycle },
          proration_behavior: when.charge === 'now' ? 'always_invoice' : 'none',
          ...(when.newPeriod ? { billing_cycle_anchor: { type: 'now' } } : {}),
          ...(when.charge === 'now' ? { payment_behavior: 'error_if_incomplete' as const } : {}),
          ...(when.charge === 'now' && when.prorationDate ? { proration_date: when.prorationDate } : {}),
          expand: ['latest_invoice', 'latest_invoice.payments'],
        });
      });
    },

    setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean) {
      return stripeCall(() => stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel }));
    },

    cancelNow(subscriptionId: string) {
      return stripeCall(() => stripe.subscriptions.cancel(subscriptionId));
    },

    /** Checks Stripe-Signature (HMAC-SHA256 of `t.body` under the endpoint secret) and parses the event. */
    constructEvent(rawBody: Buffer, signature: string | undefined): Stripe.Event | undefined {
      if (!config.webhookSecret || !signature) return undefined;
      try {
        return stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret);
      } catch {
        return undefined;
      }
    },
  };
}
export type TStripeGateway = ReturnType<typeof createStripeGateway>;
