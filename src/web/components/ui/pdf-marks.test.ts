import { describe, expect, it } from 'vitest';
import { findMarks, orderMarks, type TPdfMark } from './pdf-marks';

// A PDF.js viewport at CSS scale 1.5 on an 842 pt tall page: x scaled, y flipped from the page's bottom.
const viewport = [1.5, 0, 0, -1.5, 0, 842 * 1.5];
const mark: TPdfMark = { text: 'Signature · Signer 1', box: { left: -6, bottom: -3, width: 200, height: 56 } };
const at = (str: string, x: number, y: number) => ({ str, transform: [7, 0, 0, 7, x, y] });

describe('findMarks', () => {
  it('places the box around its text in CSS px from the page’s top left', () => {
    const [rect] = findMarks([at('Signature · Signer 1', 78, 700)], [mark], viewport, 0);
    // Box from x 72 to 272 pt and y 697 to 753 pt (bottom-up), so its top is 842 − 753 = 89 pt down.
    expect(rect).toEqual({ page: 0, left: 108, top: 133.5, width: 300, height: 84 });
  });

  it('finds only the exact text, not the text inside a sentence or another signer’s', () => {
    const items = [
      at('[Signature · Signer 1]', 10, 10),
      at('Signature · Signer 10', 10, 20),
      at('Signature · Signer 2', 10, 30),
      at(' Signature · Signer 1 ', 10, 40),
    ];
    const found = findMarks(items, [mark], viewport, 2);
    expect(found).toHaveLength(1);
    expect(found[0]!.page).toBe(2);
  });

  it('finds nothing when there are no marks or no text', () => {
    expect(findMarks([at('Signature · Signer 1', 0, 0)], [], viewport, 0)).toEqual([]);
    expect(findMarks([], [mark], viewport, 0)).toEqual([]);
  });
});

describe('orderMarks', () => {
  it('orders by page, then top to bottom, then left to right', () => {
    const box = { width: 10, height: 10 };
    const rects = [
      { page: 1, left: 0, top: 0, ...box },
      { page: 0, left: 50, top: 100, ...box },
      { page: 0, left: 0, top: 100, ...box },
      { page: 0, left: 90, top: 20, ...box },
    ];
    expect(orderMarks(rects).map((r) => [r.page, r.top, r.left])).toEqual([
      [0, 20, 90],
      [0, 100, 0],
      [0, 100, 50],
      [1, 0, 0],
    ]);
  });
});
