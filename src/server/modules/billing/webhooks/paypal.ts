import { AppError } from '../../../http/app-error.ts';
import type { TBillingContext, TGatewayOf } from '../billing-context.ts';
import { paypalMinor, ZPayPalEvent, type TPayPalEvent } from '../gateways/paypal.ts';
import { settleOrder } from '../record-payment.ts';
import { giveBackFromWebhook } from '../second-payment.ts';
import { badSignature, jsonBody, type TWebhookRequest } from './webhook-request.ts';

/** PayPal's webhook: its signature is confirmed by PayPal's own `verify-webhook-signature`. */
export async function paypalWebhook(ctx: TBillingContext, gateway: TGatewayOf<'paypal'>, request: TWebhookRequest): Promise<void> {
  const body = jsonBody(request);
  const valid = await ctx.gatewayCall('paypal', () => gateway.client.webhookValid(request.headers, body));
  if (!valid) throw badSignature();
  const parsed = ZPayPalEvent.safeParse(body);
  if (!parsed.success) throw new AppError('bad_request', 'The webhook body is not a PayPal event.');
  await giveBackFromWebhook(ctx, () => handlePayPalEvent(ctx, parsed.data));
}

/** A PayPal event whose signature PayPal confirmed, applied once. */
async function handlePayPalEvent(ctx: TBillingContext, event: TPayPalEvent): Promise<void> {
  const resource = event.resource as {
    id?: string;
    status?: string;
    amount?: { value: string; currency_code: string };
    supplementary_data?: { related_ids?: { order_id?: string } };
    links?: { rel: string; href: string }[];
  };
  const settle = await ctx.settleContext();
  await ctx.repo.transaction(async (tx) => {
    if (!(await tx.firstSighting('paypal', event.id, event.event_type))) return;
    const orderId = resource.supplementary_data?.related_ids?.order_id;
    if (event.event_type === 'PAYMENT.CAPTURE.COMPLETED' && orderId && resource.id && resource.amount) {
      const order = await tx.orderByGatewayId('paypal', orderId, true);
      if (!order) return void ctx.log.warn({ order: orderId }, 'PayPal capture for an order we did not create');
      try {
        await settleOrder(ctx, tx, settle, order, {
          gatewayPaymentId: resource.id,
          chargeRef: resource.id,
          amountMinor: paypalMinor(resource.amount.value),
          currency: resource.amount.currency_code,
        });
      } catch (error) {
        if (error instanceof AppError && error.code === 'bad_request') return;
        throw error;
      }
    } else if (event.event_type === 'PAYMENT.CAPTURE.DENIED' && orderId) {
      const order = await tx.orderByGatewayId('paypal', orderId);
      if (order) await tx.setOrderStatus(order.id, 'failed');
    } else if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED' && resource.amount) {
      // A refund names its capture through its "up" link.
      const captureId = resource.links
        ?.find((l) => l.rel === 'up')
        ?.href.split('/')
        .pop();
      if (!captureId) return;
      const updated = await tx.recordRefund('paypal', { paymentId: captureId }, { mode: 'add', amountMinor: paypalMinor(resource.amount.value) });
      if (!updated) throw new AppError('conflict', 'The refunded payment is not recorded yet; send the event again later.');
    }
  });
}
