import { DOCUMENT_NAME_TAG } from '../../../contract/delivery.ts';
import { hasControlChars, MAX_SUBJECT_LENGTH, ZEmailAddress } from '../../../contract/mail.ts';
import { substitutePlaceholders } from '../../../contract/placeholders.ts';

/** One document of a finished batch, with what its spreadsheet row held beyond the placeholders. */
export type TFilledRow = {
  documentId: string;
  name: string;
  row: number;
  data: Record<string, unknown>;
  /** Cells of columns that fill no placeholder, by column index. */
  extra: Record<string, string>;
};

/** A value as text in a template: lists and other shapes print as nothing. */
const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');

/** A template with the row's values: `{{document}}` is the document's name, other tags its placeholders. */
export function fillTemplate(template: string, row: Pick<TFilledRow, 'name' | 'data'>): string {
  return substitutePlaceholders(template, (name) => (name === DOCUMENT_NAME_TAG ? row.name : text(row.data[name])));
}

/** A filled subject on one line: a value with line breaks cannot start a header of its own. */
export function oneLine(value: string): string {
  const flat = hasControlChars(value) ? value.replace(/[\u0000-\u001f\u007f]+/g, ' ') : value;
  return flat.replace(/\s+/g, ' ').trim().slice(0, MAX_SUBJECT_LENGTH);
}

/** The row's cell in `column`: through the placeholder it fills, or kept aside when it fills none. */
export function cellOf(row: Pick<TFilledRow, 'data' | 'extra'>, column: number, mapping: Record<string, number | null>): string {
  const placeholder = Object.entries(mapping).find(([, index]) => index === column)?.[0];
  return (placeholder ? text(row.data[placeholder]) : (row.extra[String(column)] ?? '')).trim();
}

/** The address in a cell, or why it cannot be used. */
export function checkAddress(cell: string): { address: string } | { problem: string } {
  if (cell === '') return { problem: 'No email address in this row.' };
  const parsed = ZEmailAddress.safeParse(cell);
  return parsed.success ? { address: parsed.data } : { problem: `“${cell.slice(0, 80)}” is not a valid email address.` };
}
