/**
 * The reference documents as Formwork formats (the contract's content model), plus the data
 * and assets our renderer gets for document number `i`.
 *
 * Run `tsx bench/render/formats.ts` to refresh the JSON copies in bench/render/formats/
 * (handy for tests and for looking at a format by eye).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TElementInput, TRenderableFormatInput } from '../../src/contract/format-content.ts';
import {
  LAYOUT,
  LIST_ITEMS,
  ROWS_150,
  ROWS_20,
  TABLE_HEADER,
  TABLE_WIDTHS,
  T_HEADING,
  T_PARAGRAPHS,
  UNICODE_LINES,
  docData,
  type Kind,
} from './fixture.ts';

/** The asset key the reference image is referenced by (the renderer never fetches it). */
export const IMAGE_SRC = '/api/assets/bench-gradient';

const page = {
  size: 'A4',
  orientation: 'portrait',
  margins: { top: LAYOUT.marginMm, right: LAYOUT.marginMm, bottom: LAYOUT.marginMm, left: LAYOUT.marginMm },
} as const;

const style = { fontFamily: 'Arial', fontSize: LAYOUT.bodyPx, color: '#000000' } as const;

const placeholders = [
  { name: 'customer', label: 'Customer', type: 'text', required: true },
  { name: 'number', label: 'Document number', type: 'text', required: true },
] as const;

function reference(rows: string[][]): TRenderableFormatInput {
  const elements: TElementInput[] = [
    { id: 'heading', type: 'heading', content: T_HEADING, fontSize: 'text-2xl', align: 'left', bold: true },
    ...T_PARAGRAPHS.map(
      (content, i): TElementInput => ({ id: `p${i}`, type: 'paragraph', content, align: 'justify' }),
    ),
    { id: 'list', type: 'list', items: [...LIST_ITEMS], listStyle: 'bulleted' },
    {
      id: 'image',
      type: 'image',
      src: IMAGE_SRC,
      width: LAYOUT.imagePx.width,
      height: LAYOUT.imagePx.height,
      align: 'left',
    },
    {
      id: 'table',
      type: 'table',
      rows: [TABLE_HEADER, ...rows],
      headerRow: true,
      columnWidths: TABLE_WIDTHS.map((w) => Math.round(w * 100)),
    },
  ];
  return { content: { elements, style, page }, placeholders: [...placeholders] };
}

function unicodeSheet(): TRenderableFormatInput {
  const elements: TElementInput[] = [
    { id: 'heading', type: 'heading', content: T_HEADING, fontSize: 'text-2xl', align: 'left', bold: true },
    { id: 'p0', type: 'paragraph', content: T_PARAGRAPHS[0] ?? '', align: 'justify' },
    ...UNICODE_LINES.map(
      (l, i): TElementInput => ({
        id: `s${i}`,
        type: 'paragraph',
        content: l.text,
        align: l.script === 'arabic' ? 'right' : 'left',
      }),
    ),
  ];
  return { content: { elements, style, page }, placeholders: [...placeholders] };
}

export const REFERENCE_FORMATS: Record<Kind, TRenderableFormatInput> = {
  '1p': reference(ROWS_20),
  '5p': reference(ROWS_150),
  unicode: unicodeSheet(),
};

export const FORMAT_FILES: Record<Kind, string> = {
  '1p': 'reference-1p.json',
  '5p': 'reference-5p.json',
  unicode: 'unicode-sheet.json',
};

/** Placeholder values for document `i` (they vary, so no engine can cache a whole output). */
export function formatData(i: number): Record<string, string> {
  const d = docData(i);
  return { customer: d.customer, number: d.number };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = join(import.meta.dirname, 'formats');
  mkdirSync(dir, { recursive: true });
  for (const kind of Object.keys(FORMAT_FILES) as Kind[]) {
    writeFileSync(join(dir, FORMAT_FILES[kind]), `${JSON.stringify(REFERENCE_FORMATS[kind], null, 2)}\n`);
  }
  console.log(`wrote ${Object.values(FORMAT_FILES).join(', ')} to ${dir}`);
}
