import type { TBillingCycle, TCurrency, TPlan, TPlanCatalogue, TPlanId } from './plans.ts';

/*
 * The plans as data: the default catalogue, the limits a plan has when the catalogue does not say,
 * and prices. Kept apart from their schemas (plans.ts): the web app shows plans and prices before
 * it needs any schema, and starts without them.
 */

export const PLAN_IDS = ['free', 'basic', 'premium', 'enterprise'] as const;
export const BILLING_CYCLES = ['monthly', 'yearly'] as const;
export const CURRENCIES = ['USD', 'INR'] as const;

export const isPlanId = (value: unknown): value is TPlanId => PLAN_IDS.some((id) => id === value);

/** The default catalogue (docs/decisions.md); admins can override it through system settings. */
export const DEFAULT_PLAN_CATALOGUE: TPlanCatalogue = [
  {
    id: 'free',
    name: 'Free',
    formatLimit: 1,
    generationsPerMonth: 30,
    apiAccess: false,
    usdMonthly: 0,
    usdAnnualPerMonth: 0,
    inrMonthly: 0,
    features: ['1 template', '30 documents/month', '50 MB of images', 'Email documents to 20 recipients/hour', '5 signature requests/month'],
    popular: false,
  },
  {
    id: 'basic',
    name: 'Basic',
    formatLimit: null,
    generationsPerMonth: 5000,
    apiAccess: false,
    usdMonthly: 20,
    usdAnnualPerMonth: 15,
    inrMonthly: 299,
    features: ['Unlimited templates', '5,000 documents/month', '1 GB of images', 'Email documents to 200 recipients/hour', '100 signature requests/month'],
    popular: true,
  },
  {
    id: 'premium',
    name: 'Premium',
    formatLimit: null,
    generationsPerMonth: 50000,
    apiAccess: false,
    usdMonthly: 99,
    usdAnnualPerMonth: 74,
    inrMonthly: 999,
    features: [
      'Unlimited templates',
      '50,000 documents/month',
      '10 GB of images',
      'Email documents to 1,000 recipients/hour',
      '1,000 signature requests/month',
    ],
    popular: false,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    formatLimit: null,
    generationsPerMonth: 100000,
    apiAccess: true,
    usdMonthly: null,
    usdAnnualPerMonth: null,
    inrMonthly: null,
    features: [
      'Everything in Premium',
      '100,000 documents/month',
      'REST API keys, webhooks & usage analytics',
      'Send email through your own SMTP server',
      'Unlimited signature requests',
    ],
    popular: false,
  },
];

/** Image storage per plan when the catalogue does not say: 50 MB free, 1 GB basic, 10 GB above. */
export const DEFAULT_STORAGE_MB: Record<TPlanId, number> = { free: 50, basic: 1_024, premium: 10_240, enterprise: 10_240 };

export const storageMbOf = (plan: Pick<TPlan, 'id' | 'storageMb'>) => plan.storageMb ?? DEFAULT_STORAGE_MB[plan.id];

export const ANNUAL_DISCOUNT_PERCENT = 25;
/** Shown when a user record carries no limit at all (docs/decisions.md). */
export const FALLBACK_API_CALLS_LIMIT = 100;

/** Requests per minute and key when the plan does not say. */
export const DEFAULT_API_REQUESTS_PER_MINUTE = 600;
export const apiRequestsPerMinuteOf = (plan: Pick<TPlan, 'apiRequestsPerMinute'>) => plan.apiRequestsPerMinute ?? DEFAULT_API_REQUESTS_PER_MINUTE;

/** Recipients per hour when the plan does not say. */
export const DEFAULT_EMAILS_PER_HOUR: Record<TPlanId, number> = { free: 20, basic: 200, premium: 1_000, enterprise: 5_000 };
export const emailsPerHourOf = (plan: Pick<TPlan, 'id' | 'emailsPerHour'>) => plan.emailsPerHour ?? DEFAULT_EMAILS_PER_HOUR[plan.id];

