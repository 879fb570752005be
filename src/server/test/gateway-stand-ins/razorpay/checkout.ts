import { checkoutPage, type TRoute } from '../stand-in-server.ts';
import { pay } from './payments.ts';
import type { TOrder, TRazorpayState } from './state.ts';

/**
 * Checkout's script (an iframe whose page completes or fails on a click and posts the result
 * back, as Razorpay's does) and the page inside it.
 */

const script = (state: TRazorpayState) => `(function(){
  var origin = ${JSON.stringify(state.origin)};
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

function page(order: TOrder) {
  const amount = new Intl.NumberFormat(order.currency === 'INR' ? 'en-IN' : 'en-US', { style: 'currency', currency: order.currency }).format(
    order.amount / 100,
  );
  return checkoutPage({
    title: 'Razorpay Checkout (stand-in)',
    amount,
    description: `Order ${order.id}`,
    script: `
const send = (msg) => parent.postMessage(Object.assign({ razorpayStandIn: true }, msg), '*');
const post = (path) => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order_id: ${JSON.stringify(order.id)} }) }).then((r) => r.json());
document.getElementById('pay').onclick = () => post('/checkout/pay').then((response) => send({ type: 'success', response }));
document.getElementById('fail').onclick = () => post('/checkout/fail').then((error) => send({ type: 'failed', error }));`,
  });
}

export function checkoutRoutes(state: TRazorpayState): TRoute[] {
  return [
    { method: 'GET', pattern: /^\/v1\/checkout\.js$/, handle: () => ({ js: script(state) }) },
    {
      method: 'GET',
      pattern: /^\/checkout\/page$/,
      handle: (request) => {
        const order = state.orders.get(request.query.get('order_id') ?? '');
        if (!order || request.query.get('key') !== state.keyId) return { status: 400, html: '<p>Unknown order or key.</p>' };
        return { html: page(order) };
      },
    },
    {
      method: 'POST',
      pattern: /^\/checkout\/pay$/,
      handle: (request) => ({ json: pay(state, String(request.body.order_id)).checkout }),
    },
    {
      method: 'POST',
      pattern: /^\/checkout\/fail$/,
      handle: (request) => {
        const { payment } = pay(state, String(request.body.order_id), { fail: true });
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
  ];
}
