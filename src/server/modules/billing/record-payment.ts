import { randomUUID } from 'node:crypto';
import { invoiceNumberText, type TInvoiceDetails, type TVerifyPaymentResult } from '../../../contract/billing.ts';
import type { TBillingCycle, TCurrency, TPlanId } from '../../../contract/plans.ts';
import { formatMinorUnits } from '../../../contract/plan-catalogue.ts';
import { AppError } from '../../http/app-error.ts';
import type { TBillingQueries, TOrderRow, TSubscriptionRow } from './billing.repository.ts';
import { currentSubscription, type TBillingContext, type TSettleContext } from './billing-context.ts';
import { planIn, quotaKey } from './billing-terms.ts';
import type { TGatewayName } from './gateways/gateway-http.ts';
import { periodEnd } from './periods.ts';
import { refuseSecondPayment } from './second-payment.ts';

export type TPaidWith = {
  gatewayPaymentId: string;
  chargeRef: string | null;
  amountMinor: number;
  currency: string;
};

export function checkAmount(ctx: TBillingContext, order: TOrderRow, paid: { amountMinor: number; currency: string }) {
  if (paid.amountMinor === order.amountMinor && paid.currency.toUpperCase() === order.currency) return;
  ctx.log.warn(
    { orderId: order.id, expected: [order.amountMinor, order.currency], paid: [paid.amountMinor, paid.currency] },
    'payment amount does not match its order',
  );
  const shown =
    paid.currency.toUpperCase() === 'INR' || paid.currency.toUpperCase() === 'USD'
      ? formatMinorUnits(paid.amountMinor, paid.currency.toUpperCase() as TCurrency)
      : `${paid.amountMinor / 100} ${paid.currency.toUpperCase()}`;
  throw new AppError(
    'bad_request',
    `The amount paid (${shown}) does not match the order (${formatMinorUnits(order.amountMinor, order.currency)}). Your plan has not changed; please contact support.`,
  );
}

/**
 * Records a payment once (whichever of the return page and the webhook comes first), issues its
 * invoice, and puts its period in force when the period has begun. Call inside a transaction.
 */
