import { randomUUID } from 'node:crypto';
import type { TCheckout, TCreateOrderBody } from '../../../contract/billing.ts';
import { formatMinorUnits, periodCharge, planStorageKey } from '../../../contract/plan-catalogue.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TBillingContext, TGatewayOf } from './billing-context.ts';
import { describe } from './billing-terms.ts';
import { priceCheckout, type TPricing } from './pricing.ts';
import { QUOTE_LIFETIME_MS, tokenHash } from './quote.ts';
import { settleStripeInvoice } from './stripe-settlement.ts';

/** `premium_yearly` as a sentence says it: "Premium (yearly)". */
const planWords = (planKey: string) => {
  const [plan = planKey, cycle = ''] = planKey.split('_');
  return `${plan[0]!.toUpperCase()}${plan.slice(1)} (${cycle})`;
};

/**
 * Starts paying for `planKey` (a first plan, an upgrade, or a manual renewal) as quoted: the
 * confirmation must be a quote for this plan, given to this sign-in session, unused and
 * unexpired, and the price must still be the one quoted. Otherwise nothing is charged and
 * nothing is created at the gateway.
 */
export async function startCheckout(ctx: TBillingContext, ownerId: string, sessionKey: string, body: TCreateOrderBody): Promise<TCheckout> {
  const { repo } = ctx;
  const planKey = body.planId;
  const hash = tokenHash(body.confirm);
  const quote = await repo.quote(hash, ownerId);
  const refuse = (code: 'bad_request' | 'forbidden' | 'conflict', message: string, field: string): never => {
    ctx.log.info({ ownerId, planKey, reason: field }, 'create-order refused: the confirmation does not hold');
    throw new AppError(code, `${message} Nothing was charged.`, { confirm: field });
  };
  if (!quote) refuse('bad_request', 'This payment was not confirmed: review the price and confirm it again.', 'This confirmation is not one we gave you.');
  if (quote!.sessionKey !== sessionKey) {
    refuse(
      'forbidden',
      'This confirmation was given in another sign-in. Review the price here and confirm it again.',
      'This confirmation belongs to another sign-in.',
    );
  }
  const quoted = planStorageKey(quote!.planId, quote!.cycle);
  if (quoted !== planKey) {
    refuse('bad_request', `This confirmation is for the ${planWords(quoted)} plan, not ${planWords(planKey)}.`, 'This confirmation is for another plan.');
  }
  if (quote!.usedAt) refuse('conflict', 'This confirmation was already used: each one pays once.', 'This confirmation was already used.');
  const at = ctx.now();
  if (quote!.expiresAt.getTime() <= at.getTime()) {
    refuse(
      'conflict',
      `This confirmation has expired (they last ${QUOTE_LIFETIME_MS / 60_000} minutes). Review the price and confirm it again.`,
      'This confirmation has expired.',
    );
  }
  // The price again, as of the instant it was quoted: anything that changed it since (the
  // catalogue, the subscription, the gateway) shows here as a different amount.
  const pricing = await priceCheckout(ctx, ownerId, planKey, quote!.pricedAt);
  if (pricing.amount !== quote!.amountMinor || pricing.currency !== quote!.currency || pricing.gateway.name !== quote!.gateway) {
    ctx.log.info(
      { ownerId, planKey, quoted: [quote!.amountMinor, quote!.currency], now: [pricing.amount, pricing.currency] },
      'create-order refused: the price changed since the quote',
    );
    throw new AppError(
      'conflict',
      `The price changed since you reviewed it: it is now ${formatMinorUnits(pricing.amount, pricing.currency)}, not ${formatMinorUnits(quote!.amountMinor, quote!.currency)}. Nothing was charged; review the new price and confirm it.`,
      { confirm: 'The price changed since this confirmation.' },
    );
  }
  if (!(await repo.takeQuote(hash, ownerId, sessionKey, at))) {
    refuse('conflict', 'This confirmation was already used: each one pays once.', 'This confirmation was already used.');
  }
  return chargeAsPriced(ctx, ownerId, pricing);
}

