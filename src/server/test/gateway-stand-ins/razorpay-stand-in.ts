import { createHmac } from 'node:crypto';
import { basicAuth, checkoutPage, deliverWebhook, standInId, startStandIn, type TRequest } from './stand-in-server.ts';

/*
 * Razorpay on loopback: the Orders API, payment fetch, capture and refund (Basic auth with the key
 * id and secret), Checkout's script (an iframe whose page completes or fails on a click and posts the
 * result back, as Razorpay's does), the checkout signature HMAC-SHA256("order_id|payment_id") under
 * the key secret, and webhooks signed with the webhook secret in X-Razorpay-Signature.
 */

export type TRazorpayStandIn = Awaited<ReturnType<typeof startRazorpayStandIn>>;

type TOrder = { id: string; entity: 'order'; amount: number; currency: string; receipt: string; status: string; notes: Record<string, string>; created_at: number };
type TPayment = {
  id: string;
  entity: 'payment';
  order_id: string;
  amount: number;
  currency: string;
  status: 'authorized' | 'captured' | 'failed' | 'refunded';
  amount_refunded: number;
  email: string;
  method: 'card';
  captured: boolean;
  created_at: number;
};

export async function startRazorpayStandIn(opts: { keyId?: string; keySecret?: string; webhookSecret?: string; port?: number } = {}) {
  const keyId = opts.keyId ?? 'rzp_test_standin';
  const keySecret = opts.keySecret ?? 'razorpay-stand-in-key-secret';
  const webhookSecret = opts.webhookSecret ?? 'razorpay-stand-in-webhook-secret';
  const orders = new Map<string, TOrder>();
  const payments = new Map<string, TPayment>();
  /** Refunds made through the API (POST /v1/payments/{id}/refund), in order. */
  const refunds: { id: string; payment_id: string; amount: number; currency: string; notes: Record<string, string>; status: 'processed' }[] = [];
  /** Where payment events are posted as they happen (the app's webhook address), if set. */
  let webhookUrl: string | undefined;
  const delivered: { type: string; status: number }[] = [];
  let origin = '';

  const unauthorized = { status: 401, json: { error: { code: 'BAD_REQUEST_ERROR', description: 'The api key provided is invalid' } } };
  const authed = (request: TRequest) => {
    const auth = basicAuth(request.headers);
    return auth?.id === keyId && auth.secret === keySecret;
  };
  const now = () => Math.floor(Date.now() / 1000);
  const signature = (orderId: string, paymentId: string) => createHmac('sha256', keySecret).update(`${orderId}|${paymentId}`).digest('hex');

  /** A webhook as Razorpay sends it: the body, and the headers that sign and name it. */
  function webhook(event: string, payload: Record<string, { entity: unknown }>) {
    const body = JSON.stringify({ entity: 'event', account_id: 'acc_standin', event, contains: Object.keys(payload), payload, created_at: now() });
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': createHmac('sha256', webhookSecret).update(body).digest('hex'),
        'x-razorpay-event-id': standInId('evt_'),
      },
    };
  }

  const deliver = (hook: ReturnType<typeof webhook>, type: string) => deliverWebhook(webhookUrl, hook, type, delivered);

  function applyRefund(payment: TPayment, amount: number) {
    payment.amount_refunded += amount;
    if (payment.amount_refunded >= payment.amount) payment.status = 'refunded';
  }

  /** A buyer pays an order (or fails to): the payment, and what Checkout hands the page. */
  function pay(orderId: string, override: { amount?: number; currency?: string; fail?: boolean; status?: TPayment['status'] } = {}) {
    const order = orders.get(orderId);
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
    payments.set(payment.id, payment);
    if (payment.status === 'captured') order.status = 'paid';
    const event = override.fail ? 'payment.failed' : payment.status === 'captured' ? 'payment.captured' : 'payment.authorized';
    void deliver(webhook(event, { payment: { entity: payment } }), event);
    return {
      payment,
      checkout: { razorpay_order_id: orderId, razorpay_payment_id: payment.id, razorpay_signature: signature(orderId, payment.id) },
    };
  }

  const script = () => `(function(){
  var origin = ${JSON.stringify(origin)};
  function Razorpay(options){ this.options = options || {}; this.handlers = {}; }
  Razorpay.prototype.on = function(name, cb){ this.handlers[name] = cb; };
  Razorpay.prototype.open = function(){
    var self = this;
    var frame = document.createElement('iframe');
    frame.src = origin + '/checkout/page?order_id=' + encodeURIComponent(self.options.order_id) + '&key=' + encodeURIComponent(self.options.key);
    frame.title = 'Razorpay Checkout';
    frame.setAttribute('style', 'position:fixed;inset:0;width:100%;height:100%;border:0;z-index:2147483647;background:rgba(0,0,0,.55)');
    document.body.appendChild(frame);
    function onMessage(e){
      if (e.origin !== origin || !e.data || !e.data.razorpayStandIn) return;
      window.removeEventListener('message', onMessage);
      frame.remove();
      var d = e.data;
      if (d.type === 'success' && self.options.handler) self.options.handler(d.response);
      else if (d.type === 'failed' && self.handlers['payment.failed']) self.handlers['payment.failed']({ error: d.error });
      else if (d.type === 'dismiss' && self.options.modal && self.options.modal.ondismiss) self.options.modal.ondismiss();
    }
    window.addEventListener('message', onMessage);
  };
  window.Razorpay = Razorpay;
})();`;

  const server = await startStandIn(
    [
      {
        method: 'POST',
        pattern: /^\/v1\/orders$/,
        handle: (request) => {
          if (!authed(request)) return unauthorized;
          const body = request.body as { amount?: number; currency?: string; receipt?: string; notes?: Record<string, string> };
          if (!Number.isInteger(body.amount) || (body.amount ?? 0) < 100 || !body.currency) {
            return { status: 400, json: { error: { code: 'BAD_REQUEST_ERROR', description: 'The amount must be at least INR 1.00' } } };
          }
          const order: TOrder = {
            id: standInId('order_', 7),
            entity: 'order',
            amount: body.amount!,
            currency: body.currency,
            receipt: body.receipt ?? '',
            status: 'created',
            notes: body.notes ?? {},
            created_at: now(),
          };
          orders.set(order.id, order);
          return { json: order };
        },
      },
      {
        method: 'GET',
        pattern: /^\/v1\/payments\/([^/]+)$/,
        handle: (request) => {
          if (!authed(request)) return unauthorized;
          const payment = payments.get(request.params[0]!);
          return payment ? { json: payment } : { status: 400, json: { error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } } };
        },
      },
      {
        method: 'POST',
        pattern: /^\/v1\/payments\/([^/]+)\/capture$/,
        handle: (request) => {
          if (!authed(request)) return unauthorized;
          const payment = payments.get(request.params[0]!);
          if (!payment || payment.status !== 'authorized') {
            return { status: 400, json: { error: { code: 'BAD_REQUEST_ERROR', description: 'This payment has already been captured' } } };
          }
          payment.status = 'captured';
          payment.captured = true;
          orders.get(payment.order_id)!.status = 'paid';
          return { json: payment };
        },
      },
      {
        method: 'POST',
        pattern: /^\/v1\/payments\/([^/]+)\/refund$/,
        handle: (request) => {
          if (!authed(request)) return unauthorized;
          const payment = payments.get(request.params[0]!);
          const bad = (description: string) => ({ status: 400, json: { error: { code: 'BAD_REQUEST_ERROR', description, source: 'business', step: 'payment_initiation', reason: 'input_validation_failed' } } });
          if (!payment) return bad('The id provided does not exist');
          if (payment.status === 'refunded') return bad('The payment has been fully refunded already');
          if (payment.status !== 'captured') return bad('Only payments which have been captured can be refunded');
          const body = request.body as { amount?: number; speed?: string; notes?: Record<string, string>; receipt?: string };
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
          refunds.push(refund);
          applyRefund(payment, amount);
          void deliver(webhook('refund.processed', { refund: { entity: refund }, payment: { entity: payment } }), 'refund.processed');
          return { json: refund };
        },
      },
      { method: 'GET', pattern: /^\/v1\/checkout\.js$/, handle: () => ({ js: script() }) },
      {
        method: 'GET',
        pattern: /^\/checkout\/page$/,
        handle: (request) => {
          const order = orders.get(request.query.get('order_id') ?? '');
          if (!order || request.query.get('key') !== keyId) return { status: 400, html: '<p>Unknown order or key.</p>' };
          const amount = new Intl.NumberFormat(order.currency === 'INR' ? 'en-IN' : 'en-US', { style: 'currency', currency: order.currency }).format(order.amount / 100);
          return {
            html: checkoutPage({
              title: 'Razorpay Checkout (stand-in)',
              amount,
              description: `Order ${order.id}`,
              script: `
const send = (msg) => parent.postMessage(Object.assign({ razorpayStandIn: true }, msg), '*');
const post = (path) => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order_id: ${JSON.stringify(order.id)} }) }).then((r) => r.json());
document.getElementById('pay').onclick = () => post('/checkout/pay').then((response) => send({ type: 'success', response }));
document.getElementById('fail').onclick = () => post('/checkout/fail').then((error) => send({ type: 'failed', error }));`,
            }),
          };
        },
      },
      {
        method: 'POST',
        pattern: /^\/checkout\/pay$/,
        handle: (request) => ({ json: pay(String(request.body.order_id)).checkout }),
      },
      {
        method: 'POST',
        pattern: /^\/checkout\/fail$/,
        handle: (request) => {
          const { payment } = pay(String(request.body.order_id), { fail: true });
          return {
            json: {
              code: 'BAD_REQUEST_ERROR',
              description: 'Your payment could not be completed as the card was declined.',
              reason: 'payment_failed',
              metadata: { order_id: payment.order_id, payment_id: payment.id },
            },
          };
        },
      },
    ],
    opts.port,
  );
  origin = server.url;

  return {
    url: server.url,
    keyId,
    keySecret,
    webhookSecret,
    checkoutScriptUrl: `${server.url}/v1/checkout.js`,
    orders,
    payments,
    refunds,
    delivered,
    setWebhookUrl: (url: string | undefined) => (webhookUrl = url),
    pay,
    signature,
    webhook,
    /** Refunds part or all of a payment and returns the signed refund.processed event. */
    refund(paymentId: string, amount: number) {
      const payment = payments.get(paymentId);
      if (!payment) throw new Error(`no payment ${paymentId}`);
      applyRefund(payment, amount);
      const refund = { id: standInId('rfnd_'), entity: 'refund', payment_id: paymentId, amount, currency: payment.currency };
      return webhook('refund.processed', { refund: { entity: refund }, payment: { entity: payment } });
    },
    close: server.close,
  };
}
