import { columnKey, columnPlaceholders, type TColumnMapping, type TPreviewRow } from '../../../contract/bulk.ts';
import { checkDocumentData, type TDocumentData } from '../../../contract/documents.ts';
import { textOf } from '../../../contract/filled-values.ts';
import type { TFormatContent } from '../../../contract/format-content.ts';
import { isSigningPlaceholder, MAX_PLACEHOLDER_VALUE_LENGTH, placeholderLabel, type TPlaceholder } from '../../../contract/placeholders.ts';
import { isKeyHeader, lineColumnIndexes } from './list-lines.ts';
import type { TSheet } from './spreadsheet/sheet-types.ts';

/*
 * Spreadsheet columns -> placeholders, and the rows checked with the same rules as manual input.
 * Pure functions: no HTTP, no database.
 */

export const UNMAPPED_REQUIRED_MESSAGE = 'No column is mapped to this required field.';
export const VALUE_TOO_LONG_MESSAGE = `This value is longer than ${MAX_PLACEHOLDER_VALUE_LENGTH.toLocaleString('en-US')} characters.`;

/**
 * Matches header cells to placeholders. Each column fills at most one placeholder, and the
 * closest match wins: first a header that is exactly the placeholder's name (the Excel template's
 * name row), then one equal to the name loosely, then one equal to the label loosely; within each
 * pass placeholders take the leftmost free column, in placeholder order.
 */
export function autoMapColumns(columns: readonly string[], placeholders: readonly TPlaceholder[]): TColumnMapping {
  const mapping: TColumnMapping = {};
  placeholders = columnPlaceholders(placeholders);
  for (const p of placeholders) mapping[p.name] = null;
  const used = new Set<number>();
  const keys = columns.map(columnKey);
  const passes: Array<(p: TPlaceholder, column: number) => boolean> = [
    (p, i) => (columns[i] ?? '').trim() === p.name,
    (p, i) => keys[i] === columnKey(p.name),
    (p, i) => keys[i] === columnKey(placeholderLabel(p)),
  ];
  for (const matches of passes) {
    for (const p of placeholders) {
      if (mapping[p.name] !== null) continue;
      for (let i = 0; i < columns.length; i++) {
        if (used.has(i) || keys[i] === '' || !matches(p, i)) continue;
        mapping[p.name] = i;
        used.add(i);
        break;
      }
    }
  }
  return mapping;
}

/** Whether a cell names one of the format's columns: a placeholder by name or label (loosely), the Document key, or a list's `items.qty`. */
function namesColumn(cell: string, placeholders: readonly TPlaceholder[]): boolean {
  const key = columnKey(cell);
  if (key === '') return false;
  if (isKeyHeader(cell) || lineColumnIndexes([cell], placeholders).size > 0) return true;
  return placeholders.some((p) => !isSigningPlaceholder(p) && (columnKey(p.name) === key || columnKey(placeholderLabel(p)) === key));
}

/**
 * The sheet with its first data row taken as column names when that row names the columns, as
 * in the Excel template saved as CSV: its hidden row of placeholder names becomes an ordinary row
 * 2 under the labels, which differ from the names ("Hiring manager *" over `manager_name`), so
 * the reader cannot tell it from data without the format. Every filled cell of
 * that row must name a column of the format, and it must name at least half of the header's
 * columns, so a row of data is never taken for it. Where it names a column, its cell becomes the
 * column's name (the template's exact placeholder names); elsewhere the header's cell stays.
 */
export function recogniseHeaderRow(sheet: TSheet, placeholders: readonly TPlaceholder[]): TSheet {
  const [first, ...rest] = sheet.rows;
  if (!first) return sheet;
  const filled = first.cells.map((c) => c.trim()).filter((c) => c !== '');
  const named = filled.filter((c) => namesColumn(c, placeholders)).length;
  const headerWidth = Math.max(1, sheet.columns.filter((c) => c !== '').length);
  if (named === 0 || named !== filled.length || named * 2 < headerWidth) return sheet;
  const columns = sheet.columns.map((header, i) => {
    const cell = (first.cells[i] ?? '').trim();
    return cell !== '' && namesColumn(cell, placeholders) ? cell : header;
  });
  // Two columns under one name would leave one of them unmatched; the header is clearer then.
  const keys = columns.filter((c) => c !== '').map((c) => c.toLowerCase());
  if (new Set(keys).size !== keys.length) return { ...sheet, rows: rest };
  return { ...sheet, columns, rows: rest };
}

