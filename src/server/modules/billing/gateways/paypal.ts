import { z } from 'zod';
import { GatewayRefusal, gatewayJson, joinUrl } from './gateway-http.ts';

/*
 * PayPal Orders v2 through its REST API with fetch: the official server SDK only knows PayPal's
 * own two hosts, and the address must be configurable. An order is created, the buyer approves it
 * on PayPal's page, and the server captures it. Webhooks are verified by PayPal's own
 * verify-webhook-signature call, against the webhook id the operator registered.
 */

export type TPayPalConfig = { clientId: string; clientSecret: string; webhookId: string | undefined; apiBaseUrl: string };

const ZMoney = z.object({ currency_code: z.string(), value: z.string() });

const ZCapture = z.object({
  id: z.string(),
  status: z.string(),
  amount: ZMoney,
  custom_id: z.string().optional(),
  supplementary_data: z.object({ related_ids: z.object({ order_id: z.string().optional() }).optional() }).optional(),
});
export type TPayPalCapture = z.infer<typeof ZCapture>;

export const ZPayPalOrder = z.object({
  id: z.string(),
  status: z.string(),
  links: z.array(z.object({ href: z.string(), rel: z.string() })).default([]),
  purchase_units: z
    .array(
      z.object({
        reference_id: z.string().optional(),
        custom_id: z.string().optional(),
        amount: ZMoney.optional(),
        payments: z.object({ captures: z.array(ZCapture).default([]) }).optional(),
      }),
    )
    .default([]),
});
export type TPayPalOrder = z.infer<typeof ZPayPalOrder>;

export const ZPayPalEvent = z.object({
  id: z.string(),
  event_type: z.string(),
  create_time: z.string(),
  resource: z.record(z.string(), z.unknown()),
});
export type TPayPalEvent = z.infer<typeof ZPayPalEvent>;

/** PayPal writes amounts as decimal strings in major units. */
export const paypalValue = (amountMinor: number) => (amountMinor / 100).toFixed(2);
export const paypalMinor = (value: string) => Math.round(Number(value) * 100);

const WEBHOOK_HEADERS = ['paypal-auth-algo', 'paypal-cert-url', 'paypal-transmission-id', 'paypal-transmission-sig', 'paypal-transmission-time'] as const;

export function createPayPalGateway(config: TPayPalConfig) {
  let token: { value: string; expiresAt: number } | undefined;
  const basic = `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now() + 60_000) return token.value;
    const answer = await gatewayJson<{ access_token: string; expires_in: number }>('paypal', joinUrl(config.apiBaseUrl, '/v1/oauth2/token'), {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    token = { value: answer.access_token, expiresAt: Date.now() + answer.expires_in * 1000 };
    return token.value;
  }

  async function call<T>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
    return gatewayJson<T>('paypal', joinUrl(config.apiBaseUrl, path), {
      method,
      headers: {
        authorization: `Bearer ${await accessToken()}`,
        'content-type': 'application/json',
        ...extraHeaders,
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  }

  return {
    async createOrder(input: { orderId: string; amountMinor: number; currency: string; description: string; returnUrl: string; cancelUrl: string }) {
      const order = ZPayPalOrder.parse(
        await call(
          'POST',
          '/v2/checkout/orders',
          {
            intent: 'CAPTURE',
            purchase_units: [
              {
                reference_id: input.orderId,
                custom_id: input.orderId,
                description: input.description,
                amount: { currency_code: input.currency, value: paypalValue(input.amountMinor) },
              },
            ],
            payment_source: {
              paypal: {
                experience_context: {
                  brand_name: 'Formwork',
                  user_action: 'PAY_NOW',
                  shipping_preference: 'NO_SHIPPING',
                  return_url: input.returnUrl,
                  cancel_url: input.cancelUrl,
                },
              },
            },
          },
          // The order's creation is safe to repeat under this id, should the answer be lost.
          { 'paypal-request-id': input.orderId },
        ),
      );
      const approve = order.links.find((l) => l.rel === 'payer-action' || l.rel === 'approve');
      if (!approve) throw new GatewayRefusal('paypal', 200, { message: 'no approval link in the order' });
      return { id: order.id, approveUrl: approve.href };
    },

    async getOrder(id: string): Promise<TPayPalOrder> {
      return ZPayPalOrder.parse(await call('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`));
    },

    /**
     * Captures an approved order; an order captured already (by an earlier return or a retry) is
     * read back instead, so the same capture is found either way.
     */
    async capture(id: string): Promise<TPayPalOrder> {
      try {
        return ZPayPalOrder.parse(await call('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, {}, { 'paypal-request-id': `capture-${id}` }));
      } catch (error) {
        const issue = error instanceof GatewayRefusal ? JSON.stringify(error.body) : '';
        if (error instanceof GatewayRefusal && error.status === 422 && issue.includes('ORDER_ALREADY_CAPTURED')) return this.getOrder(id);
        throw error;
      }
    },

    /** Asks PayPal whether a webhook's transmission signature is its own, for our webhook id. */
    async webhookValid(headers: Record<string, string | string[] | undefined>, event: unknown): Promise<boolean> {
      if (!config.webhookId) return false;
      const values = WEBHOOK_HEADERS.map((name) => headers[name]);
      if (values.some((v) => typeof v !== 'string' || v.length === 0)) return false;
      const [authAlgo, certUrl, transmissionId, transmissionSig, transmissionTime] = values as string[];
      try {
        const answer = await call<{ verification_status: string }>('POST', '/v1/notifications/verify-webhook-signature', {
          auth_algo: authAlgo,
          cert_url: certUrl,
          transmission_id: transmissionId,
          transmission_sig: transmissionSig,
          transmission_time: transmissionTime,
          webhook_id: config.webhookId,
          webhook_event: event,
        });
        return answer.verification_status === 'SUCCESS';
      } catch (error) {
        // PayPal refuses malformed transmission headers as a bad request: that is the sender's
        // forgery, not a fault in our PayPal settings (which PayPal answers with 401 or 403).
        if (error instanceof GatewayRefusal && (error.status === 400 || error.status === 422)) return false;
        throw error;
      }
    },
  };
}
export type TPayPalGateway = ReturnType<typeof createPayPalGateway>;

/** The completed capture of an order, if there is one. */
export function completedCapture(order: TPayPalOrder): TPayPalCapture | undefined {
  return order.purchase_units.flatMap((u) => u.payments?.captures ?? []).find((c) => c.status === 'COMPLETED');
}
