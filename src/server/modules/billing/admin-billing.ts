import { invoiceNumberText, type TAdminPayments, type TAdminPaymentsQuery } from '../../../contract/billing.ts';
import type { TPlanId } from '../../../contract/plans.ts';
import { currentSubscription, type TBillingContext } from './billing-context.ts';

/** Admin → Payments: every payment, with its payer and invoice, and the totals per currency. */
export async function adminPayments(ctx: TBillingContext, query: TAdminPaymentsQuery): Promise<TAdminPayments> {
  const { rows, total, totals } = await ctx.repo.adminPayments(query);
  return {
    total,
    totals: totals.map((t) => ({ currency: t.currency, amount: t.amount })),
    payments: rows.map(({ payment, email, invoiceId, invoiceNumber }) => ({
      id: payment.id,
      user: { id: payment.ownerId, email },
      planId: payment.planId,
      cycle: payment.cycle,
      amount: payment.amountMinor,
      refunded: payment.refundedMinor,
      currency: payment.currency,
      status: payment.status,
      gateway: payment.gateway,
      gatewayReference: payment.gatewayPaymentId,
      createdAt: payment.createdAt.toISOString(),
      invoiceId: invoiceId ?? null,
      invoiceNumber: invoiceNumber === null ? null : invoiceNumberText(invoiceNumber),
    })),
  };
}

/** An administrator set this user's plan by hand: gateway billing no longer decides it. */
export async function detachForAdmin(ctx: TBillingContext, ownerId: string, planId: TPlanId): Promise<void> {
  await ctx.repo.transaction(async (tx) => {
    const sub = await currentSubscription(tx, ownerId, true);
    if (sub) await tx.updateSubscription(ownerId, { status: 'ended', graceEndsAt: null, scheduledPlanId: null, scheduledCycle: null });
    await tx.setUserPlan(ownerId, planId, null);
  });
}
