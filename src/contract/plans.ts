import { z } from 'zod';
import { BILLING_CYCLES, CURRENCIES, PLAN_IDS } from './plan-catalogue.ts';

/* The plans' schemas. The catalogue itself, its defaults and prices are in plan-catalogue.ts. */

export const ZPlanId = z.enum(PLAN_IDS);
export type TPlanId = z.infer<typeof ZPlanId>;

export const ZBillingCycle = z.enum(BILLING_CYCLES);
export type TBillingCycle = z.infer<typeof ZBillingCycle>;

export const ZPlan = z.object({
  id: ZPlanId,
  name: z.string(),
  /** null means unlimited */
  formatLimit: z.number().int().positive().nullable(),
  // The same ceiling as a user's own limit: the statement that counts reads it as a 32-bit integer.
  generationsPerMonth: z.number().int().nonnegative().max(100_000_000),
  apiAccess: z.boolean(),
  /** null prices mean "contact sales" */
  usdMonthly: z.number().nonnegative().nullable(),
  /** per month, when billed annually */
  usdAnnualPerMonth: z.number().nonnegative().nullable(),
  inrMonthly: z.number().nonnegative().nullable(),
  /** Per month, when billed annually in rupees; without it, the monthly price less the annual discount. */
  inrAnnualPerMonth: z.number().nonnegative().nullable().optional(),
  features: z.array(z.string()),
  popular: z.boolean(),
  /** Megabytes of uploaded and fetched images; a stored catalogue without it gets the plan's default. */
  storageMb: z.number().int().positive().optional(),
  /** Requests one API key may make per minute; a stored catalogue without it gets the default. */
  apiRequestsPerMinute: z.number().int().positive().max(1_000_000).optional(),
  /** Recipients a user may email per hour (documents, mail merges); a stored catalogue without it gets the plan's default. */
  emailsPerHour: z.number().int().positive().max(1_000_000).optional(),
  /** Signature requests a user may send a month; null means unlimited, and a stored catalogue without it gets the plan's default. */
  signatureRequestsPerMonth: z.number().int().nonnegative().max(100_000_000).nullable().optional(),
});
export type TPlan = z.infer<typeof ZPlan>;

export const ZPlanCatalogue = z.array(ZPlan);
export type TPlanCatalogue = z.infer<typeof ZPlanCatalogue>;

/** `basic_monthly` → basic, monthly; the key's form is checked where it enters (ZPlanKey). */
export function parsePlanKey(key: string): { plan: TPlanId; cycle: TBillingCycle } {
  const [plan, cycle] = key.split('_');
  return { plan: ZPlanId.parse(plan), cycle: ZBillingCycle.parse(cycle) };
}

export const ZCurrency = z.enum(CURRENCIES);
export type TCurrency = z.infer<typeof ZCurrency>;

/** The public catalogue: plans, the currency prices are shown in, and whether checkout is possible. */
export const ZPlansResponse = z.object({
  plans: ZPlanCatalogue,
  currency: ZCurrency,
  /** A payment gateway is turned on: paid plans can be bought. */
  checkout: z.boolean(),
});
export type TPlansResponse = z.infer<typeof ZPlansResponse>;
