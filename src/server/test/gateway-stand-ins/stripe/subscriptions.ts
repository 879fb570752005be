import type { TReply, TRoute } from '../stand-in-server.ts';
import { expand } from './expand.ts';
import { invoiceFor, prorationDateOf, prorationLines } from './invoices.ts';
import { lineText, priceFrom } from './products.ts';
import { addInterval, authed, noSuch, stripeError, unauthorized, type TStripeState, type TSubscription } from './state.ts';
import { sendStripeEvent, stripeEvent } from './webhooks.ts';

/** Subscriptions: read, updated (cancel at period end, metadata, a new price), cancelled, renewed. */

function updateSubscription(state: TStripeState, sub: TSubscription, body: Record<string, unknown>): TReply | undefined {
  if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
  if (body.metadata) Object.assign(sub.metadata, body.metadata as Record<string, string>);
  const items = body.items as { id: string; price_data: Record<string, unknown> }[] | undefined;
  if (!items?.[0]) return undefined;
  const item = sub.items.data.find((i) => i.id === items[0]!.id);
  if (!item) return stripeError(400, 'invalid_request_error', `No such subscription item: '${items[0]!.id}'`);
  const price = priceFrom(items[0]!.price_data);
  const proration = String(body.proration_behavior ?? 'create_prorations');
  const anchorNow = (body.billing_cycle_anchor as { type?: string } | undefined)?.type === 'now';
  if (proration !== 'always_invoice') {
    item.price = price;
    return undefined;
  }
  const prorationAt = prorationDateOf(state, item, body.proration_date);
  if (typeof prorationAt !== 'number') return prorationAt;
  if (state.declineNext) {
    state.declineNext = false;
    return stripeError(402, 'card_error', 'Your card was declined.', 'card_declined');
  }
  const { lines, period } = prorationLines(state, item, price, { anchorNow, prorationAt, at: state.now() });
  if (period) {
    item.current_period_start = period.start;
    item.current_period_end = period.end;
  }
  item.price = price;
  const invoice = invoiceFor(state, sub, lines, 'subscription_update', true);
  sendStripeEvent(state, 'invoice.paid', invoice);
  return undefined;
}

/** The period ends and Stripe charges the saved card: the next period's paid invoice, or a failure. */
export function renewSubscription(state: TStripeState, subscriptionId: string, outcome: 'paid' | 'failed' = 'paid') {
  const sub = state.subscriptions.get(subscriptionId)!;
  const item = sub.items.data[0]!;
  const start = item.current_period_end;
  const end = addInterval(start, item.price.recurring.interval);
  if (outcome === 'failed') {
    sub.status = 'past_due';
    const invoice = invoiceFor(
      state,
      sub,
      [{ description: lineText(state, item.price), amount: item.price.unit_amount, period: { start, end } }],
      'subscription_cycle',
      false,
    );
    return { invoice, hook: stripeEvent(state, 'invoice.payment_failed', invoice) };
  }
  item.current_period_start = start;
  item.current_period_end = end;
  sub.status = 'active';
  const invoice = invoiceFor(
    state,
    sub,
    [{ description: lineText(state, item.price), amount: item.price.unit_amount, period: { start, end } }],
    'subscription_cycle',
    true,
  );
  return { invoice, hook: stripeEvent(state, 'invoice.paid', invoice) };
}

export function subscriptionRoutes(state: TStripeState): TRoute[] {
  return [
    {
      method: 'GET',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      handle: (request) => {
        if (!authed(state, request)) return unauthorized();
        const sub = state.subscriptions.get(request.params[0]!);
        return sub ? { json: expand(state, sub, request) } : noSuch('subscription', request.params[0]!);
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      handle: (request) => {
        if (!authed(state, request)) return unauthorized();
        const sub = state.subscriptions.get(request.params[0]!);
        if (!sub) return noSuch('subscription', request.params[0]!);
        const failure = updateSubscription(state, sub, request.body);
        return failure ?? { json: expand(state, sub, request) };
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      handle: (request) => {
        if (!authed(state, request)) return unauthorized();
        const sub = state.subscriptions.get(request.params[0]!);
        if (!sub) return noSuch('subscription', request.params[0]!);
        sub.status = 'canceled';
        sendStripeEvent(state, 'customer.subscription.deleted', sub);
        return { json: sub };
      },
    },
  ];
}
