import { createHmac } from 'node:crypto';
import { deliverWebhook, standInId } from '../stand-in-server.ts';
import { now, type TRazorpayState } from './state.ts';

/** A webhook as Razorpay sends it: the body, and the headers that sign and name it. */
export function razorpayWebhook(state: TRazorpayState, event: string, payload: Record<string, { entity: unknown }>) {
  const body = JSON.stringify({ entity: 'event', account_id: 'acc_standin', event, contains: Object.keys(payload), payload, created_at: now() });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': createHmac('sha256', state.webhookSecret).update(body).digest('hex'),
      'x-razorpay-event-id': standInId('evt_'),
    },
  };
}

/** Signs a webhook and posts it to the app's webhook address, if one is set. */
export const sendRazorpayWebhook = (state: TRazorpayState, event: string, payload: Record<string, { entity: unknown }>) =>
  void deliverWebhook(state.webhookUrl, razorpayWebhook(state, event, payload), event, state.delivered);
