import { createHash, randomBytes } from 'node:crypto';
import type { TCheckoutQuote } from '../../../contract/billing.ts';
import { planStorageKey } from '../../../contract/plan-catalogue.ts';
import { AppError } from '../../http/app-error.ts';
import type { TBillingContext } from './billing-context.ts';
import type { TGatewayName } from './gateways/gateway-http.ts';
import { priceCheckout } from './pricing.ts';

/** A confirmation lasts long enough to read the price, not long enough to be saved up for later. */
export const QUOTE_LIFETIME_MS = 15 * 60_000;

/** Quotes one user may ask for within a quote's lifetime. */
const QUOTES_PER_LIFETIME = 30;

/** Confirmation tokens are kept only as this hash: the database never holds one that could be replayed. */
export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const PAGE_LABEL: Record<TGatewayName, string> = { razorpay: 'Razorpay', stripe: 'Stripe Checkout', paypal: 'PayPal' };

/**
 * What paying for `planKey` would charge, and a one-time token to confirm it with. Nothing is
 * created at the gateway: the money moves only through create-order with this token.
 */
export async function quote(ctx: TBillingContext, ownerId: string, sessionKey: string, planKey: string): Promise<TCheckoutQuote> {
  const { repo } = ctx;
  // Each quote may ask the gateway for a preview and the saved card: a user gets plenty, a
  // script looping on it does not get to spend the installation's gateway rate limits.
  if ((await repo.quotesSince(ownerId, new Date(Date.now() - QUOTE_LIFETIME_MS))) >= QUOTES_PER_LIFETIME) {
    throw new AppError('rate_limited', 'You have asked for many prices in a short time. Wait a few minutes, then choose the plan again.');
  }
  const at = ctx.now();
  const pricing = await priceCheckout(ctx, ownerId, planKey, at);
  const gateway = pricing.gateway;
  let paidWith: TCheckoutQuote['paidWith'];
  if (pricing.stripeChange && gateway.name === 'stripe') {
    const subscriptionId = pricing.stripeChange.subscriptionId;
    const card = await ctx.gatewayCall('stripe', () => gateway.client.savedCard(subscriptionId));
    paidWith = { type: 'card', brand: card?.brand ?? null, last4: card?.last4 ?? null };
  } else {
    paidWith = { type: 'page', gateway: gateway.name, label: PAGE_LABEL[gateway.name] };
  }
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(at.getTime() + QUOTE_LIFETIME_MS);
  await repo.insertQuote({
    tokenHash: tokenHash(token),
    ownerId,
    sessionKey,
    planId: pricing.target.plan,
    cycle: pricing.target.cycle,
    gateway: gateway.name,
    amountMinor: pricing.amount,
    currency: pricing.currency,
    pricedAt: at,
    expiresAt,
  });
  return {
    planId: pricing.target.plan,
    cycle: pricing.target.cycle,
    planKey: planStorageKey(pricing.target.plan, pricing.target.cycle),
    planName: pricing.plan.name,
    kind: pricing.kind,
    gateway: gateway.name,
    amount: pricing.amount,
    credit: pricing.credit,
    currency: pricing.currency,
    lines: pricing.lines.map((line) => ({ description: line.description, amount: line.amountMinor })),
    chargeAt: at.toISOString(),
    chargesNow: pricing.stripeChange !== undefined,
    paidWith,
    period: { start: pricing.period.start.toISOString(), end: pricing.period.end.toISOString() },
    confirm: token,
    expiresAt: expiresAt.toISOString(),
  };
}
