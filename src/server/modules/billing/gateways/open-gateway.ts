import { GATEWAY_DEFAULT_ADDRESSES as DEFAULTS, ZGatewayConfiguration } from '../../../../contract/admin.ts';
import type { TSecretBox } from '../../../crypto/secret-box.ts';
import { AppError } from '../../../http/app-error.ts';
import type { TGatewayRow } from '../billing.repository.ts';
import { createPayPalGateway, type TPayPalGateway } from './paypal.ts';
import { createRazorpayGateway, type TRazorpayGateway } from './razorpay.ts';
import { createStripeGateway, type TStripeGateway } from './stripe.ts';

export type TOpenGateway =
  | { name: 'razorpay'; keyId: string; checkoutScriptUrl: string; client: TRazorpayGateway }
  | { name: 'stripe'; client: TStripeGateway }
  | { name: 'paypal'; client: TPayPalGateway };

const notConfigured = () => new AppError('unavailable', 'Payments are not set up correctly yet. Nothing was charged; please contact support.');

/**
 * A gateway's client from its stored row: secrets opened, addresses from its configuration. Kept
 * per row version, so PayPal's access token and Stripe's known products outlive one request.
 */
export function createGatewayOpener(secrets: TSecretBox) {
  const cache = new Map<string, { version: number; gateway: TOpenGateway }>();
  return function openGateway(row: TGatewayRow): TOpenGateway {
    const version = row.updatedAt.getTime();
    const cached = cache.get(row.id);
    if (cached?.version === version) return cached.gateway;
    const parsed = ZGatewayConfiguration.safeParse(row.configuration);
    const configuration = parsed.success ? parsed.data : {};
    const keySecret = row.keySecretEnc ? secrets.open(row.keySecretEnc) : undefined;
    const webhookSecret = row.webhookSecretEnc ? secrets.open(row.webhookSecretEnc) : undefined;
    if (!keySecret) throw notConfigured();
    let gateway: TOpenGateway;
    switch (row.gatewayName) {
      case 'razorpay':
        gateway = {
          name: 'razorpay',
          keyId: row.keyId,
          checkoutScriptUrl: configuration.checkoutScriptUrl ?? DEFAULTS.razorpay.checkoutScriptUrl,
          client: createRazorpayGateway({ keyId: row.keyId, keySecret, webhookSecret, apiBaseUrl: configuration.apiBaseUrl ?? DEFAULTS.razorpay.apiBaseUrl }),
        };
        break;
      case 'stripe':
        gateway = {
          name: 'stripe',
          client: createStripeGateway({ secretKey: keySecret, webhookSecret, apiBaseUrl: configuration.apiBaseUrl ?? DEFAULTS.stripe.apiBaseUrl }),
        };
        break;
      case 'paypal':
        gateway = {
          name: 'paypal',
          client: createPayPalGateway({
            clientId: row.keyId,
            clientSecret: keySecret,
            webhookId: configuration.webhookId,
            apiBaseUrl: configuration.apiBaseUrl ?? DEFAULTS.paypal.apiBaseUrl,
          }),
        };
        break;
    }
    cache.set(row.id, { version, gateway });
    return gateway;
  };
}
export type TGatewayOpener = ReturnType<typeof createGatewayOpener>;
