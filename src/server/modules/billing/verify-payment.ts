import type Stripe from 'stripe';
import type { TVerifyPaymentBody, TVerifyPaymentResult } from '../../../contract/billing.ts';
import { planStorageKey } from '../../../contract/plan-catalogue.ts';
import { AppError } from '../../http/app-error.ts';
import type { TBillingContext } from './billing-context.ts';
import { GatewayRefusal } from './gateways/gateway-http.ts';
import { completedCapture, paypalMinor } from './gateways/paypal.ts';
import { settleOrder, type TPaidWith } from './record-payment.ts';
import { giveBackSecondPayment, SecondPayment, secondPaymentRefusal, settleOrGiveBack } from './second-payment.ts';
import { settleStripeSession } from './stripe-settlement.ts';

/** The return from a checkout page: confirms the payment with the gateway and puts the plan in force. */
export async function verifyPayment(ctx: TBillingContext, ownerId: string, body: TVerifyPaymentBody): Promise<TVerifyPaymentResult> {
  if (body.razorpay_order_id || body.razorpay_payment_id || body.razorpay_signature) return verifyRazorpay(ctx, ownerId, body);
  if (body.session_id) return verifyStripe(ctx, ownerId, body.session_id);
  if (body.paypal_order_id) return verifyPayPal(ctx, ownerId, body.paypal_order_id);
  throw new AppError('validation_failed', 'Missing payment details');
}

/** Razorpay Checkout's signed return: the signature, then the payment itself, checked against our order. */
async function verifyRazorpay(ctx: TBillingContext, ownerId: string, body: TVerifyPaymentBody): Promise<TVerifyPaymentResult> {
  const { repo } = ctx;
  if (!body.razorpay_order_id || !body.razorpay_payment_id || !body.razorpay_signature || !body.planId) {
    throw new AppError('validation_failed', 'Missing payment details');
  }
  const order = await repo.orderByGatewayId('razorpay', body.razorpay_order_id);
  if (!order || order.ownerId !== ownerId) {
    throw new AppError('bad_request', 'This payment does not belong to an order of yours. Your plan has not changed.');
  }
  const ordered = planStorageKey(order.planId, order.cycle);
  if (body.planId !== ordered) {
    throw new AppError(
      'bad_request',
      `This payment was for the ${ordered.replace('_', ' ')} plan, not ${body.planId.replace('_', ' ')}. Your plan has not changed.`,
    );
  }
  const gateway = await ctx.gatewayFor('razorpay');
  if (!gateway.client.checkoutSignatureValid(body.razorpay_order_id, body.razorpay_payment_id, body.razorpay_signature)) {
    ctx.log.warn({ orderId: order.id }, 'Razorpay checkout signature did not match');
    throw new AppError('bad_request', 'Payment verification failed: the signature does not match this order. Your plan has not changed.');
  }
  const paymentId = body.razorpay_payment_id;
  const fetched = await ctx.gatewayCall('razorpay', () => gateway.client.fetchPayment(paymentId));
  if (fetched.order_id !== order.gatewayOrderId) {
    throw new AppError('bad_request', 'This payment was made for another order. Your plan has not changed.');
  }
  const paidWith = (p: typeof fetched): TPaidWith => ({ gatewayPaymentId: p.id, chargeRef: p.id, amountMinor: p.amount, currency: p.currency });
  // Another payment paid this order already: this one is not captured, or is given back.
  const first = await repo.paymentOfOrder(order.id);
  if (first && first.gatewayPaymentId !== fetched.id) {
    const second = new SecondPayment(order, paidWith(fetched), first);
    throw secondPaymentRefusal(second, await giveBackSecondPayment(ctx, second));
  }
  const payment = fetched.status === 'authorized' ? await ctx.gatewayCall('razorpay', () => gateway.client.capture(fetched)) : fetched;
  if (payment.status !== 'captured') {
    throw new AppError('payment_failed', `Razorpay has not completed this payment (it is ${payment.status}). Your plan has not changed.`);
  }
  const settle = await ctx.settleContext();
  return settleOrGiveBack(ctx, () =>
    repo.transaction(async (tx) => settleOrder(ctx, tx, settle, (await tx.orderByGatewayId('razorpay', order.gatewayOrderId, true))!, paidWith(payment))),
  );
}

/** Stripe Checkout's return: the session, read at Stripe, settles its order. */
async function verifyStripe(ctx: TBillingContext, ownerId: string, sessionId: string): Promise<TVerifyPaymentResult> {
  const notFound = () => {
    ctx.log.info({ ownerId }, 'verify-payment for a Stripe checkout that does not exist');
    return new AppError(
      'bad_request',
      'We could not find this checkout. Nothing was charged through it and your plan has not changed; choose a plan in Billing to try again.',
    );
  };
  // Only checkouts we started are asked about at Stripe.
  const order = await ctx.repo.orderByGatewayId('stripe', sessionId);
  if (!order) throw notFound();
  if (order.ownerId !== ownerId) throw new AppError('bad_request', 'This checkout does not belong to an order of yours. Your plan has not changed.');
  const gateway = await ctx.gatewayFor('stripe');
  let session: Stripe.Checkout.Session;
  try {
    session = await gateway.client.retrieveSession(sessionId);
  } catch (error) {
    if (error instanceof GatewayRefusal && error.status === 404) throw notFound();
    throw ctx.gatewayFailure('stripe', error);
  }
  const result = await settleStripeSession(ctx, gateway, session, undefined, ctx.now(), ownerId);
  if (!result) throw new AppError('bad_request', 'This checkout does not belong to an order of yours. Your plan has not changed.');
  return result;
}

/** PayPal's return once the buyer approved: the order is captured (or read back), then settled. */
async function verifyPayPal(ctx: TBillingContext, ownerId: string, paypalOrderId: string): Promise<TVerifyPaymentResult> {
  const { repo } = ctx;
  const order = await repo.orderByGatewayId('paypal', paypalOrderId);
  if (!order || order.ownerId !== ownerId) {
    throw new AppError('bad_request', 'This payment does not belong to an order of yours. Your plan has not changed.');
  }
  const gateway = await ctx.gatewayFor('paypal');
  const captured = await ctx.gatewayCall('paypal', async () => {
    try {
      return await gateway.client.capture(order.gatewayOrderId);
    } catch (error) {
      if (error instanceof GatewayRefusal && error.status === 422) {
        throw new AppError('payment_failed', 'PayPal did not approve this payment. Your plan has not changed; you can try again.');
      }
      throw error;
    }
  });
  const capture = completedCapture(captured);
  if (!capture) {
    await repo.setOrderStatus(order.id, 'failed');
    throw new AppError('payment_failed', `PayPal has not completed this payment (it is ${captured.status}). Your plan has not changed.`);
  }
  const settle = await ctx.settleContext();
  return settleOrGiveBack(ctx, () =>
    repo.transaction(async (tx) =>
      settleOrder(ctx, tx, settle, (await tx.orderByGatewayId('paypal', order.gatewayOrderId, true))!, {
        gatewayPaymentId: capture.id,
        chargeRef: capture.id,
        amountMinor: paypalMinor(capture.amount.value),
        currency: capture.amount.currency_code,
      }),
    ),
  );
}
