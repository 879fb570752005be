import { checkoutPage, standInId, type TRoute } from '../stand-in-server.ts';
import { savedCard } from './customers.ts';
import { expand } from './expand.ts';
import { invoiceFor } from './invoices.ts';
import { lineText, priceFrom } from './products.ts';
import { addInterval, authed, money, noSuch, unauthorized, type TSession, type TStripeState, type TSubscription } from './state.ts';
import { sendStripeEvent } from './webhooks.ts';

/**
 * Checkout Sessions in subscription mode with inline prices, and the hosted checkout page that
 * pays or fails on a click (and saves the card as the subscription's default payment method).
 */

function sessionView(session: TSession) {
  const { line: _line, ...view } = session;
  return view;
}

/** A buyer completes Checkout: customer, subscription, first invoice paid, events sent. */
export function completeSession(state: TStripeState, session: TSession) {
  const start = state.now();
  const customer = session.customer ?? standInId('cus_');
  if (!state.customers.has(customer)) {
    state.customers.set(customer, {
      id: customer,
      object: 'customer',
      email: session.customer_email,
      invoice_settings: { default_payment_method: null },
      created: start,
    });
  }
  const card = savedCard(state, customer);
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
  state.subscriptions.set(sub.id, sub);
  const item = sub.items.data[0]!;
  const invoice = invoiceFor(
    state,
    sub,
    [{ description: lineText(state, item.price), amount: item.price.unit_amount, period: { start, end: item.current_period_end } }],
    'subscription_create',
    true,
  );
  Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription: sub.id, invoice: invoice.id });
  sendStripeEvent(state, 'checkout.session.completed', sessionView(session));
  sendStripeEvent(state, 'invoice.paid', invoice);
  return session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id);
}

function createSession(state: TStripeState, body: Record<string, unknown>) {
  const lineItems = body.line_items as { price_data: Record<string, unknown>; quantity: string }[];
  const price = priceFrom(lineItems[0]!.price_data);
  if (!state.products.has(price.product)) return noSuch('product', price.product);
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
    url: `${state.origin}/c/pay/${id}`,
    created: state.now(),
    line: { price, subscriptionMetadata: (body.subscription_data as { metadata?: Record<string, string> })?.metadata ?? {} },
  };
  state.sessions.set(id, session);
  return { json: sessionView(session) };
}

function hostedPage(state: TStripeState, session: TSession) {
  const price = session.line.price;
  return checkoutPage({
    title: 'Stripe Checkout (stand-in)',
    amount: money(price.unit_amount, price.currency),
    description: `${state.products.get(price.product)?.name ?? price.product}, billed every ${price.recurring.interval}`,
    script: `
const go = (path) => fetch(path, { method: 'POST' }).then((r) => r.json()).then((d) => { location.href = d.redirect; });
document.getElementById('pay').onclick = () => go('/c/pay/${session.id}/complete');
document.getElementById('fail').onclick = () => go('/c/pay/${session.id}/cancel');`,
  });
}

export function checkoutSessionRoutes(state: TStripeState): TRoute[] {
  return [
    {
      method: 'POST',
      pattern: /^\/v1\/checkout\/sessions$/,
      handle: (request) => (authed(state, request) ? createSession(state, request.body) : unauthorized()),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/checkout\/sessions\/([^/]+)$/,
      handle: (request) => {
        if (!authed(state, request)) return unauthorized();
        const session = state.sessions.get(request.params[0]!);
        return session ? { json: expand(state, sessionView(session), request) } : noSuch('checkout.session', request.params[0]!);
      },
    },
    {
      method: 'GET',
      pattern: /^\/c\/pay\/([^/]+)$/,
      handle: (request) => {
        const session = state.sessions.get(request.params[0]!);
        if (!session || session.status !== 'open') return { status: 404, html: '<p>This checkout session is no longer available.</p>' };
        return { html: hostedPage(state, session) };
      },
    },
    {
      method: 'POST',
      pattern: /^\/c\/pay\/([^/]+)\/complete$/,
      handle: (request) => {
        const session = state.sessions.get(request.params[0]!);
        if (!session || session.status !== 'open') return { status: 404, json: {} };
        return { json: { redirect: completeSession(state, session) } };
      },
    },
    {
      method: 'POST',
      pattern: /^\/c\/pay\/([^/]+)\/cancel$/,
      handle: (request) => {
        const session = state.sessions.get(request.params[0]!);
        if (!session) return { status: 404, json: {} };
        return { json: { redirect: session.cancel_url } };
      },
    },
  ];
}
