import { standInId, type TReply, type TRoute } from '../stand-in-server.ts';
import { lineText, priceFrom } from './products.ts';
import {
  addInterval,
  authed,
  noSuch,
  stripeError,
  unauthorized,
  type TInvoice,
  type TItem,
  type TLine,
  type TPrice,
  type TStripeState,
  type TSubscription,
} from './state.ts';
import { stripeEvent } from './webhooks.ts';

/** Invoices: the ones billing makes (and charges), previews of a plan change, and refunds. */

export function invoiceFor(
  state: TStripeState,
  sub: TSubscription,
  lines: Omit<TLine, 'id' | 'object' | 'currency'>[],
  reason: string,
  paid: boolean,
): TInvoice {
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
    created: state.now(),
    period_start: lines[0]!.period.start,
    period_end: lines[0]!.period.end,
    lines: { object: 'list', data: lines.map((l) => ({ ...l, id: standInId('il_'), object: 'line_item', currency })) },
    parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } } },
    payments: { object: 'list', data: paid ? [{ object: 'invoice_payment', payment: { type: 'payment_intent', payment_intent: standInId('pi_') } }] : [] },
  };
  state.invoices.set(invoice.id, invoice);
  sub.latest_invoice = invoice.id;
  if (paid) state.charges.push({ invoice: invoice.id, subscription: sub.id, amount: total, currency, reason });
  return invoice;
}

/**
 * What changing an item's price bills at once with proration_behavior=always_invoice: the unused
 * time of the old price as a credit and the new price's remaining time (or, with a new anchor,
 * a whole new period), both counted from `prorationAt`. The same for a preview and the change.
 */
export function prorationLines(state: TStripeState, item: TItem, price: TPrice, how: { anchorNow: boolean; prorationAt: number; at: number }) {
  const old = item.price;
  const share = Math.max(0, (item.current_period_end - how.prorationAt) / (item.current_period_end - item.current_period_start));
  const unused = -Math.round(old.unit_amount * share);
  const credit = {
    description: `Unused time on ${lineText(state, old).slice(4)}`,
    amount: unused,
    period: { start: how.prorationAt, end: item.current_period_end },
  };
  if (how.anchorNow) {
    const period = { start: how.at, end: addInterval(how.at, price.recurring.interval) };
    return { lines: [credit, { description: lineText(state, price), amount: price.unit_amount, period }], period };
  }
  const remaining = {
    description: `Remaining time on ${lineText(state, price).slice(4)}`,
    amount: Math.round(price.unit_amount * share),
    period: { start: how.prorationAt, end: item.current_period_end },
  };
  return { lines: [credit, remaining], period: undefined };
}

/** Stripe refuses a proration date outside the current period. */
export function prorationDateOf(state: TStripeState, item: TItem, raw: unknown): number | TReply {
  if (raw === undefined) return state.now();
  const date = Number(raw);
  if (!Number.isInteger(date) || date < item.current_period_start || date > item.current_period_end) {
    return stripeError(400, 'invalid_request_error', 'The proration_date must be within the current subscription period.', 'parameter_invalid_integer');
  }
  return date;
}

/** The invoice a plan change would bill at once, computed from the request and never kept. */
function previewInvoice(state: TStripeState, body: Record<string, unknown>): TReply {
  const sub = state.subscriptions.get(String(body.subscription ?? ''));
  if (!sub) return noSuch('subscription', String(body.subscription ?? ''));
  const details = (body.subscription_details ?? {}) as Record<string, unknown>;
  const items = details.items as { id: string; price_data: Record<string, unknown> }[] | undefined;
  const item = sub.items.data.find((i) => i.id === items?.[0]?.id);
  if (!items?.[0] || !item) return stripeError(400, 'invalid_request_error', 'subscription_details[items] must name an item of the subscription.');
  if (details.proration_behavior !== 'always_invoice') {
    return stripeError(400, 'invalid_request_error', 'This stand-in previews only changes invoiced at once (proration_behavior=always_invoice).');
  }
  const price = priceFrom(items[0].price_data);
  if (!state.products.has(price.product)) return noSuch('product', price.product);
  const prorationAt = prorationDateOf(state, item, details.proration_date);
  if (typeof prorationAt !== 'number') return prorationAt;
  const anchorNow = (details.billing_cycle_anchor as { type?: string } | undefined)?.type === 'now';
  const { lines } = prorationLines(state, item, price, { anchorNow, prorationAt, at: state.now() });
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
    created: state.now(),
    period_start: lines[0]!.period.start,
    period_end: lines[0]!.period.end,
    lines: { object: 'list', data: lines.map((l) => ({ ...l, id: standInId('il_tmp_'), object: 'line_item', currency: price.currency })) },
    parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } } },
    payments: { object: 'list', data: [] },
  };
  // A preview is computed, never kept: nothing is charged and nothing changes.
  return { json: preview };
}

/** Refunds part of an invoice's payment: the charge.refunded event, with the refunded total. */
export function refundInvoice(state: TStripeState, invoiceId: string, amountRefunded: number) {
  const invoice = state.invoices.get(invoiceId)!;
  const intent = invoice.payments.data[0]!.payment.payment_intent;
  const charge = {
    id: standInId('ch_'),
    object: 'charge',
    amount: invoice.amount_paid,
    amount_refunded: amountRefunded,
    payment_intent: intent,
    refunded: amountRefunded >= invoice.amount_paid,
    currency: invoice.currency,
  };
  return stripeEvent(state, 'charge.refunded', charge);
}

export function invoiceRoutes(state: TStripeState): TRoute[] {
  return [
    {
      method: 'POST',
      pattern: /^\/v1\/invoices\/create_preview$/,
      handle: (request) => (authed(state, request) ? previewInvoice(state, request.body) : unauthorized()),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/invoices\/([^/]+)$/,
      handle: (request) => {
        if (!authed(state, request)) return unauthorized();
        const invoice = state.invoices.get(request.params[0]!);
        return invoice ? { json: invoice } : noSuch('invoice', request.params[0]!);
      },
    },
  ];
}
