import { columnKey, columnLetter } from '../../../contract/bulk.ts';
import { placeholderLabel, type TListColumn, type TPlaceholder } from '../../../contract/placeholders.ts';
import { AppError } from '../../http/app-error.ts';
import { TEMPLATE_KEY_LABEL } from '../formats/index.ts';
import type { TNamedSheet, TSheet, TSheetRow } from './spreadsheet/sheet-types.ts';

/*
 * A spreadsheet's lines for a format's list placeholders. Two layouts, both described in the
 * Excel template itself:
 * - a lines sheet per list (named after the list), each line carrying the Document key of its
 *   document's row on the first sheet;
 * - one sheet (or a CSV) whose rows repeat the Document key: the first row of a key fills the
 *   document, and every row of it with a value in the list's columns (headed `items.qty`, or the
 *   list's and column's labels) is one line.
 * Pure: sheets in, sheets out (the document rows with their lines), or an AppError.
 */

const DOCUMENT_KEY_LABEL = TEMPLATE_KEY_LABEL;

/** Compared without case, spaces, underscores, hyphens, dots and colons: `Line items: Qty` = `items.qty` only by name or label. */
const loose = (text: string) => columnKey(text).replace(/[.:]/g, '');

export const isKeyHeader = (header: string) => loose(header) === loose(DOCUMENT_KEY_LABEL);

/** The column of `list` a header of a lines sheet names (by name or label), if any. */
function lineColumn(list: TPlaceholder, header: string): TListColumn | undefined {
  const key = loose(header);
  return (list.columns ?? []).find((c) => c.type !== 'formula' && (loose(c.name) === key || loose(placeholderLabel(c)) === key));
}

/** The column of `list` a header of the main sheet names as `list.column` (by names or labels), if any. */
function prefixedColumn(list: TPlaceholder, header: string): TListColumn | undefined {
  const key = loose(header);
  const prefixes = [loose(list.name), loose(placeholderLabel(list))];
  return (list.columns ?? []).find((c) => c.type !== 'formula' && prefixes.some((p) => key === p + loose(c.name) || key === p + loose(placeholderLabel(c))));
}

/** Where a list's lines came from, for the upload's summary. */
export interface TListSource {
  name: string;
  label: string;
  /** The lines sheet's name, `columns` for columns of the main sheet, or null when none was found. */
  source: string | null;
  lines: number;
}

/** Indexes of the main sheet's columns that fill a list's lines, not a document's field. */
export function lineColumnIndexes(columns: readonly string[], placeholders: readonly TPlaceholder[]): Set<number> {
  const lists = placeholders.filter((p) => p.type === 'list');
  const out = new Set<number>();
  columns.forEach((h, i) => {
    if (isKeyHeader(h) || lists.some((l) => prefixedColumn(l, h))) out.add(i);
  });
  return out;
}

function sheetFor(list: TPlaceholder, others: readonly TNamedSheet[], lists: readonly TPlaceholder[]): TNamedSheet | undefined {
  const named = others.find((s) => loose(s.name) === loose(list.name) || loose(s.name) === loose(placeholderLabel(list)));
  if (named) return named;
  // One list and one other sheet: that sheet is its lines, whatever it is called.
  return lists.length === 1 && others.length === 1 ? others[0] : undefined;
}

const cellAt = (row: TSheetRow, i: number) => (i >= 0 ? (row.cells[i] ?? '').trim() : '');

/**
 * The sheet's document rows, each with its lists' lines. Lines whose key names no document are
 * refused, with their rows, since they would be lost silently otherwise.
 */
