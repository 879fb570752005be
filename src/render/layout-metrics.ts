import type { Line } from './text.ts';

/*
 * The measures blocks are laid out with, in points. Builder sizes are CSS pixels and print at
 * 0.75 pt each, as a browser prints them.
 */

export const PX = 0.75;
export const LINE_HEIGHT = 1.4;
export const HEADING_LINE_HEIGHT = 1.25;
export const BLOCK_GAP = 12;
export const CELL_PAD_X = 5;
export const CELL_PAD_Y = 3;
export const BORDER = '#9ca3af';
export const HEADER_FILL = '#f3f4f6';
export const MISSING_IMAGE = '#9ca3af';

/** Baseline below the line's top: the glyphs sit centred in the line box, as CSS does. */
export function baselineOffset(size: number, lineHeight: number): number {
  return (lineHeight - size) / 2 + size * 0.8;
}

export function maxLines(cells: Line[][]): number {
  let m = 0;
  for (const c of cells) if (c.length > m) m = c.length;
  return m;
}

export function rowHeight(cells: Line[][], lh: number): number {
  return Math.max(1, maxLines(cells)) * lh + 2 * CELL_PAD_Y;
}
