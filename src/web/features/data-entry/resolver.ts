import type { FieldError, FieldErrors, Resolver } from 'react-hook-form';
import { checkDocumentData, type TDataCheck } from '../../../contract/documents';
import type { TFormatContent } from '../../../contract/format-content';
import { isSigningPlaceholder, type TPlaceholder } from '../../../contract/placeholders';

/**
 * Form field keys are `f0`, `f1`, … rather than placeholder names, and a list's columns are `c0`,
 * `c1`, …: a name may contain a dot, which react-hook-form would read as a nested path. A list's
 * value is its rows; a checkbox's is 'true' or 'false'.
 */
export type TFormRow = Record<string, string>;
export type TFormValues = Record<string, string | TFormRow[]>;

export function fieldKey(index: number): string {
  return `f${index}`;
}
export function columnKey(index: number): string {
  return `c${index}`;
}

/** A row with every column empty (a checkbox unticked). */
export function emptyRow(list: TPlaceholder): TFormRow {
  return Object.fromEntries((list.columns ?? []).map((c, j) => [columnKey(j), c.type === 'checkbox' ? 'false' : '']));
}

const rowsOf = (value: unknown): TFormRow[] => (Array.isArray(value) ? (value as TFormRow[]) : []);

/**
 * Form values (by field key) -> document data (by placeholder name; a list's rows by column name).
 * Formulas are left out (the server computes them), and so are signing fields (signers fill them).
 */
export function toDocumentData(placeholders: readonly TPlaceholder[], values: TFormValues): Record<string, string | Record<string, string>[]> {
  const data: Record<string, string | Record<string, string>[]> = {};
  placeholders.forEach((p, i) => {
    if (p.type === 'formula' || isSigningPlaceholder(p)) return;
    const value = values[fieldKey(i)];
    if (p.type === 'list') {
      const columns = (p.columns ?? []).map((c, j) => [c, columnKey(j)] as const).filter(([c]) => c.type !== 'formula');
      data[p.name] = rowsOf(value).map((row) => Object.fromEntries(columns.map(([c, key]) => [c.name, row[key] ?? ''])));
      return;
    }
    data[p.name] = typeof value === 'string' ? value : '';
  });
  return data;
}

export function emptyValues(placeholders: readonly TPlaceholder[]): TFormValues {
  return Object.fromEntries(
    placeholders.map((p, i) => [
      fieldKey(i),
      p.type === 'list' ? Array.from({ length: Math.max(1, p.minItems ?? 0) }, () => emptyRow(p)) : p.type === 'checkbox' ? 'false' : '',
    ]),
  );
}

const LIST_PATH = /^(.+?)\[(\d+)\](?:\.(.+))?$/;

/**
 * Field errors keyed as the server and checkDocumentData name them (`client_name`, or
 * `items[3].qty` for a list's cell) -> where react-hook-form shows them: `f2`, or `f4.3.c1`; a
 * list's own error (too few rows) is its root.
 */
export function toFieldErrors(placeholders: readonly TPlaceholder[], byName: Record<string, string>): FieldErrors<TFormValues> {
  const errors: Record<string, unknown> = {};
  const index = new Map(placeholders.map((p, i) => [p.name, i]));
  for (const [key, message] of Object.entries(byName)) {
    const error: FieldError = { type: 'validate', message };
    const cell = LIST_PATH.exec(key);
    const i = index.get(cell ? cell[1]! : key);
    if (i === undefined) continue;
    const p = placeholders[i]!;
    if (!cell) {
      if (p.type === 'list') {
        const list = (errors[fieldKey(i)] as Record<string, unknown> | undefined) ?? [];
        (list as Record<string, unknown>).root = error;
        errors[fieldKey(i)] = list;
      } else errors[fieldKey(i)] = error;
      continue;
    }
    const column = (p.columns ?? []).findIndex((c) => c.name === cell[3]);
    const rows = (errors[fieldKey(i)] as Record<number, Record<string, FieldError>> | undefined) ?? [];
    const row = Number(cell[2]);
    rows[row] = { ...rows[row], [column >= 0 ? columnKey(column) : 'root']: error };
    errors[fieldKey(i)] = rows;
  }
  return errors as FieldErrors<TFormValues>;
}

/** Each error's form path (`f2`, `f4.3.c1`, `f4.root`) with its message, for setError. */
export function fieldErrorPaths(placeholders: readonly TPlaceholder[], byName: Record<string, string>): [`f${number}` | `f${number}.${string}`, string][] {
  const out: [`f${number}` | `f${number}.${string}`, string][] = [];
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== 'object') return;
    const error = node as Partial<FieldError>;
    if (typeof error.message === 'string' && typeof error.type === 'string') {
      out.push([path as `f${number}`, error.message]);
      return;
    }
    for (const [key, child] of Object.entries(node)) walk(child, `${path}.${key}`);
  };
  for (const [key, node] of Object.entries(toFieldErrors(placeholders, byName))) walk(node, key);
  return out;
}

/**
 * The same check the server runs (contract `checkDocumentData`), so both agree on every field.
 * Like the server, it numbers a list's rows without the blank ones; `countedRows` maps them back.
 */
export function checkValues(
  placeholders: readonly TPlaceholder[],
  values: TFormValues,
  content?: Pick<TFormatContent, 'elements' | 'header' | 'footer'>,
): TDataCheck {
  return checkDocumentData(placeholders, toDocumentData(placeholders, values), content);
}

/** For each list, the form row of each row the check counted (blank rows are skipped by the check). */
export function countedRows(placeholders: readonly TPlaceholder[], values: TFormValues): Map<string, number[]> {
  const map = new Map<string, number[]>();
  placeholders.forEach((p, i) => {
    if (p.type !== 'list') return;
    const columns = (p.columns ?? []).map((c, j) => [c, columnKey(j)] as const).filter(([c]) => c.type !== 'formula');
    const counted: number[] = [];
    rowsOf(values[fieldKey(i)]).forEach((row, r) => {
      if (columns.some(([c, key]) => (row[key] ?? '').trim() !== '' && !(c.type === 'checkbox' && row[key] === 'false'))) counted.push(r);
    });
    map.set(p.name, counted);
  });
  return map;
}

/** Error keys with each list row renumbered from the check's rows to the form's. */
export function toFormRowKeys(fields: Record<string, string>, counted: Map<string, number[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(fields)) {
    const cell = LIST_PATH.exec(key);
    const rows = cell ? counted.get(cell[1]!) : undefined;
    out[cell && rows ? `${cell[1]}[${rows[Number(cell[2])] ?? Number(cell[2])}]${cell[3] ? `.${cell[3]}` : ''}` : key] = message;
  }
  return out;
}

export function documentDataResolver(
  placeholders: readonly TPlaceholder[],
  content?: Pick<TFormatContent, 'elements' | 'header' | 'footer'>,
): Resolver<TFormValues> {
  return (values) => {
    const check = checkValues(placeholders, values, content);
    if (Object.keys(check.fields).length === 0) return { values, errors: {} };
    return { values: {}, errors: toFieldErrors(placeholders, toFormRowKeys(check.fields, countedRows(placeholders, values))) };
  };
}
