import { generateKeyPairSync } from 'node:crypto';
import type { TReply, TRequest } from '../stand-in-server.ts';

/** What the PayPal stand-in keeps between requests, shared by its resources. */

export type TMoney = { currency_code: string; value: string };
export type TCapture = {
  id: string;
  status: 'COMPLETED';
  amount: TMoney;
  custom_id: string;
  final_capture: true;
  create_time: string;
  supplementary_data: { related_ids: { order_id: string } };
};
export type TOrder = {
  id: string;
  intent: 'CAPTURE';
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED';
  purchase_units: { reference_id: string; custom_id: string; description: string; amount: TMoney; payments?: { captures: TCapture[] } }[];
  links: { href: string; rel: string; method: string }[];
  create_time: string;
  returnUrl: string;
  cancelUrl: string;
};

export type TPayPalOptions = { clientId?: string; clientSecret?: string; webhookId?: string; port?: number };
export type TPayPalState = ReturnType<typeof createPayPalState>;

export function createPayPalState(opts: TPayPalOptions) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    clientId: opts.clientId ?? 'paypal-standin-client',
    clientSecret: opts.clientSecret ?? 'paypal-standin-secret',
    webhookId: opts.webhookId ?? 'WH-STANDIN-1',
    privateKey,
    publicKey,
    tokens: new Set<string>(),
    orders: new Map<string, TOrder>(),
    webhookUrl: undefined as string | undefined,
    delivered: [] as { type: string; status: number }[],
    origin: '',
  };
}

export const bearer = (state: TPayPalState, request: TRequest) => state.tokens.has(String(request.headers.authorization ?? '').replace(/^Bearer /, ''));
export const unauthorized: TReply = { status: 401, json: { error: 'invalid_token', error_description: 'Token signature verification failed' } };
