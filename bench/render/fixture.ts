/**
 * The reference documents, described once in an engine-neutral shape. Every engine (ours via a
 * Formwork format, pdfkit, pdfme, Chromium) draws the same content from this description.
 *
 * Each benchmark iteration renders a *different* document: a customer name and a document number
 * vary per iteration (in our renderer they are `{{customer}}` / `{{number}}` placeholders), so no
 * engine can return a cached whole output.
 */

export type Kind = '1p' | '5p' | 'unicode' | 'invoice';
export const KINDS: readonly Kind[] = ['1p', '5p', 'unicode', 'invoice'];

/** The text `pdftotext` must find in every engine's output (the heading's fixed part). */
export const HEADING_PREFIX = 'Quarterly Service Report';
export const INVOICE_HEADING_PREFIX = 'Invoice';
export const headingPrefixOf = (kind: Kind) => (kind === 'invoice' ? INVOICE_HEADING_PREFIX : HEADING_PREFIX);

/**
 * The invoice is a document of logic: a list of 200 lines whose amounts, subtotal, tax and total
 * are computed, in a table whose row repeats per line. Only the engines that stand for "template
 * plus data" take it: ours (a format with a list, a repeating row and formulas) and Chromium
 * (HTML built from the same data, amounts computed in integer cents).
 */
export const INVOICE_LINES = 200;
export const INVOICE_TAX_PERCENT = 20;
export const ENGINE_KINDS = {
  ours: KINDS,
  tagged: ['1p', 'invoice'],
  chromium: KINDS,
  pdfkit: ['1p', '5p', 'unicode'],
  pdfme: ['1p', '5p', 'unicode'],
} as const satisfies Record<string, readonly Kind[]>;

export interface InvoiceLine {
  description: string;
  qty: number;
  /** Two decimals, as typed. */
  unitPrice: string;
}

export interface RefDoc {
  kind: Kind;
  title: string;
  heading: string;
  paragraphs: string[];
  /** Extra paragraphs for the Unicode sheet, each tagged with the script it needs a font for. */
  scriptLines: { script: 'latin' | 'devanagari' | 'arabic'; text: string }[];
  listItems: string[];
  table: { header: string[]; rows: string[][]; widths: number[] } | null;
  image: { widthPt: number; heightPt: number } | null;
}

/**
 * Layout shared by all engines. Formwork sizes are CSS px, printed at 0.75 pt per px (as the
 * content model says); the baselines are given the same sizes in pt.
 */
export const LAYOUT = {
  marginMm: 12,
  bodyPx: 12,
  headingPx: 24, // text-2xl
  imagePx: { width: 200, height: 100 },
  /** For the baselines, matching our renderer's layout: line height (x font size), cell padding
   * and the gap between blocks, in pt. */
  lineHeight: 1.4,
  cellPadPt: { x: 5, y: 3 },
  blockGapPt: 12,
} as const;
export const PT_PER_PX = 0.75;
export const MM_TO_PT = 72 / 25.4;

/** Per-document data. */
export interface DocData {
  customer: string;
  number: string;
}

const CUSTOMERS = ['Amélie Dupont', 'Jürgen Weiß', 'Søren Kierkegaard', 'Zoë Ashford', 'Iñigo Montoya'];

export function docData(i: number): DocData {
  return { customer: CUSTOMERS[i % CUSTOMERS.length] ?? 'Nobody', number: `FW-${String(100000 + i)}` };
}

// Template text; `{{customer}}` and `{{number}}` are the placeholders.
export const T_HEADING = `${HEADING_PREFIX} {{number}}`;
export const T_PARAGRAPHS = [
  'Prepared for {{customer}}. This report summarises the service activity recorded during the ' +
    'quarter, including response times, resolved requests and the open items that still need ' +
    'attention before the next review. All amounts are shown in euros (€) unless stated otherwise.',
  'Requests were handled by three regional teams. The average first response came within four ' +
    'working hours, and ninety-two per cent of the requests were closed within the agreed service ' +
    'window. The remaining requests were waiting for parts or for information from the customer.',
  'The table below lists each request with its category, its status and the hours spent on it. ' +
    'Please review the open items and confirm the priorities for the coming quarter; reply to this ' +
    'report or contact your account manager, who will schedule a short call at a convenient time.',
];
export const LIST_ITEMS = [
  'Replace the worn drive belts on line two before the end of the month',
  'Confirm the new maintenance window for the cooling system',
  'Review the spare-parts stock levels with the warehouse team',
  'Approve the updated safety checklist for night shifts',
  'Schedule the annual calibration of the measuring instruments',
];

