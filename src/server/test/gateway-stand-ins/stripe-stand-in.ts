import { createHmac } from 'node:crypto';
import { checkoutPage, deliverWebhook, parseNestedForm, standInId, startStandIn, type TReply, type TRequest } from './stand-in-server.ts';

/*
 * Stripe on loopback, for the official SDK pointed at it: products, Checkout Sessions in
 * subscription mode with inline prices, a hosted checkout page that pays or fails on a click (and
 * saves the card as the subscription's default payment method), customers and payment methods,
 * subscriptions (retrieve, update with prorations or a new billing anchor from a proration date,
 * cancel), invoices and invoice previews of such an update, and
 * webhooks signed as Stripe signs them: Stripe-Signature t=<unix>,v1=HMAC-SHA256("t.payload").
 * Objects carry the fields of the API version the SDK pins (periods on subscription items,
 * an invoice's subscription under parent.subscription_details, its PaymentIntent under payments).
 */

export type TStripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;

type TPrice = { id: string; object: 'price'; product: string; unit_amount: number; currency: string; recurring: { interval: 'month' | 'year'; interval_count: 1 } };
type TItem = { id: string; object: 'subscription_item'; price: TPrice; quantity: 1; current_period_start: number; current_period_end: number };
type TSubscription = {
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
type TPaymentMethod = {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string;
  card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: 'credit'; country: string };
  created: number;
};
type TCustomer = {
  id: string;
  object: 'customer';
  email: string | null;
  invoice_settings: { default_payment_method: string | null };
  created: number;
};
type TLine = { id: string; object: 'line_item'; description: string; amount: number; currency: string; period: { start: number; end: number } };
type TInvoice = {
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
type TSession = {
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

/** The same day a month or a year on, as Stripe bills (a short month takes its last day). */
function addInterval(start: number, interval: 'month' | 'year'): number {
  const date = new Date(start * 1000);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + (interval === 'year' ? 12 : 1));
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return Math.floor(date.getTime() / 1000);
}

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);

