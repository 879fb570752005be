import { z } from 'zod';
import { ZPlanCatalogueInput } from '../../../contract/admin';
import { ZPlanId, type TCurrency, type TPlan, type TPlanCatalogue } from '../../../contract/plans';
import {
  ANNUAL_DISCOUNT_PERCENT,
  apiRequestsPerMinuteOf,
  emailsPerHourOf,
  DEFAULT_PLAN_CATALOGUE,
  signatureRequestsPerMonthOf,
  DEFAULT_STORAGE_MB,
  formatMinorUnits,
  storageMbOf,
  toMinorUnits,
} from '../../../contract/plan-catalogue';
import { formatBytes, formatNumber } from '../../lib/utils';

/*
 * The plan catalogue as the Plans tab edits it: rows of text and switches in, the catalogue out,
 * checked on the way by the same contract schema the server applies.
 */

const AMOUNT = /^\d+(\.\d{1,2})?$/;
const WHOLE = /^\d+$/;
/** People type 1,299 or 10 000; the catalogue stores plain numbers. */
const clean = (text: string) => text.trim().replace(/[,_\s]/g, '');
const MAX_GENERATIONS = 100_000_000;
const MAX_REQUESTS_PER_MINUTE = 1_000_000;
const MAX_EMAILS_PER_HOUR = 1_000_000;

/**
 * One plan as the form holds it: numbers as typed (text), "contact sales" and "unlimited" as
 * switches. Each row is checked field by field with readable messages, turned into a plan, and
 * the whole catalogue then passes the contract's own check (the one the server runs), so the
 * rules on prices across plans and currencies are the same on both sides.
 */
