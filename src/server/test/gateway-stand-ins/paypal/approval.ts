import { checkoutPage, type TRoute } from '../stand-in-server.ts';
import type { TPayPalState } from './state.ts';

/**
 * The approval page a buyer is sent to: approve or cancel on a click, then back to the return
 * address with token and PayerID.
 */

/** The buyer approves on PayPal's page: the return address, with token and PayerID. */
export function approve(state: TPayPalState, orderId: string) {
  const order = state.orders.get(orderId)!;
  order.status = 'APPROVED';
  const back = new URL(order.returnUrl);
  back.searchParams.set('token', order.id);
  back.searchParams.set('PayerID', 'STANDINPAYER1');
  return back.toString();
}

export function approvalRoutes(state: TPayPalState): TRoute[] {
  return [
    {
      method: 'GET',
      pattern: /^\/checkoutnow$/,
      handle: (request) => {
        const order = state.orders.get(request.query.get('token') ?? '');
        if (!order || order.status !== 'PAYER_ACTION_REQUIRED') return { status: 404, html: '<p>This order cannot be approved.</p>' };
        const unit = order.purchase_units[0]!;
        return {
          html: checkoutPage({
            title: 'PayPal (stand-in)',
            amount: new Intl.NumberFormat('en-US', { style: 'currency', currency: unit.amount.currency_code }).format(Number(unit.amount.value)),
            description: unit.description,
            script: `
const go = (path) => fetch(path, { method: 'POST' }).then((r) => r.json()).then((d) => { location.href = d.redirect; });
document.getElementById('pay').onclick = () => go('/checkoutnow/${order.id}/approve');
document.getElementById('fail').onclick = () => go('/checkoutnow/${order.id}/cancel');`,
          }),
        };
      },
    },
    {
      method: 'POST',
      pattern: /^\/checkoutnow\/([^/]+)\/approve$/,
      handle: (request) => (state.orders.has(request.params[0]!) ? { json: { redirect: approve(state, request.params[0]!) } } : { status: 404, json: {} }),
    },
    {
      method: 'POST',
      pattern: /^\/checkoutnow\/([^/]+)\/cancel$/,
      handle: (request) => {
        const order = state.orders.get(request.params[0]!);
        if (!order) return { status: 404, json: {} };
        const back = new URL(order.cancelUrl);
        back.searchParams.set('token', order.id);
        return { json: { redirect: back.toString() } };
      },
    },
  ];
}
