import { checkoutRoutes } from './razorpay/checkout.ts';
import { orderRoutes } from './razorpay/orders.ts';
import { pay, paymentRoutes, refundPayment } from './razorpay/payments.ts';
import { checkoutSignature, createRazorpayState, type TPayment, type TRazorpayOptions } from './razorpay/state.ts';
import { razorpayWebhook } from './razorpay/webhooks.ts';
import { startStandIn } from './stand-in-server.ts';

/*
 * Razorpay on loopback: the Orders API, payment fetch, capture and refund (Basic auth with the key
 * id and secret), Checkout's script (an iframe whose page completes or fails on a click and posts the
 * result back, as Razorpay's does), the checkout signature HMAC-SHA256("order_id|payment_id") under
 * the key secret, and webhooks signed with the webhook secret in X-Razorpay-Signature.
 * Each resource lives in its own file under razorpay/; this file routes to them and is what tests drive.
 */

export type TRazorpayStandIn = Awaited<ReturnType<typeof startRazorpayStandIn>>;

export async function startRazorpayStandIn(opts: TRazorpayOptions = {}) {
  const state = createRazorpayState(opts);
  const server = await startStandIn([...orderRoutes(state), ...paymentRoutes(state), ...checkoutRoutes(state)], opts.port);
  state.origin = server.url;

  return {
    url: server.url,
    keyId: state.keyId,
    keySecret: state.keySecret,
    webhookSecret: state.webhookSecret,
    checkoutScriptUrl: `${server.url}/v1/checkout.js`,
    orders: state.orders,
    payments: state.payments,
    refunds: state.refunds,
    delivered: state.delivered,
    setWebhookUrl: (url: string | undefined) => (state.webhookUrl = url),
    pay: (orderId: string, override: { amount?: number; currency?: string; fail?: boolean; status?: TPayment['status'] } = {}) => pay(state, orderId, override),
    signature: (orderId: string, paymentId: string) => checkoutSignature(state, orderId, paymentId),
    webhook: (event: string, payload: Record<string, { entity: unknown }>) => razorpayWebhook(state, event, payload),
    /** Refunds part or all of a payment and returns the signed refund.processed event. */
    refund: (paymentId: string, amount: number) => refundPayment(state, paymentId, amount),
    close: server.close,
  };
}
