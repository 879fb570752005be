import { AppError } from '../../http/app-error.ts';
import { currentSubscription, type TBillingContext } from './billing-context.ts';

/** Cancels at the end of the paid period: the plan runs until then, then the account is free. */
export async function cancel(ctx: TBillingContext, ownerId: string): Promise<void> {
  const current = await currentSubscription(ctx.repo, ownerId);
  if (!current) throw new AppError('conflict', 'You have no paid plan to cancel.');
  if (current.gateway === 'stripe' && current.gatewaySubscriptionId) {
    const gateway = await ctx.gatewayFor('stripe');
    const subscriptionId = current.gatewaySubscriptionId;
    await ctx.gatewayCall('stripe', () => gateway.client.setCancelAtPeriodEnd(subscriptionId, true));
  }
  await ctx.repo.updateSubscription(ownerId, { cancelAtPeriodEnd: true, scheduledPlanId: null, scheduledCycle: null });
}

/**
 * Before its account is deleted: a Stripe subscription is cancelled at once at Stripe, so no
 * renewal is charged to a person who has left (one-off orders have nothing to cancel). Any
 * failure is thrown, so the deletion stops with nothing deleted.
 */
export async function cancelForDeletion(ctx: TBillingContext, ownerId: string): Promise<void> {
  const current = await currentSubscription(ctx.repo, ownerId);
  if (!current || current.gateway !== 'stripe' || !current.gatewaySubscriptionId) return;
  const subscriptionId = current.gatewaySubscriptionId;
  try {
    const gateway = await ctx.gatewayFor('stripe');
    await gateway.client.cancelNow(subscriptionId);
  } catch (error) {
    ctx.log.error({ err: error, subscriptionId }, 'could not cancel a subscription before deleting its account');
    throw new AppError(
      'unavailable',
      'Your subscription could not be cancelled at Stripe just now, so nothing was deleted and you were not charged. Try again in a few minutes, or contact support.',
    );
  }
  await ctx.repo.updateSubscription(ownerId, { status: 'ended', cancelAtPeriodEnd: false, scheduledPlanId: null, scheduledCycle: null });
}
