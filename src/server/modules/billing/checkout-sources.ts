import { GATEWAY_DEFAULT_ADDRESSES, ZGatewayConfiguration } from '../../../contract/admin.ts';
import type { TBillingContext } from './billing-context.ts';

/**
 * Origins the browser must be allowed to load Razorpay Checkout from (its script, and the
 * frame and calls it makes): every Razorpay gateway an admin has set up, so turning one on
 * works without a reload of pages already open.
 */
export async function checkoutSources(ctx: TBillingContext): Promise<string[]> {
  const origins = new Set<string>();
  for (const row of await ctx.repo.gatewaysNamed('razorpay')) {
    const configuration = ZGatewayConfiguration.safeParse(row.configuration);
    const config = configuration.success ? configuration.data : {};
    origins.add(new URL(config.checkoutScriptUrl ?? GATEWAY_DEFAULT_ADDRESSES.razorpay.checkoutScriptUrl).origin);
    origins.add(new URL(config.apiBaseUrl ?? GATEWAY_DEFAULT_ADDRESSES.razorpay.apiBaseUrl).origin);
  }
  return [...origins];
}
