import type Stripe from 'stripe';
import { AppError } from '../../../http/app-error.ts';
import type { TBillingQueries, TOrderRow, TSubscriptionRow } from '../billing.repository.ts';
import { endSubscription, type TBillingContext, type TGatewayOf } from '../billing-context.ts';
import { invoiceSubscriptionId } from '../gateways/stripe.ts';
import { addDays, GRACE_DAYS } from '../periods.ts';
import { settleStripeInvoice, settleStripeSession } from '../stripe-settlement.ts';
import { badSignature, header, type TWebhookRequest } from './webhook-request.ts';

/** Stripe's webhook: `Stripe-Signature` checked by the SDK's `constructEvent`. */
export async function stripeWebhook(ctx: TBillingContext, gateway: TGatewayOf<'stripe'>, request: TWebhookRequest): Promise<void> {
  const event = gateway.client.constructEvent(request.rawBody, header(request, 'stripe-signature'));
  if (!event) throw badSignature();
  return handleStripeEvent(ctx, gateway, event);
}

/** Whether a Stripe event is older than one already applied to this subscription. */
const stale = (sub: TSubscriptionRow, eventAt: Date) => sub.lastEventAt !== null && eventAt.getTime() < sub.lastEventAt.getTime();

async function handleStripeEvent(ctx: TBillingContext, gateway: TGatewayOf<'stripe'>, event: Stripe.Event): Promise<void> {
  const { repo } = ctx;
  const eventAt = new Date(event.created * 1000);
  // Objects are read fresh from Stripe before the transaction: the event may be old news.
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = await ctx.gatewayCall('stripe', () => gateway.client.retrieveSession(event.data.object.id));
      await settleStripeSession(ctx, gateway, session, event.id, eventAt);
      return;
    }
    case 'invoice.paid': {
      const subscriptionId = invoiceSubscriptionId(event.data.object);
      if (!subscriptionId || !event.data.object.id) return;
      const [invoice, subscription] = await ctx.gatewayCall('stripe', () =>
        Promise.all([gateway.client.retrieveInvoice(event.data.object.id!), gateway.client.retrieveSubscription(subscriptionId)]),
      );
      const settle = await ctx.settleContext();
      await repo.transaction(async (tx) => {
        if (!(await tx.firstSighting('stripe', event.id, event.type))) return;
        const order = invoice.id ? await orderForStripeInvoice(tx, subscription) : undefined;
        await settleStripeInvoice(ctx, tx, settle, invoice, subscription, order, eventAt);
      });
      return;
    }
    case 'invoice.payment_failed': {
      const subscriptionId = invoiceSubscriptionId(event.data.object);
      if (!subscriptionId) return;
      await repo.transaction(async (tx) => {
        if (!(await tx.firstSighting('stripe', event.id, event.type))) return;
        const sub = await tx.subscriptionByGatewayId('stripe', subscriptionId);
        if (!sub || sub.status === 'ended' || stale(sub, eventAt)) return;
        const from = sub.currentPeriodEnd.getTime() > eventAt.getTime() ? sub.currentPeriodEnd : eventAt;
        await tx.updateSubscription(sub.ownerId, { status: 'past_due', graceEndsAt: addDays(from, GRACE_DAYS), lastEventAt: eventAt });
      });
      return;
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const object = event.data.object;
      await repo.transaction(async (tx) => {
        if (!(await tx.firstSighting('stripe', event.id, event.type))) return;
        const sub = await tx.subscriptionByGatewayId('stripe', object.id);
        if (!sub || sub.status === 'ended' || stale(sub, eventAt)) return;
        if (event.type === 'customer.subscription.deleted') await endSubscription(tx, sub, eventAt);
        else await tx.updateSubscription(sub.ownerId, { cancelAtPeriodEnd: object.cancel_at_period_end, lastEventAt: eventAt });
      });
      return;
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
      if (!intent) return;
      await repo.transaction(async (tx) => {
        if (!(await tx.firstSighting('stripe', event.id, event.type))) return;
        const updated = await tx.recordRefund('stripe', { chargeRef: intent }, { mode: 'total', amountMinor: charge.amount_refunded });
        if (!updated) throw new AppError('conflict', 'The refunded payment is not recorded yet; send the event again later.');
      });
      return;
    }
    default:
      return;
  }
}

/** The order a Stripe subscription's first invoice pays, named in its metadata. */
async function orderForStripeInvoice(tx: TBillingQueries, subscription: Stripe.Subscription): Promise<TOrderRow | undefined> {
  const orderId = subscription.metadata.orderId;
  if (!orderId) return undefined;
  const order = await tx.orderById(orderId);
  return order && order.status !== 'paid' && order.kind === 'new' ? order : undefined;
}
