import { standInId, type TRoute } from '../stand-in-server.ts';
import { authed, now, unauthorized, type TOrder, type TRazorpayState } from './state.ts';

/** The Orders API: an order is what a buyer pays through Checkout. */
export function orderRoutes(state: TRazorpayState): TRoute[] {
  return [
    {
      method: 'POST',
      pattern: /^\/v1\/orders$/,
      handle: (request) => {
        if (!authed(state, request)) return unauthorized;
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
        state.orders.set(order.id, order);
        return { json: order };
      },
    },
  ];
}
