import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDate, formatNumber } from './utils';

// formatNumber and formatDate write the common cases by hand (no Intl on the dashboard's first
// render); what they write must be exactly what Intl's en-US writes.
describe('formatNumber', () => {
  const intl = new Intl.NumberFormat('en-US');

  it('writes every safe integer as Intl en-US does', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => formatNumber(n) === intl.format(n)));
    for (const n of [0, 7, 12, 999, 1000, -1000, 100_000, 999_999, 1_000_000, -12_345_678, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      expect(formatNumber(n)).toBe(intl.format(n));
    }
  });

  it('leaves fractions and numbers beyond the safe range to Intl', () => {
    for (const n of [1.5, 1234.5678, -0.25, 2 ** 60, 1e21]) expect(formatNumber(n)).toBe(intl.format(n));
  });
});

describe('formatDate', () => {
  const intl = (iso: string, withTime = false) =>
    new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', ...(withTime ? { hour: 'numeric', minute: '2-digit' } : {}) });

  it('writes a day as Intl en-US does, in the local time zone', () => {
    const instants = fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true });
    fc.assert(fc.property(instants, (d) => formatDate(d.toISOString()) === intl(d.toISOString())));
    expect(formatDate('2026-11-25T10:00:00Z')).toBe(intl('2026-11-25T10:00:00Z'));
  });

  it('writes a time through Intl, and nothing for a missing or broken date', () => {
    expect(formatDate('2026-11-25T15:05:00Z', true)).toBe(intl('2026-11-25T15:05:00Z', true));
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
