import { standInId, type TReply, type TRoute } from '../stand-in-server.ts';
import { bearer, unauthorized, type TCapture, type TMoney, type TOrder, type TPayPalState } from './state.ts';
import { sendPayPalWebhook } from './webhooks.ts';

/** Orders v2: create, read, and capture once the buyer has approved. */

const unprocessable = (issue: string, description: string): TReply => ({
  status: 422,
  json: { name: 'UNPROCESSABLE_ENTITY', message: 'The requested action could not be performed.', details: [{ issue, description }] },
});
const notFound: TReply = { status: 404, json: { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] } };

const view = (order: TOrder) => {
  const { returnUrl: _r, cancelUrl: _c, ...rest } = order;
  return rest;
};

type TCreateBody = {
  intent: string;
  purchase_units: { reference_id: string; custom_id: string; description: string; amount: TMoney }[];
  payment_source?: { paypal?: { experience_context?: { return_url?: string; cancel_url?: string } } };
};

function createOrder(state: TPayPalState, body: TCreateBody): TReply {
  const context = body.payment_source?.paypal?.experience_context;
  if (body.intent !== 'CAPTURE' || !body.purchase_units?.[0]?.amount || !context?.return_url || !context.cancel_url) {
    return { status: 400, json: { name: 'INVALID_REQUEST', details: [{ issue: 'MISSING_REQUIRED_PARAMETER' }] } };
  }
  const id = standInId('', 8).toUpperCase() + standInId('', 1).toUpperCase();
  const order: TOrder = {
    id,
    intent: 'CAPTURE',
    status: 'PAYER_ACTION_REQUIRED',
    purchase_units: body.purchase_units.map((u) => ({ ...u })),
    links: [
      { href: `${state.origin}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
      { href: `${state.origin}/checkoutnow?token=${id}`, rel: 'payer-action', method: 'GET' },
    ],
    create_time: new Date().toISOString(),
    returnUrl: context.return_url,
    cancelUrl: context.cancel_url,
  };
  state.orders.set(id, order);
  return { status: 200, json: view(order) };
}

function captureOrder(state: TPayPalState, order: TOrder): TReply {
  if (order.status === 'COMPLETED') return unprocessable('ORDER_ALREADY_CAPTURED', 'Order already captured.');
  if (order.status !== 'APPROVED') return unprocessable('ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
  const unit = order.purchase_units[0]!;
  const capture: TCapture = {
    id: standInId('', 8).toUpperCase() + 'CAP',
    status: 'COMPLETED',
    amount: unit.amount,
    custom_id: unit.custom_id,
    final_capture: true,
    create_time: new Date().toISOString(),
    supplementary_data: { related_ids: { order_id: order.id } },
  };
  unit.payments = { captures: [capture] };
  order.status = 'COMPLETED';
  sendPayPalWebhook(state, 'PAYMENT.CAPTURE.COMPLETED', capture);
  return { status: 201, json: view(order) };
}

export function orderRoutes(state: TPayPalState): TRoute[] {
  return [
    {
      method: 'POST',
      pattern: /^\/v2\/checkout\/orders$/,
      handle: (request) => (bearer(state, request) ? createOrder(state, request.body as TCreateBody) : unauthorized),
    },
    {
      method: 'GET',
      pattern: /^\/v2\/checkout\/orders\/([^/]+)$/,
      handle: (request) => {
        if (!bearer(state, request)) return unauthorized;
        const order = state.orders.get(request.params[0]!);
        return order ? { json: view(order) } : notFound;
      },
    },
    {
      method: 'POST',
      pattern: /^\/v2\/checkout\/orders\/([^/]+)\/capture$/,
      handle: (request) => {
        if (!bearer(state, request)) return unauthorized;
        const order = state.orders.get(request.params[0]!);
        return order ? captureOrder(state, order) : notFound;
      },
    },
  ];
}
