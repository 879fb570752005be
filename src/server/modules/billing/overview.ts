import type { TBillingOverview, TSubscriptionView } from '../../../contract/billing.ts';
import type { TCurrency } from '../../../contract/plans.ts';
import { periodCharge, planStorageKey } from '../../../contract/plan-catalogue.ts';
import { notFound } from '../../http/app-error.ts';
import type { TSubscriptionRow } from './billing.repository.ts';
import type { TBillingContext } from './billing-context.ts';
import { currencyOf } from './billing-terms.ts';
import type { TGatewayName } from './gateways/gateway-http.ts';
import { calendarMonth, quotaMonth, RENEWAL_WINDOW_DAYS } from './periods.ts';

/** The billing tab: the plan, its subscription, and usage against every limit. */
export async function overview(ctx: TBillingContext, ownerId: string): Promise<TBillingOverview> {
  const { repo, deps } = ctx;
  const at = ctx.now();
  const [workspace, sub, active] = await Promise.all([repo.workspace(ownerId), repo.subscription(ownerId), repo.activeGateway()]);
  if (!workspace) throw notFound('Workspace');
  const current = sub && sub.status !== 'ended' ? sub : undefined;
  const gateway = active?.gatewayName ?? null;
  const [generations, storage, signatureRequests, formatsUsed, plan] = await Promise.all([
    deps.quota.generations(ownerId),
    deps.quota.storage(ownerId),
    deps.quota.signatureRequestsUsed(ownerId),
    repo.formatsUsed(ownerId),
    ctx.planOf(workspace.subscriptionPlan),
  ]);
  const usagePeriod =
    workspace.quotaPeriod && current
      ? current.cycle === 'yearly'
        ? quotaMonth(current.currentPeriodStart, at)
        : { start: current.currentPeriodStart, end: current.currentPeriodEnd }
      : calendarMonth(at);
  return {
    planId: workspace.subscriptionPlan,
    gateway,
    currency: currentSubscriptionCurrency(current, gateway),
    managedByAdmin: !current && workspace.subscriptionPlan !== 'free',
    subscription: current
      ? {
          planId: current.planId,
          cycle: current.cycle,
          gateway: current.gateway,
          status: current.status,
          periodStart: current.currentPeriodStart.toISOString(),
          periodEnd: current.currentPeriodEnd.toISOString(),
          renewal: current.gateway === 'stripe' ? 'automatic' : 'manual',
          cancelAtPeriodEnd: current.cancelAtPeriodEnd,
          scheduled: current.scheduledPlanId && current.scheduledCycle ? { planId: current.scheduledPlanId, cycle: current.scheduledCycle } : null,
          graceEndsAt: current.graceEndsAt?.toISOString() ?? null,
          payAgain: await payAgainOf(ctx, current, at),
        }
      : null,
    usage: {
      periodStart: usagePeriod.start.toISOString(),
      periodEnd: usagePeriod.end.toISOString(),
      generations: { used: generations.used, limit: generations.limit },
      formats: { used: formatsUsed, limit: plan.formatLimit },
      storage: { usedBytes: storage.usedBytes, limitBytes: storage.limitBytes },
      signatureRequests,
    },
  };
}

/** What the subscriber may pay now to keep a manually renewed plan going. */
async function payAgainOf(ctx: TBillingContext, sub: TSubscriptionRow, at: Date): Promise<TSubscriptionView['payAgain']> {
  if (sub.gateway === 'stripe' || sub.cancelAtPeriodEnd) return null;
  const inWindow = sub.status === 'past_due' || sub.currentPeriodEnd.getTime() - at.getTime() <= RENEWAL_WINDOW_DAYS * 86_400_000;
  if (!inWindow) return null;
  if (sub.status === 'active' && (await ctx.repo.paidPeriodStartingFrom(sub.ownerId, sub.currentPeriodEnd))) return null;
  const planId = sub.scheduledPlanId ?? sub.planId;
  const cycle = sub.scheduledCycle ?? sub.cycle;
  const amount = periodCharge(await ctx.planOf(planId), currencyOf(sub.gateway), cycle);
  if (amount === null) return null;
  return { planKey: planStorageKey(planId, cycle), amount, currency: currencyOf(sub.gateway), due: sub.currentPeriodEnd.toISOString() };
}

function currentSubscriptionCurrency(sub: TSubscriptionRow | undefined, active: TGatewayName | null): TCurrency {
  return currencyOf(sub?.gateway ?? active ?? 'stripe');
}
