import {
  ANNUAL_DISCOUNT_PERCENT,
  DEFAULT_PLAN_CATALOGUE,
  FALLBACK_API_CALLS_LIMIT,
  type TBillingCycle,
  type TPlan,
  type TPlanCatalogue,
  type TPlanId,
} from '../../contract/plans';

export type TCurrency = 'USD' | 'INR';

export interface PlansResponse {
  plans: TPlanCatalogue;
  currency: TCurrency;
}

export const DEFAULT_PLANS: PlansResponse = { plans: DEFAULT_PLAN_CATALOGUE, currency: 'USD' };

export function planName(id: TPlanId | null | undefined, catalogue: TPlanCatalogue = DEFAULT_PLAN_CATALOGUE): string {
  const plan = catalogue.find((p) => p.id === (id ?? 'free'));
  return plan?.name ?? 'Free';
}

export function effectiveLimit(limit: number | null | undefined): number {
  return limit ?? FALLBACK_API_CALLS_LIMIT;
}

export function formatMoney(amount: number, currency: TCurrency): string {
  return new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en-US', {
    style: 'currency',
    currency,
    maximumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  }).format(amount);
}

export interface PlanPrice {
  /** null = contact sales */
  perMonth: number | null;
  /** Total per year when billed annually, else null. */
  perYear: number | null;
}

/**
 * The price of a plan in the active currency and cycle. The landing page and billing use this one
 * function so they always show the same numbers (docs/decisions.md).
 */
export function planPrice(plan: TPlan, currency: TCurrency, cycle: TBillingCycle): PlanPrice {
  const monthly = currency === 'INR' ? plan.inrMonthly : plan.usdMonthly;
  if (monthly === null) return { perMonth: null, perYear: null };
  if (cycle === 'monthly' || monthly === 0) return { perMonth: monthly, perYear: null };
  const annualPerMonth =
    currency === 'USD' && plan.usdAnnualPerMonth !== null
      ? plan.usdAnnualPerMonth
      : Math.round(monthly * (1 - ANNUAL_DISCOUNT_PERCENT / 100));
  return { perMonth: annualPerMonth, perYear: annualPerMonth * 12 };
}
