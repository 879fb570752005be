import { standInId, type TRoute } from '../stand-in-server.ts';
import { authed, checkoutSignature, now, unauthorized, type TPayment, type TRazorpayState } from './state.ts';
import { razorpayWebhook, sendRazorpayWebhook } from './webhooks.ts';

/** Payments: made when a buyer pays an order, then read, captured and refunded through the API. */

function applyRefund(payment: TPayment, amount: number) {
  payment.amount_refunded += amount;
  if (payment.amount_refunded >= payment.amount) payment.status = 'refunded';
}

/** A buyer pays an order (or fails to): the payment, and what Checkout hands the page. */
export function pay(
  state: TRazorpayState,
  orderId: string,
  override: { amount?: number; currency?: string; fail?: boolean; status?: TPayment['status'] } = {},
) {
  const order = state.orders.get(orderId);
  if (!order) throw new Error(`no order ${orderId}`);
  const payment: TPayment = {
    id: standInId('pay_'),
    entity: 'payment',
    order_id: orderId,
    amount: override.amount ?? order.amount,
    currency: override.currency ?? order.currency,
    status: override.fail ? 'failed' : (override.status ?? 'captured'),
    amount_refunded: 0,
    email: 'buyer@example.com',
    method: 'card',
    captured: !override.fail && override.status !== 'authorized',
    created_at: now(),
  };
  state.payments.set(payment.id, payment);
  if (payment.status === 'captured') order.status = 'paid';
  const event = override.fail ? 'payment.failed' : payment.status === 'captured' ? 'payment.captured' : 'payment.authorized';
  sendRazorpayWebhook(state, event, { payment: { entity: payment } });
  return {
    payment,
    checkout: { razorpay_order_id: orderId, razorpay_payment_id: payment.id, razorpay_signature: checkoutSignature(state, orderId, payment.id) },
  };
}

/** Refunds part or all of a payment and returns the signed refund.processed event. */
export function refundPayment(state: TRazorpayState, paymentId: string, amount: number) {
  const payment = state.payments.get(paymentId);
  if (!payment) throw new Error(`no payment ${paymentId}`);
  applyRefund(payment, amount);
  const refund = { id: standInId('rfnd_'), entity: 'refund', payment_id: paymentId, amount, currency: payment.currency };
  return razorpayWebhook(state, 'refund.processed', { refund: { entity: refund }, payment: { entity: payment } });
}

type TRefundBody = { amount?: number; speed?: string; notes?: Record<string, string>; receipt?: string };

function refundThroughApi(state: TRazorpayState, paymentId: string, body: TRefundBody) {
  const payment = state.payments.get(paymentId);
  const bad = (description: string) => ({
    status: 400,
    json: { error: { code: 'BAD_REQUEST_ERROR', description, source: 'business', step: 'payment_initiation', reason: 'input_validation_failed' } },
  });
  if (!payment) return bad('The id provided does not exist');
  if (payment.status === 'refunded') return bad('The payment has been fully refunded already');
  if (payment.status !== 'captured') return bad('Only payments which have been captured can be refunded');
  const left = payment.amount - payment.amount_refunded;
  const amount = body.amount ?? left;
  if (!Number.isInteger(amount) || amount < 100) return bad('The amount must be atleast INR 1.00');
  if (amount > left) return bad('The refund amount provided is greater than amount captured');
  const refund = {
    id: standInId('rfnd_'),
    entity: 'refund' as const,
    amount,
    currency: payment.currency,
    payment_id: payment.id,
    notes: body.notes ?? {},
    receipt: body.receipt ?? null,
    status: 'processed' as const,
    speed_requested: body.speed ?? 'normal',
    speed_processed: 'normal',
    created_at: now(),
  };
  state.refunds.push(refund);
  applyRefund(payment, amount);
  sendRazorpayWebhook(state, 'refund.processed', { refund: { entity: refund }, payment: { entity: payment } });
  return { json: refund };
}

export function paymentRoutes(state: TRazorpayState): TRoute[] {
  return [
    {
      method: 'GET',
      pattern: /^\/v1\/payments\/([^/]+)$/,
      handle: (request) => {
        if (!authed(state, request)) return unauthorized;
        const payment = state.payments.get(request.params[0]!);
        return payment ? { json: payment } : { status: 400, json: { error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } } };
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/payments\/([^/]+)\/capture$/,
      handle: (request) => {
        if (!authed(state, request)) return unauthorized;
        const payment = state.payments.get(request.params[0]!);
        if (!payment || payment.status !== 'authorized') {
          return { status: 400, json: { error: { code: 'BAD_REQUEST_ERROR', description: 'This payment has already been captured' } } };
        }
        payment.status = 'captured';
        payment.captured = true;
        state.orders.get(payment.order_id)!.status = 'paid';
        return { json: payment };
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/payments\/([^/]+)\/refund$/,
      handle: (request) => (authed(state, request) ? refundThroughApi(state, request.params[0]!, request.body as TRefundBody) : unauthorized),
    },
  ];
}
