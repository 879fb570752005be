import { formatMinorUnits, periodCharge } from '../../../contract/plan-catalogue.ts';
import type { TSubscriptionRow } from './billing.repository.ts';
import { currentSubscription, endSubscription, type TBillingContext } from './billing-context.ts';
import { currencyOf, day, quotaKey } from './billing-terms.ts';
import { gatewayTitle } from './gateways/gateway-http.ts';
import { addDays, GRACE_DAYS, RENEWAL_WINDOW_DAYS } from './periods.ts';

/**
 * Moves subscriptions on when their period ends: to a renewal paid ahead, to free after a
 * cancellation, into a grace period when unpaid, and to free when the grace runs out.
 */
export async function sweep(ctx: TBillingContext): Promise<{ rolled: number; lapsed: number; ended: number; months: number; reminded: number }> {
  const { repo, deps } = ctx;
  const at = ctx.now();
  const counts = { rolled: 0, lapsed: 0, ended: 0, months: 0, reminded: 0 };
  const toCancelAtStripe: string[] = [];
  for (const due of await repo.due(at)) {
    await repo.transaction(async (tx) => {
      const sub = await currentSubscription(tx, due.ownerId, true);
      if (!sub) return;
      if (sub.status === 'past_due' && sub.graceEndsAt && sub.graceEndsAt.getTime() <= at.getTime()) {
        await endSubscription(tx, sub);
        if (sub.gateway === 'stripe' && sub.gatewaySubscriptionId) toCancelAtStripe.push(sub.gatewaySubscriptionId);
        counts.ended++;
        return;
      }
      if (sub.currentPeriodEnd.getTime() > at.getTime()) return;
      const next = await tx.paidPeriodStartingFrom(sub.ownerId, sub.currentPeriodEnd);
      if (next && next.periodStart.getTime() <= at.getTime() && next.gateway !== 'stripe') {
        await tx.updateSubscription(sub.ownerId, {
          planId: next.planId,
          cycle: next.cycle,
          status: 'active',
          currentPeriodStart: next.periodStart,
          currentPeriodEnd: next.periodEnd,
          scheduledPlanId: null,
          scheduledCycle: null,
          graceEndsAt: null,
          renewalReminderAt: null,
        });
        await tx.setUserPlan(sub.ownerId, next.planId, quotaKey(next.periodStart, next.cycle, at));
        counts.rolled++;
      } else if (sub.cancelAtPeriodEnd) {
        await endSubscription(tx, sub);
        counts.ended++;
      } else if (sub.status === 'active') {
        await tx.updateSubscription(sub.ownerId, { status: 'past_due', graceEndsAt: addDays(sub.currentPeriodEnd, GRACE_DAYS) });
        counts.lapsed++;
      }
    });
  }
  // Plans renewed by hand: one reminder by email when the last week begins.
  for (const due of await repo.renewalsToRemind(addDays(at, RENEWAL_WINDOW_DAYS))) {
    if (!(await repo.claimRenewalReminder(due.ownerId, due.currentPeriodEnd, at))) continue;
    // Paid ahead already: nothing to remind of.
    if (await repo.paidPeriodStartingFrom(due.ownerId, due.currentPeriodEnd)) continue;
    counts.reminded++;
    if (deps.notify) {
      const notice = await renewalNotice(ctx, due);
      await deps.notify(due.ownerId, notice).catch((error: unknown) => ctx.log.warn({ err: error, ownerId: due.ownerId }, 'could not send a renewal reminder'));
    }
  }
  // A yearly plan's documents count month by month: each new month of the period starts afresh.
  for (const yearly of await repo.yearlyInForce()) {
    const key = quotaKey(yearly.currentPeriodStart, 'yearly', at);
    if (yearly.quotaPeriod !== key && yearly.currentPeriodEnd.getTime() > at.getTime()) {
      await repo.setQuotaPeriod(yearly.ownerId, key);
      counts.months++;
    }
  }
  // Confirmations are kept a day past their expiry, so a late click is told "expired", then forgotten.
  await repo.deleteQuotesExpiredBefore(addDays(at, -1));
  // Stripe stops retrying the card once the plan has lapsed here.
  for (const subscriptionId of toCancelAtStripe) {
    try {
      const gateway = await ctx.gatewayFor('stripe');
      await gateway.client.cancelNow(subscriptionId);
    } catch (error) {
      ctx.log.warn({ err: error, subscriptionId }, 'could not cancel a lapsed Stripe subscription');
    }
  }
  return counts;
}

/** The renewal reminder's words: what is due, when, for how much, and what happens otherwise. */
async function renewalNotice(ctx: TBillingContext, sub: TSubscriptionRow): Promise<{ subject: string; text: string }> {
  const planId = sub.scheduledPlanId ?? sub.planId;
  const cycle = sub.scheduledCycle ?? sub.cycle;
  const [plan, user] = await Promise.all([ctx.planOf(planId), ctx.repo.payer(sub.ownerId)]);
  const amount = periodCharge(plan, currencyOf(sub.gateway), cycle);
  const name = user?.firstName?.trim() || 'there';
  return {
    subject: `Your Formwork ${plan.name} plan renews on ${day(sub.currentPeriodEnd)}`,
    text: [
      `Hello ${name},`,
      '',
      `Your ${plan.name} plan is paid until ${day(sub.currentPeriodEnd)}. Payments through ${gatewayTitle(sub.gateway)} do not renew by themselves: pay${amount === null ? '' : ` ${formatMinorUnits(amount, currencyOf(sub.gateway))}`} for the next ${cycle === 'yearly' ? 'year' : 'month'} to keep your plan without a break.`,
      '',
      `Renew now: ${ctx.deps.publicUrl}/settings?tab=billing`,
      '',
      `If you do not renew, your plan stays for ${GRACE_DAYS} more days, then your account moves to Free. Nothing is deleted.`,
      '',
      '— Formwork',
    ].join('\n'),
  };
}
