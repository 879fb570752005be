import { randomUUID, sign, verify } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { deliverWebhook, standInId, type TRoute } from '../stand-in-server.ts';
import { bearer, unauthorized, type TMoney, type TPayPalState } from './state.ts';

/**
 * Webhooks signed as PayPal signs them: an RSA-SHA256 signature over
 * "transmission_id|transmission_time|webhook_id|crc32(body)", checked by its
 * verify-webhook-signature call.
 */

const signedBase = (transmissionId: string, time: string, id: string, body: string) => `${transmissionId}|${time}|${id}|${crc32(Buffer.from(body))}`;

/** A webhook as PayPal sends it: compact JSON and the transmission headers that sign it. */
export function payPalWebhook(state: TPayPalState, eventType: string, resource: Record<string, unknown>) {
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
  const signature = sign('sha256', Buffer.from(signedBase(transmissionId, time, state.webhookId, body)), state.privateKey).toString('base64');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': `${state.origin}/v1/notifications/certs/CERT-STANDIN`,
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-sig': signature,
      'paypal-transmission-time': time,
    },
  };
}

/** Signs a webhook and posts it to the app's webhook address, if one is set. */
export const sendPayPalWebhook = (state: TPayPalState, eventType: string, resource: Record<string, unknown>) =>
  void deliverWebhook(state.webhookUrl, payPalWebhook(state, eventType, resource), eventType, state.delivered);

/** Refunds part of a capture: the PAYMENT.CAPTURE.REFUNDED event naming it by its "up" link. */
export function refundEvent(state: TPayPalState, captureId: string, amount: TMoney) {
  return payPalWebhook(state, 'PAYMENT.CAPTURE.REFUNDED', {
    id: standInId('', 8).toUpperCase() + 'REF',
    status: 'COMPLETED',
    amount,
    links: [
      { href: `${state.origin}/v2/payments/refunds/X`, rel: 'self', method: 'GET' },
      { href: `${state.origin}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
    ],
  });
}

export function webhookRoutes(state: TPayPalState): TRoute[] {
  return [
    {
      method: 'POST',
      pattern: /^\/v1\/notifications\/verify-webhook-signature$/,
      handle: (request) => {
        if (!bearer(state, request)) return unauthorized;
        const body = request.body as Record<string, unknown>;
        // As PayPal does, a field that is not what its schema says is a 400, not a FAILURE.
        if (typeof body.transmission_time !== 'string' || Number.isNaN(Date.parse(body.transmission_time))) {
          return {
            status: 400,
            json: {
              name: 'VALIDATION_ERROR',
              message: 'Invalid request - see details',
              details: [{ field: 'transmission_time', issue: 'INVALID_PARAMETER_SYNTAX' }],
            },
          };
        }
        const ok =
          body.webhook_id === state.webhookId &&
          body.auth_algo === 'SHA256withRSA' &&
          typeof body.transmission_sig === 'string' &&
          verify(
            'sha256',
            Buffer.from(signedBase(String(body.transmission_id), String(body.transmission_time), state.webhookId, JSON.stringify(body.webhook_event))),
            state.publicKey,
            Buffer.from(body.transmission_sig, 'base64'),
          );
        return { json: { verification_status: ok ? 'SUCCESS' : 'FAILURE' } };
      },
    },
  ];
}