export async function recordPayment(
  ctx: TBillingContext,
  tx: TBillingQueries,
  settle: TSettleContext,
  input: {
    ownerId: string;
    gateway: TGatewayName;
    order: TOrderRow | undefined;
    paid: TPaidWith;
    planId: TPlanId;
    cycle: TBillingCycle;
    /** What the payment paid for. */
    period: { start: Date; end: Date };
    /** The subscription's period once paid, when it is not `period` (Stripe's prorated changes). */
    applyPeriod?: { start: Date; end: Date };
    lines: TInvoiceDetails['lines'];
    /** Stripe's subscription and customer, and the event's time, for renewals by webhook. */
    stripe?: { subscriptionId: string; customerId: string | null; cancelAtPeriodEnd: boolean };
    eventAt: Date;
  },
): Promise<TVerifyPaymentResult> {
  const plan = planIn(settle.catalogue, input.planId);
  if (input.order) await refuseSecondPayment(tx, input.order, input.paid);
  const paymentId = randomUUID();
  const inserted = await tx.insertPayment({
    id: paymentId,
    ownerId: input.ownerId,
    orderId: input.order?.id ?? null,
    gateway: input.gateway,
    gatewayPaymentId: input.paid.gatewayPaymentId,
    chargeRef: input.paid.chargeRef,
    planId: input.planId,
    cycle: input.cycle,
    amountMinor: input.paid.amountMinor,
    currency: input.paid.currency.toUpperCase() as TCurrency,
    periodStart: input.period.start,
    periodEnd: input.period.end,
  });
  const result = (invoiceId: string | null): TVerifyPaymentResult => ({
    planId: input.planId,
    planName: plan.name,
    cycle: input.cycle,
    periodEnd: input.period.end.toISOString(),
    invoiceId,
  });
  if (!inserted) {
    const existing = await tx.paymentByGatewayId(input.gateway, input.paid.gatewayPaymentId);
    return result(existing ? ((await tx.invoiceForPayment(existing.id))?.id ?? null) : null);
  }
  if (input.order) await tx.setOrderStatus(input.order.id, 'paid');

  const user = await tx.payer(input.ownerId);
  const seller = settle.seller;
  const number = await tx.nextNumber('invoice');
  const details: TInvoiceDetails = {
    number: invoiceNumberText(number),
    seller,
    buyer: { name: [user?.firstName, user?.lastName].filter(Boolean).join(' ') || (user?.email ?? ''), email: user?.email ?? '' },
    planName: plan.name,
    cycle: input.cycle,
    periodStart: input.period.start.toISOString(),
    periodEnd: input.period.end.toISOString(),
    lines: input.lines,
    amountMinor: input.paid.amountMinor,
    currency: input.paid.currency.toUpperCase() as TCurrency,
    gateway: input.gateway,
    gatewayReference: input.paid.gatewayPaymentId,
    paidAt: input.eventAt.toISOString(),
  };
  const invoiceId = await tx.insertInvoice({ ownerId: input.ownerId, paymentId, number, details, issuedAt: input.eventAt });

  const at = ctx.now();
  const sub = await tx.subscription(input.ownerId, true);
  const applied = input.applyPeriod ?? input.period;
  const covers = applied.start.getTime() <= at.getTime() && at.getTime() < applied.end.getTime();
  // A late event for a period already behind the subscription pays for it, but moves nothing back.
  const behind = sub && sub.status !== 'ended' && sub.currentPeriodEnd.getTime() > applied.end.getTime();
  if (covers && !behind) {
    await tx.saveSubscription({
      ownerId: input.ownerId,
      planId: input.planId,
      cycle: input.cycle,
      gateway: input.gateway,
      status: 'active',
      gatewaySubscriptionId: input.stripe?.subscriptionId ?? null,
      gatewayCustomerId: input.stripe?.customerId ?? sub?.gatewayCustomerId ?? null,
      currentPeriodStart: applied.start,
      currentPeriodEnd: applied.end,
      cancelAtPeriodEnd: input.stripe?.cancelAtPeriodEnd ?? false,
      scheduledPlanId: null,
      scheduledCycle: null,
      graceEndsAt: null,
      lastEventAt: sub?.lastEventAt && sub.lastEventAt > input.eventAt ? sub.lastEventAt : input.eventAt,
      renewalReminderAt: null,
    });
    await tx.setUserPlan(input.ownerId, input.planId, quotaKey(applied.start, input.cycle, at));
  }
  return result(invoiceId);
}

/** The period an order pays for, decided when the money arrives. */
function orderPeriod(order: TOrderRow, sub: TSubscriptionRow | undefined, paidAt: Date): { start: Date; end: Date } {
  if (order.kind === 'upgrade' && sub) return { start: sub.currentPeriodStart, end: sub.currentPeriodEnd };
  if (order.kind === 'renewal' && sub && sub.currentPeriodEnd.getTime() > paidAt.getTime()) {
    return { start: sub.currentPeriodEnd, end: periodEnd(sub.currentPeriodEnd, order.cycle) };
  }
  return { start: paidAt, end: periodEnd(paidAt, order.cycle) };
}

/** Settles a one-off order (Razorpay, PayPal) once its money is confirmed. */
export async function settleOrder(
  ctx: TBillingContext,
  tx: TBillingQueries,
  settle: TSettleContext,
  order: TOrderRow,
  paid: TPaidWith,
): Promise<TVerifyPaymentResult> {
  await refuseSecondPayment(tx, order, paid);
  checkAmount(ctx, order, paid);
  const ownerId = order.ownerId;
  // Paid after its account was deleted: nobody is left to give the plan to.
  if (!ownerId) throw new AppError('conflict', 'The account this order was for has been deleted; please contact support for a refund.');
  const paidAt = ctx.now();
  const sub = await currentSubscription(tx, ownerId, true);
  let period = orderPeriod(order, sub, paidAt);
  // Two renewals paid in a race: the second one follows the first.
  if (order.kind === 'renewal') {
    const latest = await tx.latestPaidPeriodEnd(ownerId);
    if (latest && latest.getTime() > period.start.getTime() && !(await tx.paymentByGatewayId(order.gateway, paid.gatewayPaymentId))) {
      period = { start: latest, end: periodEnd(latest, order.cycle) };
    }
  }
  return recordPayment(ctx, tx, settle, {
    ownerId,
    gateway: order.gateway,
    order,
    paid,
    planId: order.planId,
    cycle: order.cycle,
    period,
    lines: order.lines,
    eventAt: paidAt,
  });
}
