import { notFound } from '../../../http/app-error.ts';
import type { TBillingContext } from '../billing-context.ts';
import type { TGatewayName } from '../gateways/gateway-http.ts';
import { paypalWebhook } from './paypal.ts';
import { razorpayWebhook } from './razorpay.ts';
import { stripeWebhook } from './stripe.ts';
import type { THeaders } from './webhook-request.ts';

/** A gateway's webhook: checked, applied once, in order. Throws for the gateway to retry. */
export async function handleWebhook(ctx: TBillingContext, name: TGatewayName, rawBody: Buffer, headers: THeaders): Promise<void> {
  const row = await ctx.repo.gatewayNamed(name);
  if (!row) throw notFound('Payment gateway');
  const gateway = ctx.deps.openGateway(row);
  const request = { rawBody, headers };
  switch (gateway.name) {
    case 'razorpay':
      return razorpayWebhook(ctx, gateway, request);
    case 'stripe':
      return stripeWebhook(ctx, gateway, request);
    case 'paypal':
      return paypalWebhook(ctx, gateway, request);
  }
}
