import * as XLSX from '@e965/xlsx';
import { builtinDateKind, dateKindOfFormat, isoDateText, plainNumber, serialToText } from './cell-values.ts';
import { SheetBuilder, type TCell } from './sheet-builder.ts';
import type { TOtherSheets, TReadStats } from './sheet-types.ts';
import { bad, BULK_MAX_OTHER_SHEETS, MESSAGES } from './spreadsheet-limits.ts';

// .xls (BIFF, Excel 97-2003)

const XLS_ERRORS: Record<number, string> = {
  0x00: '#NULL!',
  0x07: '#DIV/0!',
  0x0f: '#VALUE!',
  0x17: '#REF!',
  0x1d: '#NAME?',
  0x24: '#NUM!',
  0x2a: '#N/A',
  0x2b: '#GETTING_DATA',
};

/**
 * Legacy .xls is parsed by SheetJS (@e965/xlsx: the official 0.20.3 build republished on npm;
 * the `xlsx` package on npm is frozen at 0.18.5, which has a prototype-pollution and a ReDoS
 * advisory fixed in 0.19.3 and 0.20.2). The whole file is parsed in memory, which the 10 MB file
 * limit and BIFF8's 65,536-row sheets bound. SheetJS has no formula engine: a formula cell gives
 * the result Excel cached in the file, and `cellFormula: false` does not even keep the formula
 * text. Raw values and number formats are read (no formatted text, HTML or styles) so dates and
 * numbers come out exactly as from .xlsx.
 */
export function readXls(bytes: Buffer, builder: SheetBuilder, stats: TReadStats, others?: TOtherSheets): void {
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, {
      type: 'buffer',
      ...(others ? {} : { sheets: 0 }),
      dense: true,
      cellFormula: false,
      cellHTML: false,
      cellText: false,
      cellDates: false,
      cellNF: true,
      cellStyles: false,
      bookVBA: false,
      WTF: false,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    throw bad(/password/i.test(message) ? MESSAGES.passwordProtected : MESSAGES.corrupt);
  }
  const sheet = workbook.Sheets[workbook.SheetNames[0] ?? ''];
  if (!sheet) throw bad(MESSAGES.corrupt);
  const date1904 = Boolean(workbook.Workbook?.WBProps?.date1904);
  readXlsSheet(sheet, builder, stats, date1904);
  if (!others) return;
  const hidden = new Set((workbook.Workbook?.Sheets ?? []).flatMap((s, i) => (s.Hidden ? [i] : [])));
  workbook.SheetNames.slice(1, BULK_MAX_OTHER_SHEETS + 1).forEach((name, k) => {
    const other = workbook.Sheets[name];
    if (!other || hidden.has(k + 1)) return;
    const b = new SheetBuilder(others.budget.rows, others.budget);
    readXlsSheet(other, b, stats, date1904);
    others.sheets.push({ name, builder: b });
  });
}

function readXlsSheet(sheet: XLSX.WorkSheet, builder: SheetBuilder, stats: TReadStats, date1904: boolean): void {
  const data = (sheet['!data'] ?? []) as (XLSX.CellObject[] | undefined)[];
  const rowInfo = sheet['!rows'] ?? [];
  for (let r = 0; r < data.length; r++) {
    const source = data[r];
    stats.rowsRead += 1;
    const cells: TCell[] = [];
    if (source) {
      const width = Math.min(source.length, builder.width);
      for (let c = 0; c < width; c++) {
        const cell = source[c];
        if (cell) cells[c] = xlsCellText(cell, date1904);
      }
    }
    builder.push(r + 1, cells, Boolean(rowInfo[r]?.hidden));
  }
}

function xlsCellText(cell: XLSX.CellObject, date1904: boolean): string {
  switch (cell.t) {
    case 'n': {
      const n = Number(cell.v);
      const kind = typeof cell.z === 'string' ? dateKindOfFormat(cell.z) : typeof cell.z === 'number' ? builtinDateKind(cell.z) : null;
      return kind ? serialToText(n, kind, date1904) : plainNumber(n);
    }
    case 'b':
      return cell.v ? 'TRUE' : 'FALSE';
    case 'e':
      return XLS_ERRORS[Number(cell.v)] ?? '#ERROR!';
    case 'd':
      return cell.v instanceof Date ? isoDateText(cell.v.toISOString()) : String(cell.v ?? '');
    case 's':
      return String(cell.v ?? '');
    default:
      return '';
  }
}
