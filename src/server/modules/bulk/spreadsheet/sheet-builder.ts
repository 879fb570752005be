import { columnKey, columnLetter } from '../../../../contract/bulk.ts';
import { MAX_PLACEHOLDER_NAME_LENGTH, normalizePlaceholderName } from '../../../../contract/placeholders.ts';
import { storableText } from '../../../../contract/text.ts';
import { TEMPLATE_NAME_ROW } from '../../formats/index.ts';
import type { TSheet, TSheetRow } from './sheet-types.ts';
import { bad, BULK_MAX_COLUMNS, fmt, MESSAGES } from './spreadsheet-limits.ts';

export type TCell = string | undefined;

const isBlank = (cell: TCell) => cell === undefined || cell.trim() === '';

/**
 * The row's cells as they can be stored. A file can hold text PostgreSQL refuses (a UTF-16 CSV's
 * NUL, an .xlsx escape such as `_x0000_` or `_xD800_`), and every reader's rows pass here, so the
 * header, the cells and the lines sheets are all cleaned once. Nearly always nothing changes, and
 * the row is returned as it came.
 */
function storableCells(cells: readonly TCell[]): readonly TCell[] {
  let cleaned: TCell[] | undefined;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (cell === undefined) continue;
    const storable = storableText(cell);
    if (storable !== cell) (cleaned ??= [...cells])[i] = storable;
  }
  return cleaned ?? cells;
}

function isPlaceholderNameShaped(cell: string): boolean {
  return cell.length <= MAX_PLACEHOLDER_NAME_LENGTH && normalizePlaceholderName(cell) === cell && /^[^\s{}*]+$/.test(cell);
}

/**
 * Collects rows as a reader meets them. The first non-blank row is the header; blank rows are
 * skipped but keep their numbers. The Excel template (formats/excel-template.ts) puts the labels
 * in row 1 and the exact placeholder names in a hidden row 2; that row is recognised and its
 * names become the column names, so the template always matches in full, even when two
 * placeholders share a label.
 */
export class SheetBuilder {
  private header: string[] | null = null;
  private headerRow = 0;
  private columns: string[] = [];
  private state: 'header' | 'after-header' | 'data' = 'header';
  private readonly rows: TSheetRow[] = [];

  /** `shared`: a row budget this sheet takes from with others (the lines sheets of one upload). */
  constructor(
    private readonly maxRows: number,
    private readonly shared?: { rows: number },
  ) {}

  /** The sheet, or undefined when it holds no data rows (an empty lines sheet is no error). */
  finishOrEmpty(): Omit<TSheet, 'others'> | undefined {
    if (this.state === 'header') return undefined;
    if (this.state === 'after-header') {
      this.columns = this.header ?? [];
      this.finalizeColumns();
    }
    return this.rows.length === 0 ? undefined : { columns: this.columns, rows: this.rows };
  }

  /** Whether cells past this index can be ignored (the header is known and narrower). */
  get width(): number {
    return this.header ? this.header.length : BULK_MAX_COLUMNS + 1;
  }

  push(row: number, read: readonly TCell[], hidden: boolean): void {
    const cells = storableCells(read);
    if (this.state === 'header') {
      if (cells.every(isBlank)) return;
      this.setHeader(row, cells);
      return;
    }
    if (this.state === 'after-header') {
      const header = this.header ?? [];
      if (row === this.headerRow + 1 && this.isNameRow(header, cells, hidden)) {
        this.columns = header.map((h, i) => {
          const name = (cells[i] ?? '').trim();
          return name === '' ? h : name;
        });
        this.finalizeColumns();
        return;
      }
      if (cells.slice(0, header.length).every(isBlank)) return;
      this.columns = header;
      this.finalizeColumns();
    }
    const width = this.columns.length;
    let blank = true;
    const padded: string[] = new Array<string>(width);
    for (let i = 0; i < width; i++) {
      const cell = cells[i] ?? '';
      padded[i] = cell;
      if (blank && cell.trim() !== '') blank = false;
    }
    if (blank) return;
    if (this.shared) {
      if (this.shared.rows <= 0) {
        throw bad(
          `The file has more than ${fmt(this.maxRows)} rows in its sheets together; the limit is ${fmt(this.maxRows)} rows per upload. Split it into smaller files.`,
        );
      }
      this.shared.rows -= 1;
    }
    if (this.rows.length >= this.maxRows) {
      throw bad(
        `The file has more than ${fmt(this.maxRows)} data rows; the limit is ${fmt(this.maxRows)} rows per upload. Split it into smaller files and upload them one by one.`,
      );
    }
    this.rows.push({ row, cells: padded });
  }

  finish(): TSheet {
    if (this.state === 'header') throw bad(MESSAGES.noRows);
    if (this.state === 'after-header') {
      this.columns = this.header ?? [];
      this.finalizeColumns();
    }
    if (this.rows.length === 0) throw bad(MESSAGES.headerOnly);
    return { columns: this.columns, rows: this.rows };
  }

  private setHeader(row: number, cells: readonly TCell[]): void {
    let last = -1;
    for (let i = 0; i < cells.length; i++) if (!isBlank(cells[i])) last = i;
    if (last >= BULK_MAX_COLUMNS) {
      throw bad(
        `The header row has more than ${fmt(BULK_MAX_COLUMNS)} columns; the limit is ${fmt(BULK_MAX_COLUMNS)}. Delete the columns you do not need and upload the file again.`,
      );
    }
    const header: string[] = [];
    for (let i = 0; i <= last; i++) header.push((cells[i] ?? '').trim());
    this.header = header;
    this.headerRow = row;
    this.state = 'after-header';
  }

  /**
   * The template's name row: right under the header, every cell a placeholder name. A hidden
   * row (as the template makes it) needs nothing more; a visible one (the template saved as CSV)
   * must also repeat the header column for column, so real data is never mistaken for it.
   */
  private isNameRow(header: readonly string[], cells: readonly TCell[], hidden: boolean): boolean {
    if (this.headerRow !== TEMPLATE_NAME_ROW - 1) return false;
    const names: string[] = [];
    for (let i = 0; i < Math.max(header.length, cells.length); i++) {
      const cell = (cells[i] ?? '').trim();
      if (cell === '') {
        if (!hidden && (header[i] ?? '') !== '') return false;
        continue;
      }
      if (i >= header.length || !isPlaceholderNameShaped(cell)) return false;
      if (!hidden && columnKey(cell) !== columnKey(header[i] ?? '')) return false;
      names.push(cell);
    }
    return names.length > 0 && new Set(names).size === names.length;
  }

  private finalizeColumns(): void {
    this.state = 'data';
    const seen = new Map<string, number[]>();
    this.columns.forEach((name, i) => {
      if (name === '') return;
      const key = name.toLowerCase();
      const list = seen.get(key);
      if (list) list.push(i);
      else seen.set(key, [i]);
    });
    const duplicates = [...seen.values()].filter((list) => list.length > 1);
    if (duplicates.length === 0) return;
    const described = duplicates.map((list) => {
      const letters = list.map(columnLetter);
      const joined = letters.length === 2 ? `${letters[0]} and ${letters[1]}` : `${letters.slice(0, -1).join(', ')} and ${letters.at(-1)}`;
      return `"${this.columns[list[0] ?? 0]}" (columns ${joined})`;
    });
    throw bad(`The header row has the same column name more than once: ${described.join(', ')}. Give each column a different name and upload the file again.`);
  }
}
