import type { TInvoiceDetails } from '../../../contract/billing.ts';
import { parsePlanKey, type TBillingCycle, type TCurrency, type TPlan, type TPlanId } from '../../../contract/plans.ts';
import { periodCharge, planChange, planStorageKey } from '../../../contract/plan-catalogue.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TBillingQueries, TOrderRow, TSubscriptionRow } from './billing.repository.ts';
import { currentSubscription, type TBillingContext, type TGatewayOf } from './billing-context.ts';
import { currencyOf, day, describe } from './billing-terms.ts';
import type { TOpenGateway } from './gateways/open-gateway.ts';
import { addDays, periodEnd, RENEWAL_WINDOW_DAYS, unusedShare } from './periods.ts';

/** Gateways refuse tiny charges; an upgrade late in a period costs at least one unit of money. */
const MIN_CHARGE_MINOR = 100;

/** What a checkout costs and how it is paid, worked out once for the quote and again for the charge. */
export type TPricing = {
  target: { plan: TPlanId; cycle: TBillingCycle };
  planKey: string;
  plan: TPlan;
  workspace: NonNullable<Awaited<ReturnType<TBillingQueries['workspace']>>>;
  current: TSubscriptionRow | undefined;
  gateway: TOpenGateway;
  currency: TCurrency;
  kind: TOrderRow['kind'];
  amount: number;
  credit: number;
  lines: TInvoiceDetails['lines'];
  /** The period the payment pays for. */
  period: { start: Date; end: Date };
  /** A Stripe subscription's change, charged to its saved card at once. */
  stripeChange?: { subscriptionId: string; newPeriod: boolean; prorationDate: number };
};

/**
 * What paying for `planKey` costs at `at`, and how it is paid: the one computation behind both
 * the quote the user confirms and the charge create-order makes. Throws the refusal (a free or
 * sales-only plan, a downgrade, a renewal not yet due) before anything is created anywhere.
 */
