import { createHmac } from 'node:crypto';
import { basicAuth, type TRequest } from '../stand-in-server.ts';

/** What the Razorpay stand-in keeps between requests, shared by its resources. */

export type TOrder = {
  id: string;
  entity: 'order';
  amount: number;
  currency: string;
  receipt: string;
  status: string;
  notes: Record<string, string>;
  created_at: number;
};
export type TPayment = {
  id: string;
  entity: 'payment';
  order_id: string;
  amount: number;
  currency: string;
  status: 'authorized' | 'captured' | 'failed' | 'refunded';
  amount_refunded: number;
  email: string;
  method: 'card';
  captured: boolean;
  created_at: number;
};

export type TRazorpayOptions = { keyId?: string; keySecret?: string; webhookSecret?: string; port?: number };
export type TRazorpayState = ReturnType<typeof createRazorpayState>;

export function createRazorpayState(opts: TRazorpayOptions) {
  return {
    keyId: opts.keyId ?? 'rzp_test_standin',
    keySecret: opts.keySecret ?? 'razorpay-stand-in-key-secret',
    webhookSecret: opts.webhookSecret ?? 'razorpay-stand-in-webhook-secret',
    orders: new Map<string, TOrder>(),
    payments: new Map<string, TPayment>(),
    /** Refunds made through the API (POST /v1/payments/{id}/refund), in order. */
    refunds: [] as { id: string; payment_id: string; amount: number; currency: string; notes: Record<string, string>; status: 'processed' }[],
    /** Where payment events are posted as they happen (the app's webhook address), if set. */
    webhookUrl: undefined as string | undefined,
    delivered: [] as { type: string; status: number }[],
    origin: '',
  };
}

export const unauthorized = { status: 401, json: { error: { code: 'BAD_REQUEST_ERROR', description: 'The api key provided is invalid' } } };
export const authed = (state: TRazorpayState, request: TRequest) => {
  const auth = basicAuth(request.headers);
  return auth?.id === state.keyId && auth.secret === state.keySecret;
};
export const now = () => Math.floor(Date.now() / 1000);
/** The checkout signature: HMAC-SHA256("order_id|payment_id") under the key secret. */
export const checkoutSignature = (state: TRazorpayState, orderId: string, paymentId: string) =>
  createHmac('sha256', state.keySecret).update(`${orderId}|${paymentId}`).digest('hex');
