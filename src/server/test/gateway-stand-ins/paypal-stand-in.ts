import { generateKeyPairSync, randomUUID, sign, verify } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { basicAuth, checkoutPage, deliverWebhook, standInId, startStandIn, type TReply, type TRequest } from './stand-in-server.ts';

/*
 * PayPal on loopback: OAuth client credentials, Orders v2 (create, read, capture), the approval
 * page a buyer is sent to (approve or cancel on a click, then back to the return address with
 * token and PayerID), and webhooks signed as PayPal signs them: an RSA-SHA256 signature over
 * "transmission_id|transmission_time|webhook_id|crc32(body)", checked by its
 * verify-webhook-signature call.
 */

export type TPayPalStandIn = Awaited<ReturnType<typeof startPayPalStandIn>>;

type TMoney = { currency_code: string; value: string };
type TCapture = {
  id: string;
  status: 'COMPLETED';
  amount: TMoney;
  custom_id: string;
  final_capture: true;
  create_time: string;
  supplementary_data: { related_ids: { order_id: string } };
};
type TOrder = {
  id: string;
  intent: 'CAPTURE';
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED';
  purchase_units: { reference_id: string; custom_id: string; description: string; amount: TMoney; payments?: { captures: TCapture[] } }[];
  links: { href: string; rel: string; method: string }[];
  create_time: string;
  returnUrl: string;
  cancelUrl: string;
};

