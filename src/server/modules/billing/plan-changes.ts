import { parsePlanKey } from '../../../contract/plans.ts';
import { periodCharge, planChange } from '../../../contract/plan-catalogue.ts';
import { AppError } from '../../http/app-error.ts';
import { currentSubscription, type TBillingContext } from './billing-context.ts';
import { currencyOf } from './billing-terms.ts';
import { cancel } from './cancel.ts';

/** Schedules a move to a lower plan, or yearly to monthly, for the end of the paid period. */
export async function scheduleDowngrade(ctx: TBillingContext, ownerId: string, planKey: string): Promise<void> {
  const target = parsePlanKey(planKey);
  if (target.plan === 'free') return cancel(ctx, ownerId);
  const current = await currentSubscription(ctx.repo, ownerId);
  if (!current || current.status !== 'active') throw new AppError('conflict', 'You have no paid plan to change. Choose a plan to subscribe.');
  if (planChange({ plan: current.planId, cycle: current.cycle }, target) !== 'downgrade') {
    throw new AppError('conflict', 'That is not a downgrade: choose Upgrade to switch to it now.');
  }
  const plan = await ctx.planOf(target.plan);
  const currency = currencyOf(current.gateway);
  const amount = periodCharge(plan, currency, target.cycle);
  if (amount === null) throw new AppError('bad_request', `The ${plan.name} plan cannot be bought here.`);
  if (current.gateway === 'stripe' && current.gatewaySubscriptionId) {
    const gateway = await ctx.gatewayFor('stripe');
    const subscriptionId = current.gatewaySubscriptionId;
    await ctx.gatewayCall('stripe', async () => {
      if (current.cancelAtPeriodEnd) await gateway.client.setCancelAtPeriodEnd(subscriptionId, false);
      await gateway.client.changePrice(
        subscriptionId,
        { planId: target.plan, cycle: target.cycle, amountMinor: amount, currency, productName: `Formwork ${plan.name}` },
        { charge: 'at-renewal' },
      );
    });
  }
  await ctx.repo.updateSubscription(ownerId, { scheduledPlanId: target.plan, scheduledCycle: target.cycle, cancelAtPeriodEnd: false });
}

/** Takes back a cancellation or a scheduled downgrade: the current plan simply continues. */
export async function resume(ctx: TBillingContext, ownerId: string): Promise<void> {
  const current = await currentSubscription(ctx.repo, ownerId);
  if (!current) throw new AppError('conflict', 'You have no paid plan to keep.');
  if (current.gateway === 'stripe' && current.gatewaySubscriptionId) {
    const gateway = await ctx.gatewayFor('stripe');
    const subscriptionId = current.gatewaySubscriptionId;
    const plan = await ctx.planOf(current.planId);
    const amount = periodCharge(plan, 'USD', current.cycle);
    await ctx.gatewayCall('stripe', async () => {
      if (current.cancelAtPeriodEnd) await gateway.client.setCancelAtPeriodEnd(subscriptionId, false);
      if (current.scheduledPlanId && amount !== null) {
        await gateway.client.changePrice(
          subscriptionId,
          { planId: current.planId, cycle: current.cycle, amountMinor: amount, currency: 'USD', productName: `Formwork ${plan.name}` },
          { charge: 'at-renewal' },
        );
      }
    });
  }
  await ctx.repo.updateSubscription(ownerId, { cancelAtPeriodEnd: false, scheduledPlanId: null, scheduledCycle: null });
}
