import type { TFormatInput } from '../../../../contract/formats.ts';

/*
 * The costliest free work one user can ask for, shared by request-cost.test.ts (what the server
 * answers) and bench/api (how fast /healthz answers meanwhile).
 */

const textColumns = Array.from({ length: 16 }, (_, i) => ({ name: `c${i}`, type: i % 2 ? 'number' : 'text', required: true }) as const);
/** Twenty columns, two of them formulas over the row: the costliest list a format may have to check. */
export const wideInvoice: TFormatInput = {
  name: 'Wide invoice',
  content: {
    elements: [
      { id: 'h', type: 'heading', content: 'Invoice' },
      { id: 't', type: 'table', rows: [['{{c0}}', '{{c1}}', '{{qty}}', '{{amount}}']], repeat: { row: 0, list: 'items' } },
      { id: 'p', type: 'paragraph', content: 'Total {{total}}' },
    ],
  },
  placeholders: [
    {
      name: 'items',
      type: 'list',
      required: true,
      columns: [
        ...textColumns,
        { name: 'qty', type: 'number', required: true },
        { name: 'price', type: 'number', required: true },
        { name: 'amount', type: 'formula', expression: 'qty * price' },
        { name: 'tax', type: 'formula', expression: 'round(amount * 0.18, 2)' },
      ],
    },
    { name: 'total', type: 'formula', expression: 'sum(items.amount)' },
  ],
};

/** `count` rows for `wideInvoice`'s list; invalid rows fail every number column. */
export function wideInvoiceRows(count: number, valid: boolean) {
  return Array.from({ length: count }, (_, i) => ({
    ...Object.fromEntries(textColumns.map((c) => [c.name, c.type === 'number' ? (valid ? String(i) : 'not a number') : `row ${i} text`])),
    qty: valid ? '2' : 'two',
    price: '12.50',
  }));
}

/** The flood: invalid 1,000-row lists on 6 connections and filled previews on 60, at once. */
export const FLOOD = {
  invalidListConnections: 6,
  previewConnections: 60,
  rows: 1_000,
} as const;