const ZPlanRow = z
  .object({
    id: ZPlanId,
    name: z.string().trim().min(1, 'Give the plan a name.').max(40, 'Keep the name under 40 characters.'),
    contactSales: z.boolean(),
    usdMonthly: z.string(),
    usdAnnualPerMonth: z.string(),
    inrMonthly: z.string(),
    inrAnnualPerMonth: z.string(),
    unlimitedFormats: z.boolean(),
    formatLimit: z.string(),
    generationsPerMonth: z.string(),
    storageMb: z.string(),
    apiAccess: z.boolean(),
    apiRequestsPerMinute: z.string(),
    emailsPerHour: z.string(),
    unlimitedSignatureRequests: z.boolean(),
    signatureRequestsPerMonth: z.string(),
    features: z.string(),
    popular: z.boolean(),
  })
  .superRefine((row, ctx) => {
    const problem = (field: keyof typeof row, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
    if (row.id !== 'free' && !row.contactSales) {
      for (const field of ['usdMonthly', 'inrMonthly'] as const) {
        const value = clean(row[field]);
        if (value === '') problem(field, 'Enter the monthly price, or turn on Contact sales.');
        else if (!AMOUNT.test(value)) problem(field, 'Enter an amount such as 20 or 19.99.');
      }
      for (const field of ['usdAnnualPerMonth', 'inrAnnualPerMonth'] as const) {
        const value = clean(row[field]);
        if (value !== '' && !AMOUNT.test(value)) problem(field, 'Enter an amount such as 15 or 14.99, or leave it blank.');
      }
    }
    if (!row.unlimitedFormats) {
      const value = clean(row.formatLimit);
      if (!WHOLE.test(value) || Number(value) < 1) problem('formatLimit', 'Enter a whole number, 1 or more, or turn on Unlimited.');
    }
    const generations = clean(row.generationsPerMonth);
    if (!WHOLE.test(generations) || Number(generations) > MAX_GENERATIONS) {
      problem('generationsPerMonth', `Enter a whole number from 0 to ${formatNumber(MAX_GENERATIONS)}.`);
    }
    const storage = clean(row.storageMb);
    if (!WHOLE.test(storage) || Number(storage) < 1) problem('storageMb', 'Enter whole megabytes, 1 or more.');
    const perMinute = clean(row.apiRequestsPerMinute);
    if (!WHOLE.test(perMinute) || Number(perMinute) < 1 || Number(perMinute) > MAX_REQUESTS_PER_MINUTE) {
      problem('apiRequestsPerMinute', `Enter a whole number from 1 to ${formatNumber(MAX_REQUESTS_PER_MINUTE)}.`);
    }
    const emails = clean(row.emailsPerHour);
    if (!WHOLE.test(emails) || Number(emails) < 1 || Number(emails) > MAX_EMAILS_PER_HOUR) {
      problem('emailsPerHour', `Enter a whole number from 1 to ${formatNumber(MAX_EMAILS_PER_HOUR)}.`);
    }
    if (!row.unlimitedSignatureRequests) {
      const signatures = clean(row.signatureRequestsPerMonth);
      if (!WHOLE.test(signatures) || Number(signatures) > MAX_GENERATIONS) {
        problem('signatureRequestsPerMonth', `Enter a whole number from 0 to ${formatNumber(MAX_GENERATIONS)}, or turn on Unlimited.`);
      }
    }
    if (row.features.split('\n').some((line) => line.trim().length > 120)) {
      problem('features', 'Keep each feature under 120 characters.');
    }
  })
  .transform((row): TPlan => {
    const price = (text: string) => (clean(text) === '' ? null : Number(clean(text)));
    const free = row.id === 'free';
    const priced = !free && !row.contactSales;
    return {
      id: row.id,
      name: row.name,
      formatLimit: row.unlimitedFormats ? null : Number(clean(row.formatLimit)),
      generationsPerMonth: Number(clean(row.generationsPerMonth)),
      apiAccess: row.apiAccess,
      usdMonthly: free ? 0 : priced ? price(row.usdMonthly) : null,
      usdAnnualPerMonth: free ? 0 : priced ? price(row.usdAnnualPerMonth) : null,
      inrMonthly: free ? 0 : priced ? price(row.inrMonthly) : null,
      inrAnnualPerMonth: free ? null : priced ? price(row.inrAnnualPerMonth) : null,
      features: row.features
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
      popular: row.popular,
      storageMb: Number(clean(row.storageMb)),
      apiRequestsPerMinute: Number(clean(row.apiRequestsPerMinute)),
      emailsPerHour: Number(clean(row.emailsPerHour)),
      signatureRequestsPerMonth: row.unlimitedSignatureRequests ? null : Number(clean(row.signatureRequestsPerMonth)),
    };
  });

export const ZPlansForm = z.object({ plans: z.array(ZPlanRow).pipe(ZPlanCatalogueInput) });
export type TPlansFormInput = z.input<typeof ZPlansForm>;
export type TPlansFormOutput = z.output<typeof ZPlansForm>;
export type TPlanRow = z.input<typeof ZPlanRow>;
export type TRowField = Exclude<keyof TPlanRow, 'id'>;

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

export function toRow(plan: TPlan): TPlanRow {
  return {
    id: plan.id,
    name: plan.name,
    contactSales: plan.id !== 'free' && plan.usdMonthly === null,
    usdMonthly: text(plan.usdMonthly),
    usdAnnualPerMonth: text(plan.usdAnnualPerMonth),
    inrMonthly: text(plan.inrMonthly),
    inrAnnualPerMonth: text(plan.inrAnnualPerMonth),
    unlimitedFormats: plan.formatLimit === null,
    formatLimit: text(plan.formatLimit ?? 1),
    generationsPerMonth: formatNumber(plan.generationsPerMonth),
    storageMb: formatNumber(storageMbOf(plan)),
    apiAccess: plan.apiAccess,
    apiRequestsPerMinute: formatNumber(apiRequestsPerMinuteOf(plan)),
    emailsPerHour: formatNumber(emailsPerHourOf(plan)),
    unlimitedSignatureRequests: signatureRequestsPerMonthOf(plan) === null,
    signatureRequestsPerMonth: formatNumber(signatureRequestsPerMonthOf(plan) ?? signatureRequestsPerMonthOf({ id: 'premium' }) ?? 0),
    features: plan.features.join('\n'),
    popular: plan.popular,
  };
}

/**
 * The four plans in their fixed order: a stored catalogue that lost one (edited by hand long ago)
 * gets it back from the built-in catalogue, so the form can always be saved.
 */
export function completeCatalogue(stored: TPlanCatalogue): { plans: TPlanCatalogue; restored: string[] } {
  const restored: string[] = [];
  const plans = DEFAULT_PLAN_CATALOGUE.map((fallback) => {
    const found = stored.find((p) => p.id === fallback.id);
    if (!found) restored.push(fallback.name);
    return found ?? fallback;
  });
  return { plans, restored };
}

/**
 * Leaves out what the stored catalogue left to the defaults and the form did not change, so saving
 * an untouched plan does not record it as changed.
 */
export function asStored(plan: TPlan, before: TPlan | undefined): TPlan {
  const next = { ...plan };
  if (before?.storageMb === undefined && next.storageMb === DEFAULT_STORAGE_MB[plan.id]) delete next.storageMb;
  if (before?.apiRequestsPerMinute === undefined && next.apiRequestsPerMinute === apiRequestsPerMinuteOf({})) delete next.apiRequestsPerMinute;
  if (before?.inrAnnualPerMonth === undefined && next.inrAnnualPerMonth === null) delete next.inrAnnualPerMonth;
  if (before?.emailsPerHour === undefined && next.emailsPerHour === emailsPerHourOf({ id: plan.id })) delete next.emailsPerHour;
  if (before?.signatureRequestsPerMonth === undefined && next.signatureRequestsPerMonth === signatureRequestsPerMonthOf({ id: plan.id })) {
    delete next.signatureRequestsPerMonth;
  }
  return next;
}

export function storageHint(mbText: string): string | undefined {
  const mb = clean(mbText);
  return WHOLE.test(mb) && Number(mb) >= 1024 ? `${formatBytes(Number(mb) * 1024 * 1024)} of images.` : undefined;
}

export const PRICE_FIELDS = [
  { currency: 'USD', symbol: '$', monthly: 'usdMonthly', annual: 'usdAnnualPerMonth' },
  { currency: 'INR', symbol: '₹', monthly: 'inrMonthly', annual: 'inrAnnualPerMonth' },
] as const;

/** "Blank: 25% off" or "$180 a year", from what is typed now. */
export function annualHint(monthlyText: string, annualText: string, currency: TCurrency): string {
  const monthly = clean(monthlyText);
  const annual = clean(annualText);
  if (annual !== '' && AMOUNT.test(annual)) return `Billed ${formatMinorUnits(toMinorUnits(Number(annual) * 12), currency)} a year.`;
  if (monthly !== '' && AMOUNT.test(monthly)) {
    const derived = Math.round(Number(monthly) * (1 - ANNUAL_DISCOUNT_PERCENT / 100));
    return `Blank: ${formatMinorUnits(toMinorUnits(derived), currency)} (${ANNUAL_DISCOUNT_PERCENT}% off).`;
  }
  return `Blank: ${ANNUAL_DISCOUNT_PERCENT}% off the monthly price.`;
}
