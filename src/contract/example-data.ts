import { isSigningPlaceholder, normalizePlaceholderName, placeholderLabel, type TPlaceholderType } from './placeholders.ts';

/*
 * An example `data` object for a format: every placeholder a caller sends, by its real name, with
 * a value its type accepts. The API reference, the builder, My Formats and the API tab all show
 * this one object, and the API's tests post it for every starter format, so "copy, paste, call"
 * works as it is. Formulas are left out (the document computes them) and so are signing
 * placeholders (a signer fills them in).
 */

/** A scalar example value: a number as a number, yes or no as a boolean, anything else as text. */
export type TExampleValue = string | number | boolean;
export type TExampleData = Record<string, TExampleValue | Record<string, TExampleValue>[]>;

/** What the example needs of a placeholder: the app's, the API's and a starter's all have it. */
export interface TExampleField {
  name: string;
  label?: string | undefined;
  type: TPlaceholderType;
  required: boolean;
  options: readonly string[];
}
export interface TExamplePlaceholder extends TExampleField {
  columns?: readonly TExampleField[] | undefined;
  minItems?: number | undefined;
  maxItems?: number | undefined;
}

/** The date every example uses: fixed, so an example (and a test or a docs page showing it) never changes by itself. */
export const EXAMPLE_DATE = '2027-01-15';

const words = (name: string) =>
  normalizePlaceholderName(name)
    .split(/[_\W]+/)
    .filter(Boolean);

function exampleText(field: TExampleField, long: boolean): string {
  const w = words(field.name);
  const has = (...candidates: string[]) => w.some((x) => candidates.includes(x));
  if (has('address')) return long ? '1 Main Street\nSpringfield, IL 62701' : '1 Main Street, Springfield';
  if (has('company', 'business', 'clinic', 'organisation', 'organization', 'employer', 'landlord', 'issuer')) return 'Acme Ltd';
  if (has('name', 'candidate', 'client', 'customer', 'tenant', 'patient', 'recipient', 'signatory', 'manager')) return 'Jane Doe';
  if (has('number', 'no', 'id', 'ref', 'reference', 'code')) return 'A-1001';
  if (has('city')) return 'Springfield';
  if (has('country')) return 'United States';
  return placeholderLabel(field);
}

function exampleNumber(field: TExampleField): number {
  const w = words(field.name);
  const has = (...candidates: string[]) => w.some((x) => candidates.includes(x));
  if (has('qty', 'quantity', 'count', 'units', 'hours', 'days', 'weeks', 'months', 'years', 'term')) return 2;
  if (has('rate', 'percent', 'percentage', 'pct', 'tax', 'discount')) return 10;
  return 1200;
}

/** The example value of one field, or undefined when it has none to send (a select without options). */
function exampleValue(field: TExampleField): TExampleValue | undefined {
  switch (field.type) {
    case 'number':
      return exampleNumber(field);
    case 'date':
      return EXAMPLE_DATE;
    case 'email':
      return 'jane.doe@example.com';
    case 'tel':
      return '+1 555 010 0100';
    case 'checkbox':
      // A required box must be ticked; any other is left unticked, so optional wording stays out.
      return field.required;
    case 'select':
      return field.options[0];
    case 'textarea':
      return exampleText(field, true);
    default:
      return exampleText(field, false);
  }
}

function exampleRow(columns: readonly TExampleField[]): Record<string, TExampleValue> {
  const row: Record<string, TExampleValue> = {};
  for (const column of columns) {
    if (column.type === 'formula') continue;
    const value = exampleValue(column);
    if (value !== undefined) row[column.name] = value;
  }
  return row;
}

/** Rows an example list has: its minimum, at least one, never more than it allows. */
function exampleRowCount(list: TExamplePlaceholder): number {
  const wanted = Math.max(list.minItems ?? 1, 1);
  return list.maxItems !== undefined ? Math.min(wanted, list.maxItems) : wanted;
}

/** The `data` to send for a document of a format with these placeholders, in their order. */
export function exampleData(placeholders: readonly TExamplePlaceholder[]): TExampleData {
  const data: TExampleData = {};
  for (const p of placeholders) {
    if (p.type === 'formula' || isSigningPlaceholder(p)) continue;
    if (p.type === 'list') {
      const row = exampleRow(p.columns ?? []);
      data[p.name] = Array.from({ length: exampleRowCount(p) }, () => ({ ...row }));
      continue;
    }
    const value = exampleValue(p);
    if (value !== undefined) data[p.name] = value;
  }
  return data;
}
