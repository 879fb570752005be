import type { TCurrency, TPlanCatalogue, TPlanId, TPlansResponse } from '../../contract/plans';
import { DEFAULT_PLAN_CATALOGUE, FALLBACK_API_CALLS_LIMIT, formatMinorUnits, toMinorUnits } from '../../contract/plan-catalogue';

export type { TCurrency } from '../../contract/plans';
export { planPrice } from '../../contract/plan-catalogue';

export type PlansResponse = TPlansResponse;

export const DEFAULT_PLANS: PlansResponse = { plans: DEFAULT_PLAN_CATALOGUE, currency: 'USD', checkout: false };

export function planName(id: TPlanId | null | undefined, catalogue: TPlanCatalogue = DEFAULT_PLAN_CATALOGUE): string {
  const plan = catalogue.find((p) => p.id === (id ?? 'free'));
  return plan?.name ?? 'Free';
}

export function effectiveLimit(limit: number | null | undefined): number {
  return limit ?? FALLBACK_API_CALLS_LIMIT;
}

export function formatMoney(amount: number, currency: TCurrency): string {
  return formatMinorUnits(toMinorUnits(amount), currency);
}

/**
 * The plan a visitor chose on the landing page, kept in the browser across sign-up so the checkout
 * follows straight after; removed once the payment succeeds.
 */
export const SELECTED_PLAN_KEYS = {
  plan: 'selectedPlan',
  name: 'selectedPlanName',
  cycle: 'selectedBillingCycle',
} as const;

export function rememberPlanChoice(planKey: string, planName: string, cycle: string): void {
  try {
    localStorage.setItem(SELECTED_PLAN_KEYS.plan, planKey);
    localStorage.setItem(SELECTED_PLAN_KEYS.name, planName);
    localStorage.setItem(SELECTED_PLAN_KEYS.cycle, cycle);
  } catch {
    // Storage can be unavailable (private mode); the visitor can still pick the plan in Billing.
  }
}

export function storedPlanChoice(): string | null {
  try {
    return localStorage.getItem(SELECTED_PLAN_KEYS.plan);
  } catch {
    return null;
  }
}

export function forgetPlanChoice(): void {
  for (const key of Object.values(SELECTED_PLAN_KEYS)) {
    try {
      localStorage.removeItem(key);
    } catch {
      // nothing to clean up
    }
  }
}
