import {
  DEFAULT_PLAN_CATALOGUE,
  FALLBACK_API_CALLS_LIMIT,
  formatMinorUnits,
  toMinorUnits,
  type TCurrency,
  type TPlanCatalogue,
  type TPlanId,
} from '../../contract/plans';

export { planPrice, type TCurrency } from '../../contract/plans';

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
  return formatMinorUnits(toMinorUnits(amount), currency);
}
