import type { TVerifyPaymentResult } from '../../../contract/billing.ts';
import { formatMinorUnits } from '../../../contract/plan-catalogue.ts';
import { AppError } from '../../http/app-error.ts';
import type { TBillingQueries, TOrderRow, TPaymentRow } from './billing.repository.ts';
import type { TBillingContext } from './billing-context.ts';
import { GatewayRefusal, gatewayTitle } from './gateways/gateway-http.ts';
import type { TPaidWith } from './record-payment.ts';

/**
 * A payment for an order that another payment has already paid. Thrown inside the transaction, so
 * nothing of it is written; the caller gives the money back once the transaction is over.
 */
export class SecondPayment extends Error {
  constructor(
    readonly order: TOrderRow,
    readonly paid: TPaidWith,
    readonly first: TPaymentRow,
  ) {
    super('a second payment for an order already paid');
  }
}

/**
 * An order pays once. Razorpay lets one order take several payments (a second tab, a retry after
 * a slow answer), so a payment of an order another payment already paid is refused here, under
 * the order's lock, before anything of it is written.
 */
export async function refuseSecondPayment(tx: TBillingQueries, order: TOrderRow, paid: TPaidWith): Promise<void> {
  const first = await tx.paymentOfOrder(order.id);
  if (first && first.gatewayPaymentId !== paid.gatewayPaymentId) throw new SecondPayment(order, paid, first);
}

/**
 * Gives back a second payment of an order already paid: refunded in full at Razorpay when it was
 * captured; an authorised one is left uncaptured, which Razorpay releases by itself. Safe to run
 * from both the return and the webhook: what is refunded already is not refunded again.
 * PayPal captures an order once and Stripe pays an invoice once, so there it is only logged.
 */
export async function giveBackSecondPayment(ctx: TBillingContext, second: SecondPayment): Promise<'refunded' | 'released' | 'left'> {
  const { order, paid, first } = second;
  ctx.log.warn(
    { orderId: order.id, gateway: order.gateway, firstPayment: first.gatewayPaymentId, secondPayment: paid.gatewayPaymentId },
    'a second payment arrived for an order already paid; it is not recorded',
  );
  if (order.gateway !== 'razorpay') return 'left';
  const gateway = await ctx.gatewayFor('razorpay');
  return ctx.gatewayCall('razorpay', async () => {
    const payment = await gateway.client.fetchPayment(paid.gatewayPaymentId);
    if (payment.status === 'authorized' || payment.status === 'created') return 'released';
    const left = payment.amount - payment.amount_refunded;
    if (left <= 0) return 'refunded';
    try {
      await gateway.client.refund(payment.id, left, { reason: 'second payment of an order already paid', order_id: order.gatewayOrderId });
    } catch (error) {
      // The return and the webhook raced, and the other one refunded it first.
      if (error instanceof GatewayRefusal && error.status === 400) {
        const again = await gateway.client.fetchPayment(payment.id);
        if (again.amount_refunded >= again.amount) return 'refunded';
      }
      throw error;
    }
    ctx.log.info(
      { orderId: order.id, payment: payment.id, amountMinor: left, currency: payment.currency },
      'refunded a second payment of an order already paid',
    );
    return 'refunded';
  });
}

/** What the user is told about a second payment, once it has been given back (or not). */
export function secondPaymentRefusal(second: SecondPayment, outcome: 'refunded' | 'released' | 'left'): AppError {
  const currency = second.paid.currency.toUpperCase();
  const amount =
    currency === 'INR' || currency === 'USD' ? formatMinorUnits(second.paid.amountMinor, currency) : `${second.paid.amountMinor / 100} ${currency}`;
  const gateway = gatewayTitle(second.order.gateway);
  const what =
    outcome === 'refunded'
      ? `so this second payment of ${amount} has been refunded in full through ${gateway}; refunds reach your account within 5–7 working days.`
      : outcome === 'released'
        ? `so this second payment of ${amount} was not taken: ${gateway} releases the hold on it by itself.`
        : `so this second payment of ${amount} was not applied. Contact support and we will refund it.`;
  return new AppError('conflict', `This order was already paid by an earlier payment, ${what} Your plan is not affected.`);
}

/** Runs a settlement; a second payment it refuses is given back and the user told why. */
export async function settleOrGiveBack(ctx: TBillingContext, settle: () => Promise<TVerifyPaymentResult>): Promise<TVerifyPaymentResult> {
  try {
    return await settle();
  } catch (error) {
    if (!(error instanceof SecondPayment)) throw error;
    throw secondPaymentRefusal(error, await giveBackSecondPayment(ctx, error));
  }
}

/** A webhook's handling that refused a second payment: the money is given back, the event acknowledged. */
export async function giveBackFromWebhook(ctx: TBillingContext, handle: () => Promise<void>): Promise<void> {
  try {
    await handle();
  } catch (error) {
    // Rolled back, sighting and all: if the refund fails, the gateway's next delivery tries again.
    if (!(error instanceof SecondPayment)) throw error;
    await giveBackSecondPayment(ctx, error);
  }
}
