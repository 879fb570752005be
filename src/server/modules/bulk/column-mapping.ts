import type { TColumnMapping } from '../../../contract/bulk.ts';
import { checkDocumentData } from '../../../contract/documents.ts';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders.ts';
import type { TSheet } from './spreadsheet.ts';

export type TCheckedRow = { row: number; values: Record<string, string>; errors: Record<string, string> };
export type TSheetCheck = { valid: number; invalid: number; rows: TCheckedRow[] };

/** "Client Name", "client_name" and "client-name" are one key: case, spaces, _ and - do not count. */
export function headerKey(text: string): string {
  return text.toLowerCase().replace(/[\s_-]+/g, '');
}

/**
 * Matches header cells to placeholders by label, then by name. Each column fills at most one
 * placeholder (the first that claims it, in placeholder order), so a sheet with two columns
 * that look alike never feeds one value into two fields.
 */
export function autoMapColumns(columns: readonly string[], placeholders: readonly TPlaceholder[]): TColumnMapping {
  const byKey = new Map<string, number>();
  columns.forEach((column, index) => {
    const key = headerKey(column);
    if (key && !byKey.has(key)) byKey.set(key, index);
  });
  const taken = new Set<number>();
  const mapping: TColumnMapping = {};
  for (const p of placeholders) {
    const candidates = [placeholderLabel(p), p.name].map(headerKey);
    const column = candidates.map((key) => byKey.get(key)).find((i) => i !== undefined && !taken.has(i));
    mapping[p.name] = column ?? null;
    if (column !== undefined) taken.add(column);
  }
  return mapping;
}

/** One row's cells as placeholder values, through the mapping. */
export function mapRow(cells: readonly string[], mapping: TColumnMapping): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, column] of Object.entries(mapping)) {
    if (column !== null && column !== undefined) values[name] = cells[column] ?? '';
  }
  return values;
}

/** Checks every row with the rules of manual input (checkDocumentData). */
export function validateSheet(sheet: TSheet, placeholders: readonly TPlaceholder[], mapping: TColumnMapping): TSheetCheck {
  let valid = 0;
  const rows = sheet.rows.map((r) => {
    const check = checkDocumentData(placeholders, mapRow(r.cells, mapping));
    if (Object.keys(check.fields).length === 0) valid++;
    return { row: r.row, values: check.values, errors: check.fields };
  });
  return { valid, invalid: rows.length - valid, rows };
}