export async function startPayPalStandIn(opts: { clientId?: string; clientSecret?: string; webhookId?: string; port?: number } = {}) {
  const clientId = opts.clientId ?? 'paypal-standin-client';
  const clientSecret = opts.clientSecret ?? 'paypal-standin-secret';
  const webhookId = opts.webhookId ?? 'WH-STANDIN-1';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const tokens = new Set<string>();
  const orders = new Map<string, TOrder>();
  let webhookUrl: string | undefined;
  const delivered: { type: string; status: number }[] = [];
  let origin = '';

  const bearer = (request: TRequest) => tokens.has(String(request.headers.authorization ?? '').replace(/^Bearer /, ''));
  const unauthorized: TReply = { status: 401, json: { error: 'invalid_token', error_description: 'Token signature verification failed' } };
  const unprocessable = (issue: string, description: string): TReply => ({
    status: 422,
    json: { name: 'UNPROCESSABLE_ENTITY', message: 'The requested action could not be performed.', details: [{ issue, description }] },
  });
  const view = (order: TOrder) => {
    const { returnUrl: _r, cancelUrl: _c, ...rest } = order;
    return rest;
  };

  const signedBase = (transmissionId: string, time: string, id: string, body: string) => `${transmissionId}|${time}|${id}|${crc32(Buffer.from(body))}`;

  /** A webhook as PayPal sends it: compact JSON and the transmission headers that sign it. */
  function webhook(eventType: string, resource: Record<string, unknown>) {
    const body = JSON.stringify({
      id: `WH-${standInId('', 8).toUpperCase()}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: eventType.startsWith('PAYMENT.CAPTURE.REFUNDED') ? 'refund' : 'capture',
      event_type: eventType,
      summary: eventType,
      resource,
    });
    const transmissionId = randomUUID();
    const time = new Date().toISOString();
    const signature = sign('sha256', Buffer.from(signedBase(transmissionId, time, webhookId, body)), privateKey).toString('base64');
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': `${origin}/v1/notifications/certs/CERT-STANDIN`,
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-sig': signature,
        'paypal-transmission-time': time,
      },
    };
  }

  const deliver = (hook: ReturnType<typeof webhook>, type: string) => deliverWebhook(webhookUrl, hook, type, delivered);

  function approve(orderId: string) {
    const order = orders.get(orderId)!;
    order.status = 'APPROVED';
    const back = new URL(order.returnUrl);
    back.searchParams.set('token', order.id);
    back.searchParams.set('PayerID', 'STANDINPAYER1');
    return back.toString();
  }

  const server = await startStandIn(
    [
      {
        method: 'POST',
        pattern: /^\/v1\/oauth2\/token$/,
        handle: (request) => {
          const auth = basicAuth(request.headers);
          if (auth?.id !== clientId || auth.secret !== clientSecret || request.body.grant_type !== 'client_credentials') {
            return { status: 401, json: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
          }
          const token = standInId('A21AA', 24);
          tokens.add(token);
          return { json: { scope: 'https://uri.paypal.com/services/payments/payment', access_token: token, token_type: 'Bearer', app_id: 'APP-STANDIN', expires_in: 32_400 } };
        },
      },
      {
        method: 'POST',
        pattern: /^\/v2\/checkout\/orders$/,
        handle: (request) => {
          if (!bearer(request)) return unauthorized;
          const body = request.body as {
            intent: string;
            purchase_units: { reference_id: string; custom_id: string; description: string; amount: TMoney }[];
            payment_source?: { paypal?: { experience_context?: { return_url?: string; cancel_url?: string } } };
          };
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
              { href: `${origin}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
              { href: `${origin}/checkoutnow?token=${id}`, rel: 'payer-action', method: 'GET' },
            ],
            create_time: new Date().toISOString(),
            returnUrl: context.return_url,
            cancelUrl: context.cancel_url,
          };
          orders.set(id, order);
          return { status: 200, json: view(order) };
        },
      },
      {
        method: 'GET',
        pattern: /^\/v2\/checkout\/orders\/([^/]+)$/,
        handle: (request) => {
          if (!bearer(request)) return unauthorized;
          const order = orders.get(request.params[0]!);
          return order ? { json: view(order) } : { status: 404, json: { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] } };
        },
      },
      {
        method: 'POST',
        pattern: /^\/v2\/checkout\/orders\/([^/]+)\/capture$/,
        handle: (request) => {
          if (!bearer(request)) return unauthorized;
          const order = orders.get(request.params[0]!);
          if (!order) return { status: 404, json: { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] } };
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
          void deliver(webhook('PAYMENT.CAPTURE.COMPLETED', capture), 'PAYMENT.CAPTURE.COMPLETED');
          return { status: 201, json: view(order) };
        },
      },
      {
        method: 'POST',
        pattern: /^\/v1\/notifications\/verify-webhook-signature$/,
        handle: (request) => {
          if (!bearer(request)) return unauthorized;
          const body = request.body as Record<string, unknown>;
          const ok =
            body.webhook_id === webhookId &&
            body.auth_algo === 'SHA256withRSA' &&
            typeof body.transmission_sig === 'string' &&
            verify(
              'sha256',
              Buffer.from(signedBase(String(body.transmission_id), String(body.transmission_time), webhookId, JSON.stringify(body.webhook_event))),
              publicKey,
              Buffer.from(body.transmission_sig, 'base64'),
            );
          return { json: { verification_status: ok ? 'SUCCESS' : 'FAILURE' } };
        },
      },
      {
        method: 'GET',
        pattern: /^\/checkoutnow$/,
        handle: (request) => {
          const order = orders.get(request.query.get('token') ?? '');
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
        handle: (request) => (orders.has(request.params[0]!) ? { json: { redirect: approve(request.params[0]!) } } : { status: 404, json: {} }),
      },
      {
        method: 'POST',
        pattern: /^\/checkoutnow\/([^/]+)\/cancel$/,
        handle: (request) => {
          const order = orders.get(request.params[0]!);
          if (!order) return { status: 404, json: {} };
          const back = new URL(order.cancelUrl);
          back.searchParams.set('token', order.id);
          return { json: { redirect: back.toString() } };
        },
      },
    ],
    opts.port,
  );
  origin = server.url;

  return {
    url: server.url,
    clientId,
    clientSecret,
    webhookId,
    orders,
    delivered,
    setWebhookUrl: (url: string | undefined) => (webhookUrl = url),
    /** The buyer approves on PayPal's page: the return address, with token and PayerID. */
    approve,
    webhook,
    /** Refunds part of a capture: the PAYMENT.CAPTURE.REFUNDED event naming it by its "up" link. */
    refund(captureId: string, amount: TMoney) {
      return webhook('PAYMENT.CAPTURE.REFUNDED', {
        id: standInId('', 8).toUpperCase() + 'REF',
        status: 'COMPLETED',
        amount,
        links: [
          { href: `${origin}/v2/payments/refunds/X`, rel: 'self', method: 'GET' },
          { href: `${origin}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
        ],
      });
    },
    close: server.close,
  };
}
