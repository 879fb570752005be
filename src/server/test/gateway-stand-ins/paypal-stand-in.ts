import { approvalRoutes, approve } from './paypal/approval.ts';
import { oauthRoutes } from './paypal/oauth.ts';
import { orderRoutes } from './paypal/orders.ts';
import { createPayPalState, type TMoney, type TPayPalOptions } from './paypal/state.ts';
import { payPalWebhook, refundEvent, webhookRoutes } from './paypal/webhooks.ts';
import { startStandIn } from './stand-in-server.ts';

/*
 * PayPal on loopback: OAuth client credentials, Orders v2 (create, read, capture), the approval
 * page a buyer is sent to (approve or cancel on a click, then back to the return address with
 * token and PayerID), and webhooks signed as PayPal signs them: an RSA-SHA256 signature over
 * "transmission_id|transmission_time|webhook_id|crc32(body)", checked by its
 * verify-webhook-signature call.
 * Each resource lives in its own file under paypal/; this file routes to them and is what tests drive.
 */

export type TPayPalStandIn = Awaited<ReturnType<typeof startPayPalStandIn>>;

export async function startPayPalStandIn(opts: TPayPalOptions = {}) {
  const state = createPayPalState(opts);
  const server = await startStandIn([...oauthRoutes(state), ...orderRoutes(state), ...webhookRoutes(state), ...approvalRoutes(state)], opts.port);
  state.origin = server.url;

  return {
    url: server.url,
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    webhookId: state.webhookId,
    orders: state.orders,
    delivered: state.delivered,
    setWebhookUrl: (url: string | undefined) => (state.webhookUrl = url),
    /** The buyer approves on PayPal's page: the return address, with token and PayerID. */
    approve: (orderId: string) => approve(state, orderId),
    webhook: (eventType: string, resource: Record<string, unknown>) => payPalWebhook(state, eventType, resource),
    /** Refunds part of a capture: the PAYMENT.CAPTURE.REFUNDED event naming it by its "up" link. */
    refund: (captureId: string, amount: TMoney) => refundEvent(state, captureId, amount),
    close: server.close,
  };
}