const CATEGORIES = ['Electrical', 'Mechanical', 'Software', 'Inspection', 'Safety'];

/** The products an invoice's lines come from, as a business invoices from its price list. */
const CATALOGUE = Array.from({ length: 60 }, (_, p) => ({
  description: `${CATEGORIES[p % CATEGORIES.length] ?? ''} service, ${['standard', 'express', 'on site', 'remote'][p % 4]} (code S-${String(1000 + p * 7)})`,
  unitPrice: (((p * 1373) % 45000) / 100 + 12.5).toFixed(2),
}));

/** Document `i`'s lines: products picked and counted differently for every document, so its amounts and totals differ. */
export function invoiceLines(i: number): InvoiceLine[] {
  return Array.from({ length: INVOICE_LINES }, (_, k) => {
    const product = CATALOGUE[(k * 7 + i * 13) % CATALOGUE.length]!;
    return { description: product.description, qty: ((k + i) % 9) + 1, unitPrice: product.unitPrice };
  });
}
const STATUSES = ['Closed', 'Open', 'Waiting for parts', 'Closed', 'In progress'];

export function tableRows(n: number): string[][] {
  const rows: string[][] = [];
  for (let i = 0; i < n; i++) {
    rows.push([
      `REQ-${String(2400 + i)}`,
      CATEGORIES[i % CATEGORIES.length] ?? '',
      STATUSES[(i * 3) % STATUSES.length] ?? '',
      (((i * 37) % 90) / 10 + 0.5).toFixed(1),
    ]);
  }
  return rows;
}

export const TABLE_HEADER = ['Request', 'Category', 'Status', 'Hours'];
export const TABLE_WIDTHS = [0.22, 0.28, 0.32, 0.18];

export const UNICODE_LINES: RefDoc['scriptLines'] = [
  { script: 'latin', text: 'Latin: Crème brûlée, façade, naïve, Øresund, Łódź, Straße, Ærøskøbing, Dvořák.' },
  { script: 'latin', text: 'Greek: Καλημέρα κόσμε — ξεσκεπάζω την ψυχοφθόρα βδελυγμία.' },
  { script: 'latin', text: 'Cyrillic: Съешь же ещё этих мягких французских булок, да выпей чаю.' },
  { script: 'latin', text: 'Currency: ₹ 1,250.00 · € 99.90 · £ 45.00 · ¥ 3,000 · “quotes” – dash…' },
  { script: 'devanagari', text: 'नमस्ते दुनिया — क्षत्रिय, श्रीमान्, द्वार, हिन्दी, प्रत्येक, कृपया' },
  { script: 'arabic', text: 'مرحبا بالعالم — فاتورة رقم ١٢٣ للعميل' },
];

/** Substitute the two placeholders (what every baseline does with its own templating). */
export function fill(template: string, d: DocData): string {
  return template.replaceAll('{{customer}}', d.customer).replaceAll('{{number}}', d.number);
}

/** The fully substituted document for the baselines. */
export function refDoc(kind: Kind, d: DocData): RefDoc {
  const heading = fill(T_HEADING, d);
  if (kind === 'unicode') {
    return {
      kind,
      title: `Unicode sheet ${d.number}`,
      heading,
      paragraphs: [fill(T_PARAGRAPHS[0] ?? '', d)],
      scriptLines: UNICODE_LINES,
      listItems: [],
      table: null,
      image: null,
    };
  }
  return {
    kind,
    title: `Reference ${kind} ${d.number}`,
    heading,
    paragraphs: T_PARAGRAPHS.map((p) => fill(p, d)),
    scriptLines: [],
    listItems: LIST_ITEMS,
    table: { header: TABLE_HEADER, rows: kind === '5p' ? ROWS_150 : ROWS_20, widths: TABLE_WIDTHS },
    image: { widthPt: LAYOUT.imagePx.width * PT_PER_PX, heightPt: LAYOUT.imagePx.height * PT_PER_PX },
  };
}

export const ROWS_20 = tableRows(20);
export const ROWS_150 = tableRows(150);
