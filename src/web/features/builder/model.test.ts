import { describe, expect, it } from 'vitest';
import { columnPercents, createElement, elementsBefore, MIN_COLUMN_PERCENT, nextHeadingLevel, toggleInlineMarker, withColumnPercent } from './model';

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

describe('toggleInlineMarker', () => {
  it('makes the selected words bold or italic, leaving the spaces around them outside', () => {
    expect(toggleInlineMarker('Pay the total now', 8, 14, '**')).toEqual({ value: 'Pay the **total** now', start: 10, end: 15 });
    expect(toggleInlineMarker('Pay the total now', 4, 8, '*')).toEqual({ value: 'Pay *the* total now', start: 5, end: 8 });
  });

  it('takes the marker off words that already have it, selected with or without it', () => {
    expect(toggleInlineMarker('Pay the **total** now', 10, 15, '**')).toEqual({ value: 'Pay the total now', start: 8, end: 13 });
    expect(toggleInlineMarker('Pay the **total** now', 8, 17, '**')).toEqual({ value: 'Pay the total now', start: 8, end: 13 });
    expect(toggleInlineMarker('Pay *the* total', 5, 8, '*')).toEqual({ value: 'Pay the total', start: 4, end: 7 });
  });

  it('does not mistake bold for italic', () => {
    expect(toggleInlineMarker('a **b** c', 4, 5, '*')).toEqual({ value: 'a ***b*** c', start: 5, end: 6 });
  });

  it('does nothing without a selection', () => {
    expect(toggleInlineMarker('abc', 1, 1, '**')).toBeNull();
    expect(toggleInlineMarker('a   b', 1, 4, '*')).toBeNull();
  });
});

describe('nextHeadingLevel', () => {
  const heading = (id: string, level?: 1 | 2 | 3) => ({ ...createElement('heading', id), ...(level ? { level } : {}) });
  const paragraph = (id: string) => createElement('paragraph', id);

  it('starts a format at level 1, goes one deeper after level 1, and stays a sibling after a deeper one', () => {
    expect(nextHeadingLevel([])).toBe(1);
    expect(nextHeadingLevel([paragraph('p')])).toBe(1);
    expect(nextHeadingLevel([heading('a', 1), paragraph('p')])).toBe(2);
    expect(nextHeadingLevel([heading('a', 1), heading('b', 3)])).toBe(3);
  });

  it('reads only the headings above where the new one goes, sections opened up', () => {
    const section = { ...createElement('section', 's'), elements: [heading('in', 1), paragraph('q')] } as ReturnType<typeof createElement>;
    const elements = [heading('top', 2), section, heading('last', 3)];
    expect(nextHeadingLevel(elementsBefore(elements, 'top'))).toBe(2);
    expect(nextHeadingLevel(elementsBefore(elements, 'q'))).toBe(2);
    expect(nextHeadingLevel(elementsBefore(elements, null))).toBe(3);
  });
});