/** The order at the gateway for a price worked out by `priceCheckout`, or the card charged for a Stripe change. */
async function chargeAsPriced(ctx: TBillingContext, ownerId: string, pricing: TPricing): Promise<TCheckout> {
  const { repo } = ctx;
  const { publicUrl } = ctx.deps;
  const { target, planKey, plan, current, gateway, currency, kind, amount, credit, lines } = pricing;
  // A team's checkout comes back to the team's pages, which name it in their address.
  const inTeam = pricing.workspace.kind === 'team' ? `&team=${encodeURIComponent(ownerId)}` : '';
  // The gateway's checkout is filled in with the person who pays.
  const payer = await repo.payer(ownerId);
  if (!payer) throw notFound('User');
  if (pricing.stripeChange && gateway.name === 'stripe') return changeStripePlan(ctx, ownerId, gateway, pricing, pricing.stripeChange);
  const orderId = randomUUID();
  const order = { id: orderId, ownerId, planId: target.plan, cycle: target.cycle, amountMinor: amount, currency, kind, creditMinor: credit, lines };
  const common = { orderId: '', amount, currency, credit, planId: target.plan, cycle: target.cycle } as const;
  switch (gateway.name) {
    case 'razorpay': {
      const created = await ctx.gatewayCall('razorpay', () =>
        gateway.client.createOrder({ amountMinor: amount, currency, receipt: orderId, notes: { ownerId, plan: planKey } }),
      );
      await repo.insertOrder({ ...order, gateway: 'razorpay', gatewayOrderId: created.id });
      return {
        ...common,
        gateway: 'razorpay',
        orderId: created.id,
        next: {
          type: 'razorpay',
          checkoutScriptUrl: gateway.checkoutScriptUrl,
          options: {
            key: gateway.keyId,
            order_id: created.id,
            amount,
            currency,
            name: 'Formwork',
            description: lines[0]!.description,
            prefill: { name: [payer.firstName, payer.lastName].filter(Boolean).join(' '), email: payer.email },
          },
        },
      };
    }
    case 'paypal': {
      const created = await ctx.gatewayCall('paypal', () =>
        gateway.client.createOrder({
          orderId,
          amountMinor: amount,
          currency,
          description: lines[0]!.description,
          returnUrl: `${publicUrl}/payment-success?gateway=paypal&plan=${planKey}${inTeam}`,
          cancelUrl: `${publicUrl}/settings?tab=billing&payment=cancelled${inTeam}`,
        }),
      );
      await repo.insertOrder({ ...order, gateway: 'paypal', gatewayOrderId: created.id });
      return { ...common, gateway: 'paypal', orderId: created.id, next: { type: 'redirect', url: created.approveUrl } };
    }
    case 'stripe': {
      const session = await ctx.gatewayCall('stripe', () =>
        gateway.client.createCheckoutSession({
          orderId,
          ownerId,
          email: payer.email,
          customerId: current?.gatewayCustomerId ?? null,
          price: { planId: target.plan, cycle: target.cycle, amountMinor: amount, currency, productName: `Formwork ${plan.name}` },
          successUrl: `${publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}&plan=${planKey}${inTeam}`,
          cancelUrl: `${publicUrl}/settings?tab=billing&payment=cancelled${inTeam}`,
        }),
      );
      if (!session.url) throw new AppError('unavailable', 'Stripe did not give a checkout page. Nothing was charged; try again.');
      await repo.insertOrder({ ...order, gateway: 'stripe', gatewayOrderId: session.id });
      return { ...common, gateway: 'stripe', orderId: session.id, next: { type: 'redirect', url: session.url } };
    }
  }
}

/** A Stripe subscriber's change: the saved card is charged at once, as Stripe previewed it. */
async function changeStripePlan(
  ctx: TBillingContext,
  ownerId: string,
  gateway: TGatewayOf<'stripe'>,
  pricing: TPricing,
  change: NonNullable<TPricing['stripeChange']>,
): Promise<TCheckout> {
  const { plan, target } = pricing;
  const cycle = target.cycle;
  const how = { newPeriod: change.newPeriod };
  const amount = periodCharge(plan, 'USD', cycle)!;
  const updated = await ctx.gatewayCall('stripe', () =>
    gateway.client.changePrice(
      change.subscriptionId,
      { planId: plan.id, cycle, amountMinor: amount, currency: 'USD', productName: `Formwork ${plan.name}` },
      { charge: 'now', newPeriod: change.newPeriod, prorationDate: change.prorationDate },
    ),
  );
  const invoice = typeof updated.latest_invoice === 'object' ? updated.latest_invoice : null;
  if (!invoice || invoice.status !== 'paid') {
    throw new AppError('payment_failed', 'Stripe could not charge your card for the change. Your plan has not changed.');
  }
  if (invoice.amount_paid !== pricing.amount) {
    ctx.log.warn({ ownerId, invoice: invoice.id, quoted: pricing.amount, paid: invoice.amount_paid }, 'Stripe charged another amount than it previewed');
  }
  const settle = await ctx.settleContext();
  await ctx.repo.transaction(async (tx) => {
    await tx.insertOrder({
      id: randomUUID(),
      ownerId,
      gateway: 'stripe',
      gatewayOrderId: invoice.id!,
      planId: plan.id,
      cycle,
      amountMinor: invoice.amount_paid,
      currency: 'USD',
      kind: how.newPeriod ? 'new' : 'upgrade',
      creditMinor: pricing.credit,
      lines: invoice.lines.data.map((l) => ({ description: l.description ?? describe(plan, cycle), amountMinor: l.amount })),
    });
    const order = await tx.orderByGatewayId('stripe', invoice.id!, true);
    await settleStripeInvoice(ctx, tx, settle, invoice, updated, order, ctx.now());
  });
  return {
    gateway: 'stripe',
    orderId: invoice.id!,
    amount: invoice.amount_paid,
    currency: 'USD',
    credit: pricing.credit,
    planId: plan.id,
    cycle,
    next: { type: 'done' },
  };
}