/** Signature requests a month when the plan does not say; null is unlimited. */
export const DEFAULT_SIGNATURE_REQUESTS_PER_MONTH: Record<TPlanId, number | null> = { free: 5, basic: 100, premium: 1_000, enterprise: null };
export const signatureRequestsPerMonthOf = (plan: Pick<TPlan, 'id' | 'signatureRequestsPerMonth'>) =>
  plan.signatureRequestsPerMonth === undefined ? DEFAULT_SIGNATURE_REQUESTS_PER_MONTH[plan.id] : plan.signatureRequestsPerMonth;

export function planStorageKey(plan: TPlanId, cycle: TBillingCycle): string {
  return `${plan}_${cycle}`;
}

export interface TPlanPrice {
  /** null = contact sales */
  perMonth: number | null;
  /** Total per year when billed annually, else null. */
  perYear: number | null;
}

/**
 * The price of a plan in a currency and cycle. The landing page, the billing tab and the server's
 * checkout all use this one function, so the price shown is the price charged.
 */
export function planPrice(plan: TPlan, currency: TCurrency, cycle: TBillingCycle): TPlanPrice {
  const monthly = currency === 'INR' ? plan.inrMonthly : plan.usdMonthly;
  if (monthly === null) return { perMonth: null, perYear: null };
  if (cycle === 'monthly' || monthly === 0) return { perMonth: monthly, perYear: null };
  const stated = currency === 'USD' ? plan.usdAnnualPerMonth : plan.inrAnnualPerMonth;
  const annualPerMonth = stated ?? Math.round(monthly * (1 - ANNUAL_DISCOUNT_PERCENT / 100));
  return { perMonth: annualPerMonth, perYear: annualPerMonth * 12 };
}

/** Both currencies have 100 minor units (cents, paise); gateways take amounts in them. */
export const toMinorUnits = (amount: number) => Math.round(amount * 100);

/**
 * What one period of `plan` costs in minor units: a month, or a year billed at once. Null when the
 * plan has no price (contact sales) or is free.
 */
export function periodCharge(plan: TPlan, currency: TCurrency, cycle: TBillingCycle): number | null {
  const price = planPrice(plan, currency, cycle);
  if (price.perMonth === null || price.perMonth === 0) return null;
  return toMinorUnits(cycle === 'yearly' ? (price.perYear ?? price.perMonth * 12) : price.perMonth);
}

/** One formatter per currency and kind of amount: making one costs far more than using it, and a price list shows dozens. */
const moneyFormats = new Map<string, Intl.NumberFormat>();

/** An amount in minor units as people read it: "$20", "₹299", "$15.50". */
export function formatMinorUnits(amountMinor: number, currency: TCurrency): string {
  const amount = amountMinor / 100;
  const whole = Number.isInteger(amount);
  const key = `${currency}:${whole}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: 2,
    });
    moneyFormats.set(key, format);
  }
  return format.format(amount);
}

const PLAN_TIER: Record<TPlanId, number> = { free: 0, basic: 1, premium: 2, enterprise: 3 };

/**
 * What choosing `to` means for someone on `from`:
 * - `upgrade`: a higher plan, same cycle: at once, for the rest of the period, at the difference;
 * - `new-period`: monthly to yearly on the same or a higher plan: a yearly period from now, less
 *   the unused part of the month;
 * - `downgrade`: a lower plan, or yearly to monthly: at the end of the period;
 * - `same`: nothing changes (a renewal, where renewals are paid by hand).
 */
export function planChange(
  from: { plan: TPlanId; cycle: TBillingCycle },
  to: { plan: TPlanId; cycle: TBillingCycle },
): 'upgrade' | 'new-period' | 'downgrade' | 'same' {
  const tier = PLAN_TIER[to.plan] - PLAN_TIER[from.plan];
  if (tier < 0) return 'downgrade';
  if (from.cycle === to.cycle) return tier === 0 ? 'same' : 'upgrade';
  return to.cycle === 'yearly' ? 'new-period' : 'downgrade';
}
