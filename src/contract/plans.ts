import { z } from 'zod';

export const ZPlanId = z.enum(['free', 'basic', 'premium', 'enterprise']);
export type TPlanId = z.infer<typeof ZPlanId>;

export const ZBillingCycle = z.enum(['monthly', 'yearly']);
export type TBillingCycle = z.infer<typeof ZBillingCycle>;

export const ZPlan = z.object({
  id: ZPlanId,
  name: z.string(),
  /** null means unlimited */
  formatLimit: z.number().int().positive().nullable(),
  generationsPerMonth: z.number().int().nonnegative(),
  apiAccess: z.boolean(),
  /** null prices mean "contact sales" */
  usdMonthly: z.number().nonnegative().nullable(),
  /** per month, when billed annually */
  usdAnnualPerMonth: z.number().nonnegative().nullable(),
  inrMonthly: z.number().nonnegative().nullable(),
  features: z.array(z.string()),
  popular: z.boolean(),
  /** Megabytes of uploaded and fetched images; a stored catalogue without it gets the plan's default. */
  storageMb: z.number().int().positive().optional(),
  /** Requests one API key may make per minute; a stored catalogue without it gets the default. */
  apiRequestsPerMinute: z.number().int().positive().max(1_000_000).optional(),
});
export type TPlan = z.infer<typeof ZPlan>;

export const ZPlanCatalogue = z.array(ZPlan);
export type TPlanCatalogue = z.infer<typeof ZPlanCatalogue>;

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
    features: ['1 template', '30 API calls/month', 'PDF generation', 'Email support'],
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
    features: ['Unlimited templates', '5,000 API calls/month', 'Advanced form fields', 'Priority email support'],
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
    features: ['Unlimited everything', '50,000 API calls/month', 'Custom integrations', '24/7 phone & email support'],
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
    features: ['Everything in Premium', '100,000 API calls/month', 'REST API keys & usage analytics', 'Custom SMTP sending'],
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

export function planStorageKey(plan: TPlanId, cycle: TBillingCycle): string {
  return `${plan}_${cycle}`;
}