export async function priceCheckout(ctx: TBillingContext, ownerId: string, planKey: string, at: Date): Promise<TPricing> {
  const { repo, planOf } = ctx;
  const target = parsePlanKey(planKey);
  if (target.plan === 'free') {
    throw new AppError('bad_request', 'The Free plan needs no payment. To leave a paid plan, cancel it in Billing.');
  }
  const plan = await planOf(target.plan);
  const workspace = await repo.workspace(ownerId);
  if (!workspace) throw notFound('Workspace');
  const current = await currentSubscription(repo, ownerId);
  if (!current && workspace.subscriptionPlan !== 'free') {
    throw new AppError(
      'conflict',
      `Your ${(await planOf(workspace.subscriptionPlan)).name} plan is managed by an administrator. Contact support to change it.`,
    );
  }
  // A Stripe subscription changes through Stripe, whichever gateway new customers now use.
  const gateway = current?.gateway === 'stripe' && current.status === 'active' ? await ctx.gatewayFor('stripe') : await ctx.activeGatewayOrThrow();
  const currency = currencyOf(gateway.name);
  const charge = periodCharge(plan, currency, target.cycle);
  if (charge === null) {
    throw new AppError('bad_request', `The ${plan.name} plan is arranged with our sales team. Use Contact Sales and we will set it up for you.`);
  }
  const base = { target, planKey: planStorageKey(target.plan, target.cycle), plan, workspace, current, gateway, currency };
  let kind: TOrderRow['kind'] = 'new';
  let amount = charge;
  let credit = 0;
  let lines: TInvoiceDetails['lines'] = [{ description: describe(plan, target.cycle), amountMinor: charge }];
  let period = { start: at, end: periodEnd(at, target.cycle) };

  if (current && current.status === 'active') {
    const currentPlan = await planOf(current.planId);
    const change = planChange({ plan: current.planId, cycle: current.cycle }, target);
    const isScheduled = current.scheduledPlanId === target.plan && current.scheduledCycle === target.cycle;
    const currentCharge = periodCharge(currentPlan, currency, current.cycle) ?? 0;
    const share = unusedShare(current.currentPeriodStart, current.currentPeriodEnd, at);
    if (change === 'downgrade' && !isScheduled) {
      throw new AppError(
        'conflict',
        `Moving to ${describe(plan, target.cycle)} takes effect when your current period ends on ${day(current.currentPeriodEnd)}. Choose Downgrade to schedule it; nothing is charged now.`,
      );
    }
    if (change === 'same' || isScheduled) {
      if (gateway.name === 'stripe') throw new AppError('conflict', `Your plan renews automatically on ${day(current.currentPeriodEnd)}.`);
      const opensAt = addDays(current.currentPeriodEnd, -RENEWAL_WINDOW_DAYS);
      if (opensAt.getTime() > at.getTime()) {
        throw new AppError('conflict', `Your ${currentPlan.name} plan is paid until ${day(current.currentPeriodEnd)}. You can renew it from ${day(opensAt)}.`);
      }
      if (await repo.paidPeriodStartingFrom(ownerId, current.currentPeriodEnd)) {
        throw new AppError('conflict', `Your next period is already paid: your plan continues after ${day(current.currentPeriodEnd)}.`);
      }
      kind = 'renewal';
      period = { start: current.currentPeriodEnd, end: periodEnd(current.currentPeriodEnd, target.cycle) };
      lines = [{ description: `${describe(plan, target.cycle)}, ${day(period.start)} – ${day(period.end)}`, amountMinor: charge }];
    } else if (change === 'upgrade') {
      if (gateway.name === 'stripe') return priceStripeChange(ctx, base, gateway, current, { newPeriod: false, at });
      kind = 'upgrade';
      amount = Math.max(MIN_CHARGE_MINOR, Math.round((charge - currentCharge) * share));
      period = { start: current.currentPeriodStart, end: current.currentPeriodEnd };
      lines = [
        {
          description: `Upgrade from ${currentPlan.name} to ${plan.name} for the rest of the period (${day(at)} – ${day(current.currentPeriodEnd)})`,
          amountMinor: amount,
        },
      ];
    } else {
      if (gateway.name === 'stripe') return priceStripeChange(ctx, base, gateway, current, { newPeriod: true, at });
      credit = Math.min(charge - MIN_CHARGE_MINOR, Math.round(currentCharge * share));
      amount = charge - credit;
      lines = [
        { description: describe(plan, target.cycle), amountMinor: charge },
        { description: `Credit for unused time on the ${describe(currentPlan, current.cycle)}`, amountMinor: -credit },
      ];
    }
  }
  return { ...base, kind, amount, credit, lines, period };
}

/**
 * A Stripe subscription's change, priced by Stripe itself (its prorations are its own): the
 * invoice it previews as of `at`, which the change then charges with the same proration date.
 */
async function priceStripeChange(
  ctx: TBillingContext,
  base: Pick<TPricing, 'target' | 'planKey' | 'plan' | 'workspace' | 'current' | 'currency'>,
  gateway: TGatewayOf<'stripe'>,
  current: TSubscriptionRow,
  how: { newPeriod: boolean; at: Date },
): Promise<TPricing> {
  const subscriptionId = current.gatewaySubscriptionId;
  if (!subscriptionId) throw new AppError('conflict', 'Your subscription is not linked to Stripe. Please contact support.');
  const { plan, target } = base;
  const prorationDate = Math.floor(how.at.getTime() / 1000);
  const price = {
    planId: plan.id,
    cycle: target.cycle,
    amountMinor: periodCharge(plan, 'USD', target.cycle)!,
    currency: 'USD',
    productName: `Formwork ${plan.name}`,
  };
  const preview = await ctx.gatewayCall('stripe', () => gateway.client.previewChange(subscriptionId, price, { newPeriod: how.newPeriod, prorationDate }));
  const lines = preview.lines.data.map((line) => ({ description: line.description ?? describe(plan, target.cycle), amountMinor: line.amount }));
  return {
    ...base,
    gateway,
    kind: how.newPeriod ? 'new' : 'upgrade',
    amount: preview.amount_due,
    credit: -lines.reduce((sum, line) => sum + Math.min(0, line.amountMinor), 0),
    lines,
    period: how.newPeriod ? { start: how.at, end: periodEnd(how.at, target.cycle) } : { start: current.currentPeriodStart, end: current.currentPeriodEnd },
    stripeChange: { subscriptionId, newPeriod: how.newPeriod, prorationDate },
  };
}
