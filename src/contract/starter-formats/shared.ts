import type { TElementInput, TFormatContent, TFormatContentInput } from '../format-content.ts';
import type { TPlaceholder, TPlaceholderInput } from '../placeholders.ts';

export interface TStarterFormatInput {
  id: string;
  name: string;
  description: string;
  category: string;
  content: TFormatContentInput;
  placeholders: TPlaceholderInput[];
}

export interface TStarterFormat extends Omit<TStarterFormatInput, 'content' | 'placeholders'> {
  content: TFormatContent;
  placeholders: TPlaceholder[];
}

export const FOOTER = { text: 'Page {{page}} of {{pages}}', align: 'center' as const, style: { fontSize: 12 as const, color: '#6b7280' } };

export const LINE_ITEMS = {
  type: 'list',
  required: true,
  label: 'Line items',
  columns: [
    { name: 'description', type: 'text', required: true },
    { name: 'qty', label: 'Qty', type: 'number', required: true },
    { name: 'unit_price', label: 'Unit price', type: 'number', required: true, display: 'currency' },
    { name: 'amount', type: 'formula', expression: 'qty * unit_price', display: 'currency' },
  ],
} as const;

/** A table of line items (its second row repeats once per item), then the totals. */
export function linesTable(id: string, totals: string[][]): TElementInput {
  return {
    id,
    type: 'table',
    headerRow: true,
    columnWidths: [52, 10, 19, 19],
    rows: [['Description', 'Qty', 'Unit price', 'Amount'], ['{{description}}', '{{qty}}', '{{unit_price}}', '{{amount}}'], ...totals],
    repeat: { row: 1, list: 'items' },
  };
}
