import type Stripe from 'stripe';
import type { TVerifyPaymentResult } from '../../../contract/billing.ts';
import type { TBillingCycle, TPlanId } from '../../../contract/plans.ts';
import { AppError } from '../../http/app-error.ts';
import type { TBillingQueries, TOrderRow } from './billing.repository.ts';
import type { TBillingContext, TGatewayOf, TSettleContext } from './billing-context.ts';
import { describeFallback } from './billing-terms.ts';
import { invoicePaymentIntent, invoicePeriod, subscriptionPeriod } from './gateways/stripe.ts';
import { checkAmount, recordPayment } from './record-payment.ts';
import { giveBackSecondPayment, SecondPayment } from './second-payment.ts';

/** Records a paid Stripe invoice against its subscription: first payments, upgrades and renewals alike. */
export async function settleStripeInvoice(
  ctx: TBillingContext,
  tx: TBillingQueries,
  settle: TSettleContext,
  invoice: Stripe.Invoice,
  subscription: Stripe.Subscription,
  order: TOrderRow | undefined,
  eventAt: Date,
): Promise<TVerifyPaymentResult | undefined> {
  const ownerId = order?.ownerId ?? subscription.metadata.ownerId;
  const local = await tx.subscriptionByGatewayId('stripe', subscription.id);
  const owner = ownerId ?? local?.ownerId;
  if (!owner || !(await tx.payer(owner))) {
    ctx.log.warn({ invoice: invoice.id, subscription: subscription.id }, 'Stripe invoice for a subscription we do not know');
    return undefined;
  }
  const planId = (order?.planId ?? subscription.metadata.planId) as TPlanId | undefined;
  const cycle = (order?.cycle ?? subscription.metadata.cycle) as TBillingCycle | undefined;
  if (!planId || !cycle) {
    ctx.log.warn({ subscription: subscription.id }, 'Stripe subscription without its plan in metadata');
    return undefined;
  }
  if (order) checkAmount(ctx, order, { amountMinor: invoice.amount_paid, currency: invoice.currency });
  const customer = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
  return recordPayment(ctx, tx, settle, {
    ownerId: owner,
    gateway: 'stripe',
    order,
    paid: { gatewayPaymentId: invoice.id, chargeRef: invoicePaymentIntent(invoice), amountMinor: invoice.amount_paid, currency: invoice.currency },
    planId,
    cycle,
    period: invoicePeriod(invoice),
    // The subscription's own period is the truth: a prorated change pays part of it, and a
    // renewal's invoice pays exactly it.
    applyPeriod: subscriptionPeriod(subscription),
    lines: invoice.lines.data.map((line) => ({ description: line.description ?? describeFallback(planId, cycle), amountMinor: line.amount })),
    stripe: { subscriptionId: subscription.id, customerId: customer, cancelAtPeriodEnd: subscription.cancel_at_period_end },
    eventAt,
  });
}

/**
 * Settles a completed Checkout Session (from the return page, or its webhook with `eventId`):
 * checked against its order, then its subscription's first invoice recorded.
 */
export async function settleStripeSession(
  ctx: TBillingContext,
  gateway: TGatewayOf<'stripe'>,
  session: Stripe.Checkout.Session,
  eventId: string | undefined,
  eventAt: Date,
  ownerId?: string,
): Promise<TVerifyPaymentResult | undefined> {
  const { repo } = ctx;
  const order = await repo.orderByGatewayId('stripe', session.id);
  if (!order || (ownerId && order.ownerId !== ownerId)) {
    if (ownerId) throw new AppError('bad_request', 'This checkout does not belong to an order of yours. Your plan has not changed.');
    return undefined;
  }
  if (session.status !== 'complete' || session.payment_status !== 'paid') {
    throw new AppError('payment_failed', 'Stripe has not completed this payment. Your plan has not changed.');
  }
  checkAmount(ctx, order, { amountMinor: session.amount_total ?? -1, currency: session.currency ?? '' });
  const subscriptionId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
  if (!subscriptionId) throw new AppError('payment_failed', 'Stripe did not start the subscription. Your plan has not changed.');
  const subscription = await ctx.gatewayCall('stripe', () => gateway.client.retrieveSubscription(subscriptionId));
  const invoiceRef = session.invoice ?? subscription.latest_invoice;
  const invoiceId = typeof invoiceRef === 'string' ? invoiceRef : invoiceRef?.id;
  if (!invoiceId) throw new AppError('payment_failed', 'Stripe has no invoice for this checkout yet. Your plan has not changed.');
  const invoice = await ctx.gatewayCall('stripe', () => gateway.client.retrieveInvoice(invoiceId));
  const settle = await ctx.settleContext();
  try {
    return await repo.transaction(async (tx) => {
      if (eventId && !(await tx.firstSighting('stripe', eventId, 'checkout.session.completed'))) return undefined;
      // Locked, so the return and the webhook settle one after the other.
      const locked = (await tx.orderByGatewayId('stripe', session.id, true)) ?? order;
      return settleStripeInvoice(ctx, tx, settle, invoice, subscription, locked, eventAt);
    });
  } catch (error) {
    // A Checkout Session pays one invoice; another invoice of its subscription (a later change
    // or renewal) is its own payment, recorded by its own event, never as this order's.
    if (!(error instanceof SecondPayment)) throw error;
    await giveBackSecondPayment(ctx, error);
    const invoiceRow = await repo.invoiceForPayment(error.first.id);
    const plan = await ctx.planOf(error.first.planId);
    return {
      planId: error.first.planId,
      planName: plan.name,
      cycle: error.first.cycle,
      periodEnd: error.first.periodEnd.toISOString(),
      invoiceId: invoiceRow?.id ?? null,
    };
  }
}