export async function startStripeStandIn(
  opts: {
    secretKey?: string;
    webhookSecret?: string;
    port?: number;
    clock?: () => Date;
    /** The card buyers enter on the checkout page. */
    card?: { brand: string; last4: string };
  } = {},
) {
  // Billing time (periods, invoices) follows the test's clock; signatures use the real one, which
  // the SDK checks against its own tolerance.
  const now = () => Math.floor((opts.clock?.() ?? new Date()).getTime() / 1000);
  const realNow = () => Math.floor(Date.now() / 1000);
  const secretKey = opts.secretKey ?? 'sk_test_standin';
  const webhookSecret = opts.webhookSecret ?? 'whsec_standin';
  const products = new Map<string, { id: string; object: 'product'; name: string }>();
  const sessions = new Map<string, TSession>();
  const subscriptions = new Map<string, TSubscription>();
  const invoices = new Map<string, TInvoice>();
  const customers = new Map<string, TCustomer>();
  const paymentMethods = new Map<string, TPaymentMethod>();
  /** Every charge of a card: a checkout paid, a change charged at once, a renewal. */
  const charges: { invoice: string; subscription: string; amount: number; currency: string; reason: string }[] = [];
  /** The next charge on a saved card fails (a plan change, or a renewal). */
  let declineNext = false;
  let webhookUrl: string | undefined;
  const delivered: { type: string; status: number }[] = [];
  let origin = '';

  const error = (status: number, type: string, message: string, code?: string): TReply => ({ status, json: { error: { type, message, ...(code ? { code } : {}) } } });
  const authed = (request: TRequest) => request.headers.authorization === `Bearer ${secretKey}`;
  const noSuch = (what: string, id: string) => error(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing');

  function event(type: string, object: unknown, created = now()) {
    const payload = JSON.stringify({ id: standInId('evt_'), object: 'event', api_version: '2026-10-28.endive', created, type, data: { object }, livemode: false });
    const t = realNow();
    const signature = createHmac('sha256', webhookSecret).update(`${t}.${payload}`).digest('hex');
    return { body: payload, headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${signature}` } };
  }

  const deliver = (hook: ReturnType<typeof event>, type: string) => deliverWebhook(webhookUrl, hook, type, delivered);

  function invoiceFor(sub: TSubscription, lines: Omit<TLine, 'id' | 'object' | 'currency'>[], reason: string, paid: boolean): TInvoice {
    const currency = sub.items.data[0]!.price.currency;
    const total = lines.reduce((sum, l) => sum + l.amount, 0);
    const invoice: TInvoice = {
      id: standInId('in_'),
      object: 'invoice',
      customer: sub.customer,
      currency,
      status: paid ? 'paid' : 'open',
      amount_due: total,
      amount_paid: paid ? total : 0,
      total,
      billing_reason: reason,
      created: now(),
      period_start: lines[0]!.period.start,
      period_end: lines[0]!.period.end,
      lines: { object: 'list', data: lines.map((l) => ({ ...l, id: standInId('il_'), object: 'line_item', currency })) },
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } } },
      payments: { object: 'list', data: paid ? [{ object: 'invoice_payment', payment: { type: 'payment_intent', payment_intent: standInId('pi_') } }] : [] },
    };
    invoices.set(invoice.id, invoice);
    sub.latest_invoice = invoice.id;
    if (paid) charges.push({ invoice: invoice.id, subscription: sub.id, amount: total, currency, reason });
    return invoice;
  }

  /**
   * What changing an item's price bills at once with proration_behavior=always_invoice: the unused
   * time of the old price as a credit and the new price's remaining time (or, with a new anchor,
   * a whole new period), both counted from `prorationAt`. The same for a preview and the change.
   */
  function prorationLines(item: TItem, price: TPrice, how: { anchorNow: boolean; prorationAt: number; at: number }) {
    const old = item.price;
    const share = Math.max(0, (item.current_period_end - how.prorationAt) / (item.current_period_end - item.current_period_start));
    const unused = -Math.round(old.unit_amount * share);
    const credit = { description: `Unused time on ${lineText(old).slice(4)}`, amount: unused, period: { start: how.prorationAt, end: item.current_period_end } };
    if (how.anchorNow) {
      const period = { start: how.at, end: addInterval(how.at, price.recurring.interval) };
      return { lines: [credit, { description: lineText(price), amount: price.unit_amount, period }], period };
    }
    const remaining = {
      description: `Remaining time on ${lineText(price).slice(4)}`,
      amount: Math.round(price.unit_amount * share),
      period: { start: how.prorationAt, end: item.current_period_end },
    };
    return { lines: [credit, remaining], period: undefined };
  }

  /** Stripe refuses a proration date outside the current period. */
  function prorationDateOf(item: TItem, raw: unknown): number | TReply {
    if (raw === undefined) return now();
    const date = Number(raw);
    if (!Number.isInteger(date) || date < item.current_period_start || date > item.current_period_end) {
      return error(400, 'invalid_request_error', 'The proration_date must be within the current subscription period.', 'parameter_invalid_integer');
    }
    return date;
  }

  /** A buyer's card, saved on their customer as Checkout saves it. */
  function savedCard(customer: string): TPaymentMethod {
    const card = opts.card ?? { brand: 'visa', last4: '4242' };
    const method: TPaymentMethod = {
      id: standInId('pm_'),
      object: 'payment_method',
      type: 'card',
      customer,
      card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, funding: 'credit', country: 'US' },
      created: now(),
    };
    paymentMethods.set(method.id, method);
    return method;
  }

  const lineText = (price: TPrice) =>
    `1 × ${products.get(price.product)?.name ?? price.product} (at ${money(price.unit_amount, price.currency)} / ${price.recurring.interval})`;

  function priceFrom(data: Record<string, unknown>): TPrice {
    const recurring = data.recurring as { interval: 'month' | 'year' };
    return {
      id: standInId('price_'),
      object: 'price',
      product: String(data.product),
      unit_amount: Number(data.unit_amount),
      currency: String(data.currency),
      recurring: { interval: recurring.interval, interval_count: 1 },
    };
  }

  /** Expands the ids the request names: `invoice`, `latest_invoice`, and their `payments` (always included here). */
  function expand<T extends Record<string, unknown>>(object: T, request: TRequest): T {
    const query = parseNestedForm(request.query.toString());
    const wanted = Object.values((query.expand ?? request.body.expand ?? {}) as Record<string, string>);
    const copy: Record<string, unknown> = { ...object };
    for (const field of ['invoice', 'latest_invoice']) {
      if (wanted.includes(field) && typeof copy[field] === 'string') copy[field] = invoices.get(copy[field] as string) ?? copy[field];
    }
    if (wanted.includes('default_payment_method') && typeof copy.default_payment_method === 'string') {
      copy.default_payment_method = paymentMethods.get(copy.default_payment_method) ?? copy.default_payment_method;
    }
    const settings = copy.invoice_settings as { default_payment_method: string | null } | undefined;
    if (wanted.includes('invoice_settings.default_payment_method') && typeof settings?.default_payment_method === 'string') {
      copy.invoice_settings = { ...settings, default_payment_method: paymentMethods.get(settings.default_payment_method) ?? settings.default_payment_method };
    }
    return copy as T;
  }

  function sessionView(session: TSession) {
    const { line: _line, ...view } = session;
    return view;
  }

  /** A buyer completes Checkout: customer, subscription, first invoice paid, events sent. */
  function completeSession(session: TSession) {
    const start = now();
    const customer = session.customer ?? standInId('cus_');
    if (!customers.has(customer)) {
      customers.set(customer, { id: customer, object: 'customer', email: session.customer_email, invoice_settings: { default_payment_method: null }, created: start });
    }
    const card = savedCard(customer);
    const sub: TSubscription = {
      id: standInId('sub_'),
      object: 'subscription',
      customer,
      status: 'active',
      cancel_at_period_end: false,
      metadata: session.line.subscriptionMetadata,
      items: {
        object: 'list',
        data: [
          {
            id: standInId('si_'),
            object: 'subscription_item',
            price: session.line.price,
            quantity: 1,
            current_period_start: start,
            current_period_end: addInterval(start, session.line.price.recurring.interval),
          },
        ],
      },
      latest_invoice: null,
      default_payment_method: card.id,
      created: start,
    };
    subscriptions.set(sub.id, sub);
    const item = sub.items.data[0]!;
    const invoice = invoiceFor(
      sub,
      [{ description: lineText(item.price), amount: item.price.unit_amount, period: { start, end: item.current_period_end } }],
      'subscription_create',
      true,
    );
    Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription: sub.id, invoice: invoice.id });
    void deliver(event('checkout.session.completed', sessionView(session)), 'checkout.session.completed');
    void deliver(event('invoice.paid', invoice), 'invoice.paid');
    return session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id);
  }

  function updateSubscription(sub: TSubscription, body: Record<string, unknown>): TReply | undefined {
    if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
    if (body.metadata) Object.assign(sub.metadata, body.metadata as Record<string, string>);
    const items = body.items as { id: string; price_data: Record<string, unknown> }[] | undefined;
    if (!items?.[0]) return undefined;
    const item = sub.items.data.find((i) => i.id === items[0]!.id);
    if (!item) return error(400, 'invalid_request_error', `No such subscription item: '${items[0]!.id}'`);
    const price = priceFrom(items[0]!.price_data);
    const proration = String(body.proration_behavior ?? 'create_prorations');
    const anchorNow = (body.billing_cycle_anchor as { type?: string } | undefined)?.type === 'now';
    if (proration !== 'always_invoice') {
      item.price = price;
      return undefined;
    }
    const prorationAt = prorationDateOf(item, body.proration_date);
    if (typeof prorationAt !== 'number') return prorationAt;
    if (declineNext) {
      declineNext = false;
      return error(402, 'card_error', 'Your card was declined.', 'card_declined');
    }
    const { lines, period } = prorationLines(item, price, { anchorNow, prorationAt, at: now() });
    if (period) {
      item.current_period_start = period.start;
      item.current_period_end = period.end;
    }
    item.price = price;
    const invoice = invoiceFor(sub, lines, 'subscription_update', true);
    void deliver(event('invoice.paid', invoice), 'invoice.paid');
    return undefined;
  }

  const server = await startStandIn(
    [
      {
        method: 'GET',
        pattern: /^\/v1\/products\/([^/]+)$/,
        handle: (request) => {
          if (!authed(request)) return error(401, 'invalid_request_error', 'Invalid API Key provided');
          const product = products.get(request.params[0]!);
          return product ? { json: product } : noSuch('product', request.params[0]!);
        },
      },
      {
        method: 'POST',
        pattern: /^\/v1\/products$/,
        handle: (request) => {
          if (!authed(request)) return error(401, 'invalid_request_error', 'Invalid API Key provided');
          const id = String(request.body.id ?? standInId('prod_'));
          if (products.has(id)) return error(400, 'invalid_request_error', `Product already exists.`, 'resource_already_exists');
          const product = { id, object: 'product' as const, name: String(request.body.name) };
          products.set(id, product);
          return { json: product };
        },
      },
      {
        method: 'POST',
        pattern: /^\/v1\/checkout\/sessions$/,
        handle: (request) => {
          if (!authed(request)) return error(401, 'invalid_request_error', 'Invalid API Key provided');
          const body = request.body as Record<string, unknown>;
          const lineItems = body.line_items as { price_data: Record<string, unknown>; quantity: string }[];
          const price = priceFrom(lineItems[0]!.price_data);
          if (!products.has(price.product)) return noSuch('product', price.product);
          const id = standInId('cs_test_', 16);
          const session: TSession = {
            id,
            object: 'checkout.session',
            mode: 'subscription',
            status: 'open',
            payment_status: 'unpaid',
            amount_total: price.unit_amount,
            currency: price.currency,
            client_reference_id: (body.client_reference_id as string) ?? null,
            customer: (body.customer as string) ?? null,
            customer_email: (body.customer_email as string) ?? null,
            subscription: null,
            invoice: null,
            metadata: (body.metadata as Record<string, string>) ?? {},
            success_url: String(body.success_url),
            cancel_url: String(body.cancel_url),
            url: `${origin}/c/pay/${id}`,
            created: now(),
            line: { price, subscriptionMetadata: ((body.subscription_data as { metadata?: Record<string, string> })?.metadata) ?? {} },
          };
          sessions.set(id, session);
          return { json: sessionView(session) };
        },
      },
      {
        method: 'GET',
        pattern: /^\/v1\/checkout\/sessions\/([^/]+)$/,
        handle: (request) => {
          if (!authed(request)) return error(401, 'invalid_request_error', 'Invalid API Key provided');
          const session = sessions.get(request.params[0]!);
          return session ? { json: expand(sessionView(session), request) } : noSuch('checkout.session', request.params[0]!);
        },
      },
      {
        method: 'GET',
        pattern: /^\/v1\/subscriptions\/([^/]+)$/,
        handle: (request) => {
          if (!authed(request)) return error(401, 'invalid_request_error', 'Invalid API Key provided');
          const sub = subscriptions.get(request.params[0]!);
          return sub ? { json: expand(sub, request) } : noSuch('subscription', request.params[0]!);
        },
      },
      {
        method: 'POST',
        pattern: /^\/v1\/subscriptions\/([^/]+)$/,
        handle: (request) => {
          if (!authed(request)) return error(401, 'invalid_request_error', 'Invalid API Key provided');
          const sub = subscriptions.get(request.params[0]!);
          if (!sub) return noSuch('subscription', request.params[0]!);
          const failure = updateSubscription(sub, request.body);
          return failure ?? { json: expand(sub, request) };
        },
      },
      {
        method: 'DELETE',
        pattern: /^\/v1\/subscriptions\/([^/]+)$/,
        handle: (request) => {
          if (!authed(request)) return error(401, 'invalid_request_error', 'Invalid API Key provided');
          const sub = subscriptions.get(request.params[0]!);
          if (!sub) return noSuch('subscription', request.params[0]!);
          sub.status = 'canceled';
          void deliver(event('customer.subscription.deleted', sub), 'customer.subscription.deleted');
          return { json: sub };
        },
      },
      {
        method: 'POST',
        pattern: /^\/v1\/invoices\/create_preview$/,
        handle: (request) => {
          if (!authed(request)) return error(401, 'invalid_request_error', 'Invalid API Key provided');
          const sub = subscriptions.get(String(request.body.subscription ?? ''));
          if (!sub) return noSuch('subscription', String(request.body.subscription ?? ''));
          const details = (request.body.subscription_details ?? {}) as Record<string, unknown>;
          const items = details.items as { id: string; price_data: Record<string, unknown> }[] | undefined;
          const item = sub.items.data.find((i) => i.id === items?.[0]?.id);
          if (!items?.[0] || !item) return error(400, 'invalid_request_error', 'subscription_details[items] must name an item of the subscription.');
          if (details.proration_behavior !== 'always_invoice') {
            return error(400, 'invalid_request_error', 'This stand-in previews only changes invoiced at once (proration_behavior=always_invoice).');
          }
          const price = priceFrom(items[0].price_data);
          if (!products.has(price.product)) return noSuch('product', price.product);
          const prorationAt = prorationDateOf(item, details.proration_date);
          if (typeof prorationAt !== 'number') return prorationAt;
          const anchorNow = (details.billing_cycle_anchor as { type?: string } | undefined)?.type === 'now';
          const { lines } = prorationLines(item, price, { anchorNow, prorationAt, at: now() });
          const total = lines.reduce((sum, l) => sum + l.amount, 0);
          const preview: TInvoice = {
            id: standInId('upcoming_in_'),
            object: 'invoice',
            customer: sub.customer,
            currency: price.currency,
            status: 'draft',
            amount_due: Math.max(0, total),
            amount_paid: 0,
            total,
            billing_reason: 'subscription_update',
            created: now(),
            period_start: lines[0]!.period.start,
            period_end: lines[0]!.period.end,
            lines: { object: 'list', data: lines.map((l) => ({ ...l, id: standInId('il_tmp_'), object: 'line_item', currency: price.currency })) },
            parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } } },
            payments: { object: 'list', data: [] },
          };
          // A preview is computed, never kept: nothing is charged and nothing changes.
          return { json: preview };
        },
      },
      {
        method: 'GET',
        pattern: /^\/v1\/customers\/([^/]+)$/,
        handle: (request) => {
          if (!authed(request)) return error(401, 'invalid_request_error', 'Invalid API Key provided');
          const customer = customers.get(request.params[0]!);
          return customer ? { json: expand(customer, request) } : noSuch('customer', request.params[0]!);
        },
      },
      {
        method: 'GET',
        pattern: /^\/v1\/payment_methods\/([^/]+)$/,
        handle: (request) => {
          if (!authed(request)) return error(401, 'invalid_request_error', 'Invalid API Key provided');
          const method = paymentMethods.get(request.params[0]!);
          return method ? { json: method } : noSuch('payment_method', request.params[0]!);
        },
      },
      {
        method: 'GET',
        pattern: /^\/v1\/invoices\/([^/]+)$/,
        handle: (request) => {
          if (!authed(request)) return error(401, 'invalid_request_error', 'Invalid API Key provided');
          const invoice = invoices.get(request.params[0]!);
          return invoice ? { json: invoice } : noSuch('invoice', request.params[0]!);
        },
      },
      {
        method: 'GET',
        pattern: /^\/c\/pay\/([^/]+)$/,
        handle: (request) => {
          const session = sessions.get(request.params[0]!);
          if (!session || session.status !== 'open') return { status: 404, html: '<p>This checkout session is no longer available.</p>' };
          const price = session.line.price;
          return {
            html: checkoutPage({
              title: 'Stripe Checkout (stand-in)',
              amount: money(price.unit_amount, price.currency),
              description: `${products.get(price.product)?.name ?? price.product}, billed every ${price.recurring.interval}`,
              script: `
const go = (path) => fetch(path, { method: 'POST' }).then((r) => r.json()).then((d) => { location.href = d.redirect; });
document.getElementById('pay').onclick = () => go('/c/pay/${session.id}/complete');
document.getElementById('fail').onclick = () => go('/c/pay/${session.id}/cancel');`,
            }),
          };
        },
      },
      {
        method: 'POST',
        pattern: /^\/c\/pay\/([^/]+)\/complete$/,
        handle: (request) => {
          const session = sessions.get(request.params[0]!);
          if (!session || session.status !== 'open') return { status: 404, json: {} };
          return { json: { redirect: completeSession(session) } };
        },
      },
      {
        method: 'POST',
        pattern: /^\/c\/pay\/([^/]+)\/cancel$/,
        handle: (request) => {
          const session = sessions.get(request.params[0]!);
          if (!session) return { status: 404, json: {} };
          return { json: { redirect: session.cancel_url } };
        },
      },
    ],
    opts.port,
  );
  origin = server.url;

  return {
    url: server.url,
    secretKey,
    webhookSecret,
    sessions,
    subscriptions,
    invoices,
    customers,
    paymentMethods,
    charges,
    delivered,
    setWebhookUrl: (url: string | undefined) => (webhookUrl = url),
    declineNextCharge: () => (declineNext = true),
    event,
    /** The buyer pays on the checkout page; the address the browser is sent back to. */
    complete: (sessionId: string) => completeSession(sessions.get(sessionId)!),
    /** The period ends and Stripe charges the saved card: the next period's paid invoice, or a failure. */
    renew(subscriptionId: string, outcome: 'paid' | 'failed' = 'paid') {
      const sub = subscriptions.get(subscriptionId)!;
      const item = sub.items.data[0]!;
      const start = item.current_period_end;
      const end = addInterval(start, item.price.recurring.interval);
      if (outcome === 'failed') {
        sub.status = 'past_due';
        const invoice = invoiceFor(sub, [{ description: lineText(item.price), amount: item.price.unit_amount, period: { start, end } }], 'subscription_cycle', false);
        return { invoice, hook: event('invoice.payment_failed', invoice) };
      }
      item.current_period_start = start;
      item.current_period_end = end;
      sub.status = 'active';
      const invoice = invoiceFor(sub, [{ description: lineText(item.price), amount: item.price.unit_amount, period: { start, end } }], 'subscription_cycle', true);
      return { invoice, hook: event('invoice.paid', invoice) };
    },
    /**
     * Moves a subscription's card to its customer's invoice default (as when the buyer saves a
     * card in the customer portal): the subscription names none of its own.
     */
    moveCardToCustomer(subscriptionId: string) {
      const sub = subscriptions.get(subscriptionId)!;
      customers.get(sub.customer)!.invoice_settings.default_payment_method = sub.default_payment_method;
      sub.default_payment_method = null;
    },
    /** Refunds part of an invoice's payment: the charge.refunded event, with the refunded total. */
    refund(invoiceId: string, amountRefunded: number) {
      const invoice = invoices.get(invoiceId)!;
      const intent = invoice.payments.data[0]!.payment.payment_intent;
      const charge = { id: standInId('ch_'), object: 'charge', amount: invoice.amount_paid, amount_refunded: amountRefunded, payment_intent: intent, refunded: amountRefunded >= invoice.amount_paid, currency: invoice.currency };
      return event('charge.refunded', charge);
    },
    close: server.close,
  };
}
