import { BULK_MAX_FILE_BYTES, BULK_MAX_ROWS } from '../../../../contract/bulk.ts';
import { AppError } from '../../../http/app-error.ts';
import { extensionOf, mismatch, shortName, sniff } from './file-type.ts';
import { readCsv } from './read-csv.ts';
import { readXls } from './read-xls.ts';
import { readXlsx } from './read-xlsx.ts';
import { SheetBuilder } from './sheet-builder.ts';
import type { TOtherSheets, TReadOptions, TSheet } from './sheet-types.ts';
import { ACCEPTED, bad, MESSAGES, unsupported } from './spreadsheet-limits.ts';

/*
 * Reads an uploaded spreadsheet (.xlsx, .xls or .csv) into header cells and rows of strings.
 * Pure: bytes in, a sheet or an AppError out. Uploads are hostile until proven otherwise, so
 * every step is bounded: the file size, the unpacked size of a workbook (checked from the ZIP
 * central directory before anything is inflated, and enforced again while inflating), the number
 * of columns and the number of rows (reading stops as soon as the row limit is passed).
 *
 * .xlsx is read by our own streaming reader (yauzl + saxes) rather than exceljs' WorkbookReader:
 * that reader spools worksheets that come before sharedStrings.xml (as in files Excel writes) to
 * temporary files before parsing them, so it cannot stop early; it also drops the row `hidden`
 * flag (needed to recognise our template's name row), reads formula booleans/errors as numbers,
 * keeps only the last run of a rich inline string, and picks the first sheet in ZIP order rather
 * than workbook order.
 */

export async function readSpreadsheet(bytes: Buffer, fileName: string, options: TReadOptions = {}): Promise<TSheet> {
  const maxRows = options.maxRows ?? BULK_MAX_ROWS;
  const stats = options.stats ?? { rowsRead: 0, bytesInflated: 0 };
  const ext = extensionOf(fileName);
  if (ext !== 'xlsx' && ext !== 'xls' && ext !== 'csv') {
    throw unsupported(
      ext === '' ? `"${shortName(fileName)}" has no file extension, so its type is unknown. ${ACCEPTED}` : `.${ext} files cannot be read. ${ACCEPTED}`,
    );
  }
  if (bytes.length > BULK_MAX_FILE_BYTES) {
    throw new AppError('payload_too_large', MESSAGES.tooLarge);
  }
  if (bytes.length === 0) throw bad(MESSAGES.empty);

  const kind = sniff(bytes);
  const builder = new SheetBuilder(maxRows);
  const others: TOtherSheets | undefined = options.otherSheets ? { budget: { rows: maxRows }, sheets: [] } : undefined;
  if (ext === 'csv') {
    if (kind !== 'text') throw mismatch(ext, kind);
    readCsv(bytes, builder, stats);
  } else if (ext === 'xlsx') {
    if (kind === 'encrypted-ooxml') throw bad(MESSAGES.passwordProtected);
    if (kind !== 'zip' && kind !== 'xlsx') throw mismatch(ext, kind);
    await readXlsx(bytes, builder, stats, others);
  } else {
    if (kind === 'encrypted-ooxml') throw bad(MESSAGES.passwordProtected);
    if (kind !== 'xls') throw mismatch(ext, kind);
    readXls(bytes, builder, stats, others);
  }
  const sheet = builder.finish();
  if (others) {
    sheet.others = others.sheets.flatMap(({ name, builder: b }) => {
      const read = b.finishOrEmpty();
      return read ? [{ name, ...read }] : [];
    });
  }
  return sheet;
}
