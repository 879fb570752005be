import { describe, expect, it } from 'vitest';
import type { TPlanCatalogue } from '../../../contract/plans';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plan-catalogue';
import { annualHint, asStored, completeCatalogue, toRow, ZPlansForm, type TPlanRow } from './plans-form';

const rows = (edit: (row: TPlanRow, index: number) => TPlanRow = (r) => r) => ({ plans: DEFAULT_PLAN_CATALOGUE.map(toRow).map(edit) });

/** Field path → message, as the form shows them. */
function problems(values: { plans: TPlanRow[] }): Record<string, string> {
  const result = ZPlansForm.safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('the Plans form', () => {
  it('turns the catalogue into rows and back without changing it', () => {
    const parsed = ZPlansForm.parse(rows());
    const saved = parsed.plans.map((plan) =>
      asStored(
        plan,
        DEFAULT_PLAN_CATALOGUE.find((p) => p.id === plan.id),
      ),
    );
    expect(saved).toEqual(DEFAULT_PLAN_CATALOGUE);
    // What the stored catalogue left to the defaults stays left out.
    expect(saved.every((p) => !('storageMb' in p) && !('apiRequestsPerMinute' in p))).toBe(true);
  });

  it('reads numbers as people type them and prices plans as the switches say', () => {
    const parsed = ZPlansForm.parse(
      rows((row) =>
        row.id === 'basic'
          ? { ...row, inrMonthly: ' 1,299 ', inrAnnualPerMonth: '999.5', generationsPerMonth: '10 000', storageMb: '2_048' }
          : row.id === 'premium'
            ? { ...row, contactSales: true }
            : row.id === 'free'
              ? { ...row, unlimitedFormats: true, features: 'One\n\n  Two  \n' }
              : row,
      ),
    );
    const [free, basic, premium] = parsed.plans;
    expect(basic).toMatchObject({ inrMonthly: 1299, inrAnnualPerMonth: 999.5, generationsPerMonth: 10_000, storageMb: 2048 });
    expect(premium).toMatchObject({ usdMonthly: null, usdAnnualPerMonth: null, inrMonthly: null, inrAnnualPerMonth: null });
    expect(free).toMatchObject({ formatLimit: null, features: ['One', 'Two'], usdMonthly: 0, inrMonthly: 0 });
  });

  it('edits the monthly signature requests, unlimited as a switch, and keeps a default left out', () => {
    expect(toRow(DEFAULT_PLAN_CATALOGUE[0]!)).toMatchObject({ signatureRequestsPerMonth: '5', unlimitedSignatureRequests: false });
    expect(toRow(DEFAULT_PLAN_CATALOGUE[3]!)).toMatchObject({ unlimitedSignatureRequests: true });
    const parsed = ZPlansForm.parse(
      rows((row) =>
        row.id === 'free'
          ? { ...row, signatureRequestsPerMonth: '1,000' }
          : row.id === 'enterprise'
            ? { ...row, unlimitedSignatureRequests: false, signatureRequestsPerMonth: '20000' }
            : row,
      ),
    );
    const [free, basic, , enterprise] = parsed.plans;
    expect(free!.signatureRequestsPerMonth).toBe(1000);
    expect(enterprise!.signatureRequestsPerMonth).toBe(20_000);
    expect(asStored(basic!, DEFAULT_PLAN_CATALOGUE[1])).not.toHaveProperty('signatureRequestsPerMonth');
    expect(asStored(free!, DEFAULT_PLAN_CATALOGUE[0])).toMatchObject({ signatureRequestsPerMonth: 1000 });
    expect(problems(rows((row) => (row.id === 'basic' ? { ...row, signatureRequestsPerMonth: 'lots' } : row)))).toEqual({
      'plans.1.signatureRequestsPerMonth': 'Enter a whole number from 0 to 100,000,000, or turn on Unlimited.',
    });
  });

  it('says what is wrong with a field, on that field', () => {
    expect(
      problems(
        rows((row) =>
          row.id === 'basic' ? { ...row, usdMonthly: '', inrMonthly: '12.345', name: ' ', storageMb: '0', unlimitedFormats: false, formatLimit: 'many' } : row,
        ),
      ),
    ).toEqual({
      'plans.1.name': 'Give the plan a name.',
      'plans.1.usdMonthly': 'Enter the monthly price, or turn on Contact sales.',
      'plans.1.inrMonthly': 'Enter an amount such as 20 or 19.99.',
      'plans.1.formatLimit': 'Enter a whole number, 1 or more, or turn on Unlimited.',
      'plans.1.storageMb': 'Enter whole megabytes, 1 or more.',
    });
  });

  it('applies the contract’s rules across fields, with the paths the server uses', () => {
    expect(problems(rows((row) => (row.id === 'premium' ? { ...row, usdAnnualPerMonth: '120' } : row)))).toEqual({
      'plans.2.usdAnnualPerMonth': 'Billed annually, a month costs no more than monthly.',
    });
    expect(problems(rows((row) => (row.id === 'basic' ? { ...row, usdMonthly: '0', usdAnnualPerMonth: '' } : row)))).toEqual({
      'plans.1.usdMonthly': 'A paid plan needs a price above zero.',
    });
  });

  it('gives back a plan the stored catalogue lost, in its place', () => {
    const stored: TPlanCatalogue = DEFAULT_PLAN_CATALOGUE.filter((p) => p.id !== 'premium');
    const { plans, restored } = completeCatalogue(stored);
    expect(plans.map((p) => p.id)).toEqual(['free', 'basic', 'premium', 'enterprise']);
    expect(restored).toEqual(['Premium']);
  });

  it('shows what a yearly price comes to, or what a blank one will be', () => {
    expect(annualHint('20', '15', 'USD')).toBe('Billed $180 a year.');
    expect(annualHint('349', '', 'INR')).toBe('Blank: ₹262 (25% off).');
    expect(annualHint('', '', 'INR')).toBe('Blank: 25% off the monthly price.');
  });
});
