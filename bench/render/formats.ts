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
import type { TFilledValues } from '../../src/contract/filled-values.ts';
import type { TElementInput, TRenderableFormatInput } from '../../src/contract/format-content.ts';
import {
  INVOICE_HEADING_PREFIX,
  INVOICE_TAX_PERCENT,
  invoiceLines,
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
    ...T_PARAGRAPHS.map((content, i): TElementInput => ({ id: `p${i}`, type: 'paragraph', content, align: 'justify' })),
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
    ...UNICODE_LINES.map((l, i): TElementInput => ({
      id: `s${i}`,
      type: 'paragraph',
      content: l.text,
      align: l.script === 'arabic' ? 'right' : 'left',
    })),
  ];
  return { content: { elements, style, page }, placeholders: [...placeholders] };
}

/** The 200-line invoice: a list placeholder, a table row repeating per line, and formulas for the money. */
function invoice(): TRenderableFormatInput {
  const elements: TElementInput[] = [
    { id: 'heading', type: 'heading', content: `${INVOICE_HEADING_PREFIX} {{number}}`, fontSize: 'text-2xl', align: 'left', bold: true },
    { id: 'bill', type: 'paragraph', content: '**Bill to** {{customer}}' },
    {
      id: 'lines',
      type: 'table',
      headerRow: true,
      columnWidths: [55, 10, 17, 18],
      rows: [
        ['Description', 'Qty', 'Unit price', 'Amount'],
        ['{{description}}', '{{qty}}', '{{unit_price | currency}}', '{{amount | currency}}'],
        ['', '', 'Subtotal', '{{subtotal | currency}}'],
        ['', '', `Tax (${INVOICE_TAX_PERCENT}%)`, '{{tax | currency}}'],
        ['', '', '**Total**', '**{{total | currency}}**'],
      ],
      repeat: { row: 1, list: 'items' },
    },
  ];
  return {
    content: { elements, style, page, currency: 'EUR', tagFormats: true },
    placeholders: [
      ...placeholders,
      {
        name: 'items',
        type: 'list',
        columns: [
          { name: 'description', type: 'text' },
          { name: 'qty', type: 'number' },
          { name: 'unit_price', type: 'number' },
          { name: 'amount', type: 'formula', expression: 'qty * unit_price' },
        ],
      },
      { name: 'subtotal', type: 'formula', expression: 'sum(items.amount)' },
      { name: 'tax', type: 'formula', expression: `round(subtotal * ${INVOICE_TAX_PERCENT / 100}, 2)` },
      { name: 'total', type: 'formula', expression: 'subtotal + tax' },
    ],
  };
}

export const REFERENCE_FORMATS: Record<Kind, TRenderableFormatInput> = {
  '1p': reference(ROWS_20),
  '5p': reference(ROWS_150),
  unicode: unicodeSheet(),
  invoice: invoice(),
};

export const FORMAT_FILES: Record<Kind, string> = {
  '1p': 'reference-1p.json',
  '5p': 'reference-5p.json',
  unicode: 'unicode-sheet.json',
  invoice: 'invoice-200.json',
};

/** Placeholder values for document `i` (they vary, so no engine can cache a whole output). */
export function formatData(i: number): Record<string, string> {
  const d = docData(i);
  return { customer: d.customer, number: d.number };
}

/** Invoice `i`'s values: its customer and number, and its 200 lines. */
export function invoiceData(i: number): TFilledValues {
  return { ...formatData(i), items: invoiceLines(i).map((l) => ({ description: l.description, qty: String(l.qty), unit_price: l.unitPrice })) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = join(import.meta.dirname, 'formats');
  mkdirSync(dir, { recursive: true });
  for (const kind of Object.keys(FORMAT_FILES) as Kind[]) {
    writeFileSync(join(dir, FORMAT_FILES[kind]), `${JSON.stringify(REFERENCE_FORMATS[kind], null, 2)}\n`);
  }
  console.log(`wrote ${Object.values(FORMAT_FILES).join(', ')} to ${dir}`);
}
