import type { TReply, TRequest } from '../stand-in-server.ts';

/*
 * What the Stripe stand-in keeps between requests, shared by its resources: the objects it has
 * made, the clock, the keys, and the few switches a test flips.
 */

export type TPrice = {
  id: string;
  object: 'price';
  product: string;
  unit_amount: number;
  currency: string;
  recurring: { interval: 'month' | 'year'; interval_count: 1 };
};
export type TItem = { id: string; object: 'subscription_item'; price: TPrice; quantity: 1; current_period_start: number; current_period_end: number };
export type TSubscription = {
  id: string;
  object: 'subscription';
  customer: string;
  status: 'active' | 'past_due' | 'canceled';
  cancel_at_period_end: boolean;
  metadata: Record<string, string>;
  items: { object: 'list'; data: TItem[] };
  latest_invoice: string | null;
  /** The card Checkout collected; invoices charge it before the customer's default. */
  default_payment_method: string | null;
  created: number;
};
export type TPaymentMethod = {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string;
  card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: 'credit'; country: string };
  created: number;
};
export type TCustomer = {
  id: string;
  object: 'customer';
  email: string | null;
  invoice_settings: { default_payment_method: string | null };
  created: number;
};
export type TLine = { id: string; object: 'line_item'; description: string; amount: number; currency: string; period: { start: number; end: number } };
export type TInvoice = {
  id: string;
  object: 'invoice';
  customer: string;
  currency: string;
  status: 'paid' | 'open' | 'draft';
  amount_due: number;
  amount_paid: number;
  total: number;
  billing_reason: string;
  created: number;
  period_start: number;
  period_end: number;
  lines: { object: 'list'; data: TLine[] };
  parent: { type: 'subscription_details'; subscription_details: { subscription: string; metadata: Record<string, string> } };
  payments: { object: 'list'; data: { object: 'invoice_payment'; payment: { type: 'payment_intent'; payment_intent: string } }[] };
};
export type TSession = {
  id: string;
  object: 'checkout.session';
  mode: 'subscription';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer: string | null;
  customer_email: string | null;
  subscription: string | null;
  invoice: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string;
  created: number;
  line: { price: TPrice; subscriptionMetadata: Record<string, string> };
};

export type TStripeOptions = {
  secretKey?: string;
  webhookSecret?: string;
  port?: number;
  clock?: () => Date;
  /** The card buyers enter on the checkout page. */
  card?: { brand: string; last4: string };
};

export type TStripeState = ReturnType<typeof createStripeState>;

export function createStripeState(opts: TStripeOptions) {
  return {
    // Billing time (periods, invoices) follows the test's clock; signatures use the real one, which
    // the SDK checks against its own tolerance.
    now: () => Math.floor((opts.clock?.() ?? new Date()).getTime() / 1000),
    realNow: () => Math.floor(Date.now() / 1000),
    secretKey: opts.secretKey ?? 'sk_test_standin',
    webhookSecret: opts.webhookSecret ?? 'whsec_standin',
    card: opts.card,
    products: new Map<string, { id: string; object: 'product'; name: string }>(),
    sessions: new Map<string, TSession>(),
    subscriptions: new Map<string, TSubscription>(),
    invoices: new Map<string, TInvoice>(),
    customers: new Map<string, TCustomer>(),
    paymentMethods: new Map<string, TPaymentMethod>(),
    /** Every charge of a card: a checkout paid, a change charged at once, a renewal. */
    charges: [] as { invoice: string; subscription: string; amount: number; currency: string; reason: string }[],
    /** The next charge on a saved card fails (a plan change, or a renewal). */
    declineNext: false,
    webhookUrl: undefined as string | undefined,
    delivered: [] as { type: string; status: number }[],
    origin: '',
  };
}

export const stripeError = (status: number, type: string, message: string, code?: string): TReply => ({
  status,
  json: { error: { type, message, ...(code ? { code } : {}) } },
});
export const authed = (state: TStripeState, request: TRequest) => request.headers.authorization === `Bearer ${state.secretKey}`;
export const unauthorized = () => stripeError(401, 'invalid_request_error', 'Invalid API Key provided');
export const noSuch = (what: string, id: string) => stripeError(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing');

/** The same day a month or a year on, as Stripe bills (a short month takes its last day). */
export function addInterval(start: number, interval: 'month' | 'year'): number {
  const date = new Date(start * 1000);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + (interval === 'year' ? 12 : 1));
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return Math.floor(date.getTime() / 1000);
}

export const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);
