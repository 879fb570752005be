import { describe, expect, it } from 'vitest';
import { dateKindOfFormat, plainNumber, serialToText } from './cell-values.ts';

describe('number and date helpers', () => {
  it('writes numbers as plain decimals with the 15 digits Excel keeps', () => {
    expect([0.1 + 0.2, 1e21, -1.5e-7, 100, -0, 1234.5, 2 / 3, 123456789012345680000].map(plainNumber)).toEqual([
      '0.3',
      '1000000000000000000000',
      '-0.00000015',
      '100',
      '0',
      '1234.5',
      '0.666666666666667',
      '123456789012346000000',
    ]);
  });

  it('tells date, time and other number formats apart', () => {
    expect(
      [
        'yyyy-mm-dd',
        'd-mmm',
        'mmm yyyy',
        'h:mm AM/PM',
        'mm:ss',
        '[h]:mm:ss',
        '0.00',
        '#,##0 "days"',
        '0%',
        'General',
        '0.00E+00',
        '[Red]0.00;[Blue]-0.00',
        '\\d0',
        '[$-409]d mmmm yyyy',
      ].map(dateKindOfFormat),
    ).toEqual(['date', 'date', 'date', 'time', 'time', 'time', null, null, null, null, null, null, null, 'date']);
  });

  it('turns Excel serials into dates, including around the 1900 leap-year bug', () => {
    expect(serialToText(1, 'date', false)).toBe('1900-01-01');
    expect(serialToText(59, 'date', false)).toBe('1900-02-28');
    expect(serialToText(61, 'date', false)).toBe('1900-03-01');
    expect(serialToText(45721.999999, 'date', false)).toBe('2025-03-06');
    expect(serialToText(-1, 'date', false)).toBe('-1');
    expect(serialToText(0.75, 'time', false)).toBe('18:00');
  });
});
