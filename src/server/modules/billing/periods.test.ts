import { describe, expect, it } from 'vitest';
import { planChange } from '../../../contract/plan-catalogue.ts';
import { addMonths, periodEnd, quotaMonth, unusedShare } from './periods.ts';

const d = (iso: string) => new Date(iso);

describe('billing periods', () => {
  it('ends a period on the same day a month or a year on, or the month’s last day', () => {
    expect(periodEnd(d('2026-01-15T10:00:00Z'), 'monthly').toISOString()).toBe('2026-02-15T10:00:00.000Z');
    expect(periodEnd(d('2026-01-31T10:00:00Z'), 'monthly').toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(periodEnd(d('2028-02-29T00:00:00Z'), 'yearly').toISOString()).toBe('2029-02-28T00:00:00.000Z');
    expect(periodEnd(d('2026-12-31T23:59:00Z'), 'monthly').toISOString()).toBe('2027-01-31T23:59:00.000Z');
    // Counted from the start, never from the previous month: 31 January stays the 31st in March.
    expect(addMonths(d('2026-01-31T00:00:00Z'), 2).toISOString()).toBe('2026-03-31T00:00:00.000Z');
  });

  it('counts a yearly period month by month', () => {
    const start = d('2026-01-31T00:00:00Z');
    expect(quotaMonth(start, d('2026-02-01T00:00:00Z'))).toEqual({ start, end: d('2026-02-28T00:00:00Z') });
    expect(quotaMonth(start, d('2026-02-28T00:00:00Z'))).toEqual({ start: d('2026-02-28T00:00:00Z'), end: d('2026-03-31T00:00:00Z') });
    expect(quotaMonth(start, d('2026-12-30T00:00:00Z')).start.toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(quotaMonth(start, start)).toEqual({ start, end: d('2026-02-28T00:00:00Z') });
  });

  it('measures the unused share of a period', () => {
    expect(unusedShare(d('2026-01-01T00:00:00Z'), d('2026-01-11T00:00:00Z'), d('2026-01-06T00:00:00Z'))).toBe(0.5);
    expect(unusedShare(d('2026-01-01T00:00:00Z'), d('2026-01-11T00:00:00Z'), d('2026-02-01T00:00:00Z'))).toBe(0);
  });

  it('tells an upgrade from a downgrade', () => {
    expect(planChange({ plan: 'basic', cycle: 'monthly' }, { plan: 'premium', cycle: 'monthly' })).toBe('upgrade');
    expect(planChange({ plan: 'basic', cycle: 'monthly' }, { plan: 'basic', cycle: 'yearly' })).toBe('new-period');
    expect(planChange({ plan: 'basic', cycle: 'monthly' }, { plan: 'premium', cycle: 'yearly' })).toBe('new-period');
    expect(planChange({ plan: 'premium', cycle: 'monthly' }, { plan: 'basic', cycle: 'yearly' })).toBe('downgrade');
    expect(planChange({ plan: 'basic', cycle: 'yearly' }, { plan: 'premium', cycle: 'monthly' })).toBe('downgrade');
    expect(planChange({ plan: 'basic', cycle: 'yearly' }, { plan: 'basic', cycle: 'yearly' })).toBe('same');
  });
});
