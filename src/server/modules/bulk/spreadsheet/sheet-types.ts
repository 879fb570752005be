import type { SheetBuilder } from './sheet-builder.ts';

export interface TSheetRow {
  /** The row number as the spreadsheet shows it (the header is row 1). */
  row: number;
  /** One string per column, padded or truncated to `columns.length`. */
  cells: string[];
  /** The rows of each list placeholder this row's document holds, by list name, each keyed by column name. */
  lines?: Record<string, Record<string, string>[]>;
}

export interface TSheet {
  /** Header cells (trimmed), in column order. */
  columns: string[];
  rows: TSheetRow[];
  /**
   * The workbook's other visible sheets, in workbook order, when asked for (`otherSheets`): a
   * format with lists takes its lines from them. Empty sheets are left out.
   */
  others?: TNamedSheet[];
}

export interface TNamedSheet {
  name: string;
  columns: string[];
  rows: TSheetRow[];
}

/** Filled in by readSpreadsheet when passed, so callers (and tests) can see how much was read. */
export interface TReadStats {
  /** Rows met in the file, blank ones included (for .xlsx, `<row>` elements parsed). */
  rowsRead: number;
  /** Bytes of worksheet XML inflated (.xlsx only). */
  bytesInflated: number;
}

export interface TReadOptions {
  /** Most data rows accepted, all sheets together; default BULK_MAX_ROWS. */
  maxRows?: number;
  stats?: TReadStats;
  /** Read the workbook's other visible sheets too (a lines sheet). */
  otherSheets?: boolean;
}

/** The other sheets being read, and the rows all sheets may still take. */
export interface TOtherSheets {
  budget: { rows: number };
  sheets: { name: string; builder: SheetBuilder }[];
}