export function attachLines(sheet: TSheet, placeholders: readonly TPlaceholder[]): { sheet: TSheet; lists: TListSource[] } {
  const lists = placeholders.filter((p) => p.type === 'list');
  if (lists.length === 0) return { sheet, lists: [] };
  const keyColumn = sheet.columns.findIndex(isKeyHeader);
  const others = sheet.others ?? [];
  const sources: TListSource[] = [];
  let rows = sheet.rows.map((r) => ({ ...r, lines: { ...(r.lines ?? {}) } }));

  // Rows repeating a key are one document: its first row, with a line from each row.
  const columnLists = lists.map((list) => ({ list, columns: sheet.columns.map((h) => prefixedColumn(list, h)) })).filter((x) => x.columns.some(Boolean));
  if (columnLists.length > 0) {
    const byKey = new Map<string, (typeof rows)[number]>();
    const kept: typeof rows = [];
    for (const row of rows) {
      const key = cellAt(row, keyColumn);
      const owner = key !== '' ? byKey.get(key) : undefined;
      const target = owner ?? row;
      if (!owner) {
        if (key !== '') byKey.set(key, row);
        kept.push(row);
      }
      for (const { list, columns } of columnLists) {
        const line: Record<string, string> = {};
        columns.forEach((c, i) => {
          if (c) line[c.name] = (row.cells[i] ?? '').trim();
        });
        if (Object.values(line).some((v) => v !== '')) (target.lines[list.name] ??= []).push(line);
      }
    }
    rows = kept;
    for (const { list } of columnLists)
      sources.push({
        name: list.name,
        label: placeholderLabel(list),
        source: 'columns',
        lines: rows.reduce((n, r) => n + (r.lines[list.name]?.length ?? 0), 0),
      });
  }

  for (const list of lists) {
    if (columnLists.some((x) => x.list === list)) continue;
    const lines = sheetFor(list, others, lists);
    if (!lines) {
      sources.push({ name: list.name, label: placeholderLabel(list), source: null, lines: 0 });
      continue;
    }
    const lineKey = lines.columns.findIndex(isKeyHeader);
    if (lineKey < 0 || keyColumn < 0) {
      const where = lineKey < 0 ? `the "${lines.name}" sheet` : 'the first sheet';
      throw new AppError(
        'validation_failed',
        `The lines on the "${lines.name}" sheet cannot be matched to their documents: ${where} has no "${DOCUMENT_KEY_LABEL}" column. Give every document a key on the first sheet, and each line the key of its document.`,
      );
    }
    const columns = lines.columns.map((h) => lineColumn(list, h));
    const byKey = new Map<string, (typeof rows)[number]>();
    for (const row of rows) {
      const key = cellAt(row, keyColumn);
      if (key !== '' && !byKey.has(key)) byKey.set(key, row);
    }
    const orphans: string[] = [];
    let count = 0;
    for (const lineRow of lines.rows) {
      const key = cellAt(lineRow, lineKey);
      const owner = byKey.get(key);
      if (!owner) {
        orphans.push(key === '' ? `row ${lineRow.row} (no key)` : `row ${lineRow.row} ("${key}")`);
        continue;
      }
      const line: Record<string, string> = {};
      columns.forEach((c, i) => {
        if (c) line[c.name] = (lineRow.cells[i] ?? '').trim();
      });
      (owner.lines[list.name] ??= []).push(line);
      count += 1;
    }
    if (orphans.length > 0) {
      const shown = orphans.slice(0, 5).join(', ');
      throw new AppError(
        'validation_failed',
        `${orphans.length === 1 ? 'A line' : `${orphans.length.toLocaleString('en-US')} lines`} on the "${lines.name}" sheet ${orphans.length === 1 ? 'has' : 'have'} a ${DOCUMENT_KEY_LABEL} that no row of the first sheet has (column ${columnLetter(keyColumn)}): ${shown}${orphans.length > 5 ? ', …' : ''}. Fix the keys and upload the file again.`,
      );
    }
    sources.push({ name: list.name, label: placeholderLabel(list), source: lines.name, lines: count });
  }
  const { others: _read, ...rest } = sheet;
  return { sheet: { ...rest, rows: rows.map((r) => (Object.keys(r.lines).length > 0 ? r : { row: r.row, cells: r.cells })) }, lists: sources };
}
