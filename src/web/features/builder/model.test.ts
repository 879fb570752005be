import { describe, expect, it } from 'vitest';
import { columnPercents, MIN_COLUMN_PERCENT, withColumnPercent } from './model';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('column widths', () => {
  it('reads weights, missing ones weighing 1, as percentages', () => {
    expect(columnPercents(undefined, 4)).toEqual([25, 25, 25, 25]);
    expect(columnPercents([1, 2, 1], 3)).toEqual([25, 50, 25]);
    expect(columnPercents([2], 3)).toEqual([50, 25, 25]);
  });

  it('sets one column and shares the rest in proportion', () => {
    expect(withColumnPercent(undefined, 3, 0, 50)).toEqual([50, 25, 25]);
    expect(withColumnPercent([20, 60, 20], 3, 2, 40)).toEqual([15, 45, 40]);
  });

  it('keeps every column at least the minimum and the total at 100', () => {
    const widths = withColumnPercent([10, 80, 10], 3, 1, 99);
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(MIN_COLUMN_PERCENT);
    expect(sum(widths)).toBeCloseTo(100, 5);
    expect(withColumnPercent(undefined, 2, 0, 1)).toEqual([MIN_COLUMN_PERCENT, 100 - MIN_COLUMN_PERCENT]);
    const squeezed = withColumnPercent([5, 5, 90], 3, 2, 50);
    expect(squeezed).toEqual([25, 25, 50]);
    expect(withColumnPercent([30, 70], 1, 0, 40)).toEqual([100]);
  });
});