/** Placeholder name -> the cell of its column ('' when unmapped or the row is shorter). */
export function mapRow(cells: readonly string[], mapping: TColumnMapping): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, column] of Object.entries(mapping)) {
    values[name] = column !== null && column !== undefined && column >= 0 && column < cells.length ? (cells[column] ?? '') : '';
  }
  return values;
}

const DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(?::\d{2})?$/;

export type TCheckedRow = TPreviewRow;
export interface TSheetCheck {
  valid: number;
  invalid: number;
  rows: TCheckedRow[];
}

/**
 * A row's errors by placeholder, as the preview's columns and the error CSV show them: a list's
 * cell errors (`items[2].qty`) become one message on the list, naming the line and its column.
 */
function listErrorsByList(fields: Record<string, string>, placeholders: readonly TPlaceholder[]): Record<string, string> {
  const errors: Record<string, string> = {};
  const extra = new Map<string, number>();
  for (const [key, message] of Object.entries(fields)) {
    const cell = /^(.+?)\[(\d+)\](?:\.(.+))?$/.exec(key);
    if (!cell) {
      errors[key] = message;
      continue;
    }
    const [, name = '', index = '0', column] = cell;
    if (errors[name]) {
      extra.set(name, (extra.get(name) ?? 0) + 1);
      continue;
    }
    const list = placeholders.find((p) => p.name === name);
    const c = list?.columns?.find((x) => x.name === column);
    errors[name] = `Line ${Number(index) + 1}${c ? `, ${placeholderLabel(c)}` : ''}: ${message}`;
  }
  for (const [name, more] of extra) errors[name] = `${errors[name]} (and ${more} more ${more === 1 ? 'problem' : 'problems'} in its lines)`;
  return errors;
}

/**
 * Checks every row with checkDocumentData, the rules of the form and the API. A spreadsheet date
 * with a time of day (YYYY-MM-DDTHH:mm, as readSpreadsheet gives it) fills a date placeholder
 * with its day. A required placeholder that no column fills is reported on every row.
 */
export function validateSheet(
  sheet: TSheet,
  placeholders: readonly TPlaceholder[],
  mapping: TColumnMapping,
  content?: Pick<TFormatContent, 'elements' | 'header' | 'footer'>,
): TSheetCheck {
  const rows: TCheckedRow[] = [];
  let valid = 0;
  for (const { row, cells, lines } of sheet.rows) {
    const raw = mapRow(cells, mapping);
    const data: TDocumentData = {};
    for (const p of placeholders) {
      if (p.type === 'formula' || isSigningPlaceholder(p)) continue;
      if (p.type === 'list') {
        // A date cell with a time of day fills a date column with its day, as in the main sheet.
        const dates = (p.columns ?? []).filter((c) => c.type === 'date').map((c) => c.name);
        data[p.name] = (lines?.[p.name] ?? []).map((line) => {
          const out = { ...line };
          for (const name of dates) if (out[name]) out[name] = out[name].trim().replace(DATE_TIME_RE, '$1');
          return out;
        });
        continue;
      }
      let value = raw[p.name] ?? '';
      if (p.type === 'date') value = value.trim().replace(DATE_TIME_RE, '$1');
      data[p.name] = value;
    }
    const check = checkDocumentData(placeholders, data, content);
    const errors = listErrorsByList(check.fields, placeholders);
    for (const p of columnPlaceholders(placeholders)) {
      const column = mapping[p.name];
      if (p.required && !check.hidden.has(p.name) && (column === null || column === undefined)) errors[p.name] = UNMAPPED_REQUIRED_MESSAGE;
      else if (textOf(check.values[p.name]).length > MAX_PLACEHOLDER_VALUE_LENGTH) errors[p.name] = VALUE_TOO_LONG_MESSAGE;
    }
    if (Object.keys(errors).length === 0) valid += 1;
    rows.push({ row, values: check.values, errors });
  }
  return { valid, invalid: rows.length - valid, rows };
}
