import type { TBillingCycle, TCurrency, TPlan, TPlanCatalogue, TPlanId } from '../../../contract/plans.ts';
import { AppError } from '../../http/app-error.ts';
import type { TGatewayName } from './gateways/gateway-http.ts';
import { quotaMonth } from './periods.ts';

const cycleWord = (cycle: TBillingCycle) => (cycle === 'yearly' ? 'yearly' : 'monthly');

export const day = (date: Date) => date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export const describe = (plan: TPlan, cycle: TBillingCycle) => `${plan.name} plan, ${cycleWord(cycle)}`;

export const describeFallback = (planId: string, cycle: TBillingCycle) => `Formwork ${planId} plan, ${cycleWord(cycle)}`;

/** Where a paid period's documents count at `at`: its start, or for a yearly plan the month it is in. */
export const quotaKey = (periodStart: Date, cycle: TBillingCycle, at: Date) =>
  (cycle === 'yearly' ? quotaMonth(periodStart, at).start : periodStart).toISOString();

/** Prices follow the gateway that takes the money: rupees through Razorpay, dollars otherwise. */
export const currencyOf = (gateway: TGatewayName): TCurrency => (gateway === 'razorpay' ? 'INR' : 'USD');

export function planIn(catalogue: TPlanCatalogue, planId: TPlanId): TPlan {
  const plan = catalogue.find((p) => p.id === planId);
  if (!plan) throw new AppError('validation_failed', `There is no ${planId} plan.`, { planId: 'Choose a plan from the catalogue.' });
  return plan;
}
