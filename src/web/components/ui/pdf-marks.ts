/*
 * Marks over drawn PDF pages: text to find in a page's text layer, and the box around it. Pure
 * geometry, so it is tested without a canvas; pdf-pages.tsx feeds it PDF.js's text items.
 */

/** Text to find, and the box it belongs to in PDF points from the text's start on its baseline (y up). */
export interface TPdfMark {
  text: string;
  box: { left: number; bottom: number; width: number; height: number };
}

/** A mark found on a page (0-based), in CSS px from the page's top left. */
export interface TPdfMarkRect {
  page: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A PDF.js text item: only what finding marks reads. */
export interface TPdfTextItem {
  str: string;
  transform: readonly number[];
}

function apply(m: readonly number[], x: number, y: number): [number, number] {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = m;
  return [a * x + c * y + e, b * x + d * y + f];
}

/**
 * Where each mark's text is on one page. `viewport` is the page viewport's transform at CSS scale
 * (it flips PDF's bottom-up y). Text that holds more than the mark, as a tag written inside a
 * sentence, is not a mark.
 */
export function findMarks(items: readonly TPdfTextItem[], marks: readonly TPdfMark[], viewport: readonly number[], page: number): TPdfMarkRect[] {
  const found: TPdfMarkRect[] = [];
  for (const item of items) {
    const text = item.str.trim();
    const mark = marks.find((m) => m.text === text);
    if (!mark) continue;
    const [, , , , x = 0, y = 0] = item.transform;
    const { left, bottom, width, height } = mark.box;
    const [x1, y1] = apply(viewport, x + left, y + bottom);
    const [x2, y2] = apply(viewport, x + left + width, y + bottom + height);
    found.push({ page, left: Math.min(x1, x2), top: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) });
  }
  return found;
}

/** Marks in reading order: by page, then top to bottom, then left to right. */
export function orderMarks(rects: readonly TPdfMarkRect[]): TPdfMarkRect[] {
  return [...rects].sort((a, b) => a.page - b.page || a.top - b.top || a.left - b.left);
}
