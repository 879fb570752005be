import { createHmac } from 'node:crypto';
import { deliverWebhook, standInId } from '../stand-in-server.ts';
import type { TStripeState } from './state.ts';

/** An event signed as Stripe signs it: Stripe-Signature t=<unix>,v1=HMAC-SHA256("t.payload"). */
export function stripeEvent(state: TStripeState, type: string, object: unknown, created = state.now()) {
  const payload = JSON.stringify({
    id: standInId('evt_'),
    object: 'event',
    api_version: '2026-10-28.endive',
    created,
    type,
    data: { object },
    livemode: false,
  });
  const t = state.realNow();
  const signature = createHmac('sha256', state.webhookSecret).update(`${t}.${payload}`).digest('hex');
  return { body: payload, headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${signature}` } };
}

/** Signs an event and posts it to the app's webhook address, if one is set. */
export const sendStripeEvent = (state: TStripeState, type: string, object: unknown) =>
  void deliverWebhook(state.webhookUrl, stripeEvent(state, type, object), type, state.delivered);
