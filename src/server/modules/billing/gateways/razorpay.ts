import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { gatewayJson, joinUrl } from './gateway-http.ts';

/*
 * Razorpay through its REST API with fetch: the official SDK always calls api.razorpay.com, and
 * the address must be configurable so staging and tests can use a stand-in. Orders API, Checkout
 * (the browser script), payment fetch, capture and refund, and webhooks signed with the webhook secret.
 */

export type TRazorpayConfig = { keyId: string; keySecret: string; webhookSecret: string | undefined; apiBaseUrl: string };

const ZOrder = z.object({ id: z.string(), amount: z.number(), currency: z.string(), status: z.string() });

export const ZRazorpayPayment = z.object({
  id: z.string(),
  order_id: z.string().nullable(),
  amount: z.number().int(),
  currency: z.string(),
  /** created, authorized, captured, refunded or failed */
  status: z.string(),
  amount_refunded: z.number().int().default(0),
  email: z.string().nullish(),
  created_at: z.number().optional(),
});
export type TRazorpayPayment = z.infer<typeof ZRazorpayPayment>;

export const ZRazorpayRefund = z.object({
  id: z.string(),
  payment_id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  /** pending, processed or failed */
  status: z.string(),
});
export type TRazorpayRefund = z.infer<typeof ZRazorpayRefund>;

export const ZRazorpayEvent = z.object({
  event: z.string(),
  created_at: z.number(),
  payload: z.object({
    payment: z.object({ entity: ZRazorpayPayment }).optional(),
    refund: z.object({ entity: z.object({ id: z.string(), payment_id: z.string(), amount: z.number().int() }) }).optional(),
  }),
});
export type TRazorpayEvent = z.infer<typeof ZRazorpayEvent>;

/** Constant-time comparison of two hex signatures. */
export function sameHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createRazorpayGateway(config: TRazorpayConfig) {
  const auth = `Basic ${Buffer.from(`${config.keyId}:${config.keySecret}`).toString('base64')}`;
  const call = <T>(method: string, path: string, body?: unknown) =>
    gatewayJson<T>('razorpay', joinUrl(config.apiBaseUrl, path), {
      method,
      headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });

  return {
    async createOrder(input: { amountMinor: number; currency: string; receipt: string; notes: Record<string, string> }) {
      const order = ZOrder.parse(
        await call('POST', '/v1/orders', { amount: input.amountMinor, currency: input.currency, receipt: input.receipt, notes: input.notes }),
      );
      return { id: order.id };
    },

    async fetchPayment(paymentId: string): Promise<TRazorpayPayment> {
      return ZRazorpayPayment.parse(await call('GET', `/v1/payments/${encodeURIComponent(paymentId)}`));
    },

    /** Payments are captured automatically on most accounts; one left authorized is captured here. */
    async capture(payment: TRazorpayPayment): Promise<TRazorpayPayment> {
      return ZRazorpayPayment.parse(
        await call('POST', `/v1/payments/${encodeURIComponent(payment.id)}/capture`, { amount: payment.amount, currency: payment.currency }),
      );
    },

    /**
     * Refunds `amountMinor` of a captured payment (POST /v1/payments/{id}/refund). Razorpay
     * answers 400 when the payment is not captured or has less left than that.
     */
    async refund(paymentId: string, amountMinor: number, notes: Record<string, string>): Promise<TRazorpayRefund> {
      return ZRazorpayRefund.parse(await call('POST', `/v1/payments/${encodeURIComponent(paymentId)}/refund`, { amount: amountMinor, speed: 'normal', notes }));
    },

    /** Checkout's signature: HMAC-SHA256 of `order_id|payment_id` under the key secret. */
    checkoutSignatureValid(orderId: string, paymentId: string, signature: string): boolean {
      const expected = createHmac('sha256', config.keySecret).update(`${orderId}|${paymentId}`).digest('hex');
      return sameHex(expected, signature);
    },

    /** A webhook's body is signed whole (HMAC-SHA256 under the webhook secret) in X-Razorpay-Signature. */
    webhookSignatureValid(rawBody: Buffer, signature: string | undefined): boolean {
      if (!config.webhookSecret || !signature) return false;
      const expected = createHmac('sha256', config.webhookSecret).update(rawBody).digest('hex');
      return sameHex(expected, signature);
    },
  };
}
export type TRazorpayGateway = ReturnType<typeof createRazorpayGateway>;
