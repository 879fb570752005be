import { createHash } from 'node:crypto';
import { AppError } from '../../../http/app-error.ts';
import type { TBillingContext, TGatewayOf, TSettleContext } from '../billing-context.ts';
import { ZRazorpayEvent, type TRazorpayEvent } from '../gateways/razorpay.ts';
import { settleOrder } from '../record-payment.ts';
import { giveBackFromWebhook } from '../second-payment.ts';
import { badSignature, header, jsonBody, type TWebhookRequest } from './webhook-request.ts';

/** Razorpay's webhook: signed with the webhook secret (`X-Razorpay-Signature`, an HMAC of the body). */
export async function razorpayWebhook(ctx: TBillingContext, gateway: TGatewayOf<'razorpay'>, request: TWebhookRequest): Promise<void> {
  if (!gateway.client.webhookSignatureValid(request.rawBody, header(request, 'x-razorpay-signature'))) throw badSignature();
  const parsed = ZRazorpayEvent.safeParse(jsonBody(request));
  if (!parsed.success) throw new AppError('bad_request', 'The webhook body is not a Razorpay event.');
  const event = parsed.data;
  const eventId = header(request, 'x-razorpay-event-id') ?? createHash('sha256').update(request.rawBody).digest('hex');
  const settle = await ctx.settleContext();
  await giveBackFromWebhook(ctx, () => handleRazorpayEvent(ctx, settle, event, eventId));
}

/** A Razorpay event, applied once in one transaction (its id remembered with what it did). */
async function handleRazorpayEvent(ctx: TBillingContext, settle: TSettleContext, event: TRazorpayEvent, eventId: string): Promise<void> {
  await ctx.repo.transaction(async (tx) => {
    if (!(await tx.firstSighting('razorpay', eventId, event.event))) return;
    const payment = event.payload.payment?.entity;
    if ((event.event === 'payment.captured' || event.event === 'order.paid') && payment?.order_id) {
      const order = await tx.orderByGatewayId('razorpay', payment.order_id, true);
      if (!order) return void ctx.log.warn({ order: payment.order_id }, 'Razorpay payment for an order we did not create');
      if (payment.status !== 'captured') return;
      try {
        await settleOrder(ctx, tx, settle, order, {
          gatewayPaymentId: payment.id,
          chargeRef: payment.id,
          amountMinor: payment.amount,
          currency: payment.currency,
        });
      } catch (error) {
        // A mismatched amount is logged and left for a person; sending it again changes nothing.
        if (error instanceof AppError && error.code === 'bad_request') return;
        throw error;
      }
    } else if (event.event === 'payment.failed' && payment?.order_id) {
      const order = await tx.orderByGatewayId('razorpay', payment.order_id);
      if (order) await tx.setOrderStatus(order.id, 'failed');
    } else if (event.event.startsWith('refund.') && event.event !== 'refund.failed' && payment) {
      const updated = await tx.recordRefund('razorpay', { paymentId: payment.id }, { mode: 'total', amountMinor: payment.amount_refunded });
      if (updated) return;
      // The refund of a second payment we gave back: never recorded, so nothing to mark.
      const order = payment.order_id ? await tx.orderByGatewayId('razorpay', payment.order_id) : undefined;
      const first = order ? await tx.paymentOfOrder(order.id) : undefined;
      if (first && first.gatewayPaymentId !== payment.id) {
        return void ctx.log.info({ orderId: order!.id, payment: payment.id }, 'Razorpay refunded a second payment we gave back');
      }
      throw new AppError('conflict', 'The refunded payment is not recorded yet; send the event again later.');
    }
  });
}
