import * as XLSX from '@e965/xlsx';
import Papa from 'papaparse';
import { SaxesParser } from 'saxes';
import yauzl from 'yauzl';
import { BULK_MAX_FILE_BYTES, BULK_MAX_ROWS, columnKey, columnLetter } from '../../../contract/bulk.ts';
import { MAX_PLACEHOLDER_NAME_LENGTH, normalizePlaceholderName } from '../../../contract/placeholders.ts';
import { oleHasStream, sniffFile, zipMentions, type TFileKind } from '../../files/sniff.ts';
import { openCheckedZip, openEntry, type TZipRules } from '../../files/zip.ts';
import { AppError } from '../../http/app-error.ts';
import { TEMPLATE_NAME_ROW } from '../formats/excel-template.ts';

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

/** Most sheets read beside the first. */
export const BULK_MAX_OTHER_SHEETS = 20;

/** Most columns a sheet may have (BIFF8 .xls has 256 too); bounds memory at maxRows x columns. */
export const BULK_MAX_COLUMNS = 256;
/** Most bytes an .xlsx may unpack to, all parts together. */
export const BULK_MAX_UNZIPPED_BYTES = 200 * 1024 * 1024;
/** Most parts (ZIP entries) an .xlsx may have. */
export const BULK_MAX_ZIP_ENTRIES = 10_000;
/** Deflate cannot compress better than about 1032:1, so a larger declared ratio is a lie. */
const MAX_DEFLATE_RATIO = 1100;

const ACCEPTED = 'Upload an .xlsx, .xls or .csv file.';
export const MESSAGES = {
  tooLarge: `The file is larger than ${BULK_MAX_FILE_BYTES / (1024 * 1024)} MB. Split it into smaller files.`,
  empty: 'The file is empty.',
  noRows: 'The file has no rows: it needs a header row and at least one data row.',
  headerOnly: 'The file has a header row but no data rows.',
  corrupt:
    'The workbook could not be read: it is damaged or not a complete Excel file. Open it in Excel, save it again and upload the new file.',
  passwordProtected:
    'This workbook is password-protected, so it cannot be read. Remove the password in Excel (File > Info > Protect Workbook > Encrypt with Password), save it and upload it again.',
  sizeMismatch:
    'The workbook could not be read: its contents unpack to more data than it declares, which is how "zip bombs" are made. Open it in Excel, save it again and upload the new file.',
  tooManyParts: `The workbook has more than ${BULK_MAX_ZIP_ENTRIES.toLocaleString('en-US')} parts, which is not a normal spreadsheet. Save the data in a new workbook and upload that.`,
} as const;

const bad = (message: string) => new AppError('bad_request', message);
const unsupported = (message: string) => new AppError('unsupported_media_type', message);
const fmt = (n: number) => n.toLocaleString('en-US');

export async function readSpreadsheet(bytes: Buffer, fileName: string, options: TReadOptions = {}): Promise<TSheet> {
  const maxRows = options.maxRows ?? BULK_MAX_ROWS;
  const stats = options.stats ?? { rowsRead: 0, bytesInflated: 0 };
  const ext = extensionOf(fileName);
  if (ext !== 'xlsx' && ext !== 'xls' && ext !== 'csv') {
    throw unsupported(
      ext === ''
        ? `"${shortName(fileName)}" has no file extension, so its type is unknown. ${ACCEPTED}`
        : `.${ext} files cannot be read. ${ACCEPTED}`,
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

/** The other sheets being read, and the rows all sheets may still take. */
interface TOtherSheets {
  budget: { rows: number };
  sheets: { name: string; builder: SheetBuilder }[];
}

// ---------------------------------------------------------------------------------------------
// File type

type TContentKind = Exclude<TFileKind, 'ole' | 'webp'> | 'xlsx' | 'xls' | 'encrypted-ooxml';

function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

function shortName(fileName: string): string {
  return fileName.length > 80 ? `${fileName.slice(0, 77)}...` : fileName;
}

/** What the bytes are, in a spreadsheet upload's terms. */
function sniff(bytes: Buffer): TContentKind {
  const kind = sniffFile(bytes);
  // Part names are stored as plain text in the ZIP headers; the xlsx reader checks properly.
  if (kind === 'zip') return zipMentions(bytes, 'xl/workbook.xml') ? 'xlsx' : 'zip';
  // Office encrypts an .xlsx by wrapping it in a compound file with an EncryptedPackage stream.
  if (kind === 'ole') return oleHasStream(bytes, 'EncryptedPackage') ? 'encrypted-ooxml' : 'xls';
  return kind === 'webp' ? 'binary' : kind;
}

const KIND_NAMES: Record<TContentKind, string> = {
  xlsx: 'an Excel workbook (.xlsx)',
  zip: 'a ZIP archive',
  xls: 'an Excel 97-2003 workbook (.xls)',
  'encrypted-ooxml': 'a password-protected workbook',
  pdf: 'a PDF document',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  html: 'a web page or XML document',
  text: 'a text (CSV) file',
  binary: 'binary data, not text',
};

const KIND_EXTENSION: Partial<Record<TContentKind, string>> = { xlsx: 'xlsx', xls: 'xls', text: 'csv' };

function mismatch(ext: string, kind: TContentKind): AppError {
  const real = KIND_EXTENSION[kind];
  const advice = real ? `Rename it to .${real} and upload it again.` : ACCEPTED;
  return unsupported(`This file is named .${ext}, but it is ${KIND_NAMES[kind]}. ${advice}`);
}

// ---------------------------------------------------------------------------------------------
// Rows -> sheet: header, template name row, blank rows, limits

type TCell = string | undefined;

const isBlank = (cell: TCell) => cell === undefined || cell.trim() === '';

function isPlaceholderNameShaped(cell: string): boolean {
  return (
    cell.length <= MAX_PLACEHOLDER_NAME_LENGTH && normalizePlaceholderName(cell) === cell && /^[^\s{}*]+$/.test(cell)
  );
}

/**
 * Collects rows as a reader meets them. The first non-blank row is the header; blank rows are
 * skipped but keep their numbers. The Excel template (formats/excel-template.ts) puts the labels
 * in row 1 and the exact placeholder names in a hidden row 2; that row is recognised and its
 * names become the column names, so the template always matches in full, even when two
 * placeholders share a label.
 */
class SheetBuilder {
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

  push(row: number, cells: readonly TCell[], hidden: boolean): void {
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
        throw bad(`The file has more than ${fmt(this.maxRows)} rows in its sheets together; the limit is ${fmt(this.maxRows)} rows per upload. Split it into smaller files.`);
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
      const joined =
        letters.length === 2 ? `${letters[0]} and ${letters[1]}` : `${letters.slice(0, -1).join(', ')} and ${letters.at(-1)}`;
      return `"${this.columns[list[0] ?? 0]}" (columns ${joined})`;
    });
    throw bad(
      `The header row has the same column name more than once: ${described.join(', ')}. Give each column a different name and upload the file again.`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// CSV

const DELIMITERS = ['\t', ';', ','] as const;

function decodeText(bytes: Buffer): string {
  let encoding: 'utf-8' | 'utf-16le' | 'utf-16be' = 'utf-8';
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) [encoding, start] = ['utf-16le', 2];
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) [encoding, start] = ['utf-16be', 2];
  const body = bytes.subarray(start);
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    if (encoding !== 'utf-8') throw bad(`The file says it is ${encoding.toUpperCase()} text but is not valid. ${ACCEPTED}`);
    throw bad(
      `The file is not valid UTF-8 text (the first problem is on line ${firstInvalidUtf8Line(body)}). In Excel, save it as "CSV UTF-8 (Comma delimited)", or upload it as .xlsx.`,
    );
  }
}

/** 1-based line of the first invalid UTF-8 sequence (0x0A never occurs inside a valid sequence). */
function firstInvalidUtf8Line(bytes: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let from = 0;
  while (from <= bytes.length) {
    let to = bytes.indexOf(0x0a, from);
    if (to === -1) to = bytes.length;
    try {
      decoder.decode(bytes.subarray(from, to));
    } catch {
      return line;
    }
    line += 1;
    from = to + 1;
  }
  return line;
}

/**
 * The delimiter, among tab, semicolon and comma, that splits the first rows into the same number
 * of fields as the header, more than one; ties go to the rarer character (tab, then semicolon),
 * since a header like "Amount (EUR, net);Date" splits consistently on both.
 */
function detectDelimiter(text: string): string {
  let sample = text.slice(0, 64 * 1024);
  const lastNewline = sample.lastIndexOf('\n');
  if (text.length > sample.length && lastNewline > 0) sample = sample.slice(0, lastNewline);
  let best: { delimiter: string; fields: number; consistent: boolean } | null = null;
  for (const delimiter of DELIMITERS) {
    const rows = Papa.parse<string[]>(sample, { delimiter, preview: 20, skipEmptyLines: 'greedy' }).data;
    const header = rows[0];
    if (!header || header.length < 2) continue;
    const consistent = rows.every((r) => r.length === header.length);
    const better =
      !best ||
      (consistent && !best.consistent) ||
      (consistent === best.consistent && header.length > best.fields);
    if (better) best = { delimiter, fields: header.length, consistent };
  }
  return best?.delimiter ?? ',';
}

function readCsv(bytes: Buffer, builder: SheetBuilder, stats: TReadStats): void {
  let text = decodeText(bytes);
  // Excel writes and honours a first line "sep=;" naming the delimiter; it is not a row.
  const sep = /^sep=([,;\t|])\r?\n/i.exec(text);
  if (sep) text = text.slice(sep[0].length);
  const delimiter = sep?.[1] ?? detectDelimiter(text);
  let failure: unknown = null;
  let row = 0;
  Papa.parse<string[]>(text, {
    delimiter,
    skipEmptyLines: false,
    step: (result, parser) => {
      row += 1;
      stats.rowsRead = row;
      try {
        const quoteError = result.errors.find((e) => e.type === 'Quotes');
        if (quoteError) {
          throw bad(
            `Row ${fmt(row)} has a quoted value that is not closed properly, so the rest of the file cannot be read. Check the quotation marks on that row.`,
          );
        }
        builder.push(row, result.data, false);
      } catch (error) {
        failure = error;
        parser.abort();
      }
    },
  });
  if (failure) throw failure;
}

// ---------------------------------------------------------------------------------------------
// Numbers and dates, shared by .xlsx and .xls

/** A number as plain decimal text: 15 significant digits (what Excel shows), no exponent. */
export function plainNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const rounded = Number(value.toPrecision(15));
  const text = String(rounded);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, int = '', frac = '', expText = '0'] = m;
  const digits = int + frac;
  const point = int.length + Number(expText);
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  if (out.includes('.')) out = out.replace(/0+$/, '').replace(/\.$/, '');
  return sign + out;
}

type TDateKind = 'date' | 'time';

const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 22, 27, 28, 29, 30, 31, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58]);
const BUILTIN_TIME_FORMATS = new Set([18, 19, 20, 21, 32, 33, 34, 35, 45, 46, 47]);

function builtinDateKind(id: number): TDateKind | null {
  if (BUILTIN_DATE_FORMATS.has(id)) return 'date';
  if (BUILTIN_TIME_FORMATS.has(id)) return 'time';
  return null;
}

/** Whether a number format code shows a date (or only a time); null for every other format. */
export function dateKindOfFormat(code: string): TDateKind | null {
  // Only the first section (positive numbers) decides; quoted text, escapes, padding and
  // [colour]/[condition] blocks are not tokens. [h], [m] and [s] are elapsed times.
  const section = code.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/)[0] ?? '';
  let s = section.replace(/"[^"]*"/g, '').replace(/\\./g, '').replace(/[_*]./g, '');
  const elapsed = /\[(h+|m+|s+)\]/i.test(s);
  s = s.replace(/\[[^\]]*\]/g, '').replace(/general/gi, '').replace(/am\/pm|a\/p/gi, '');
  if (elapsed) return 'time';
  const hasTime = /[hs]/i.test(s);
  const hasDate = /[dy]/i.test(s) || (/m/i.test(s) && !hasTime);
  if (hasDate) return 'date';
  if (hasTime) return 'time';
  return null;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

function timeText(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${pad2(h)}:${pad2(m)}${s === 0 ? '' : `:${pad2(s)}`}`;
}

/**
 * An Excel serial number as YYYY-MM-DD, YYYY-MM-DDTHH:mm (when it has a time of day; seconds
 * only when not zero) or, for a time-only format, HH:mm. Out-of-range serials stay numbers.
 */
export function serialToText(serial: number, kind: TDateKind, date1904: boolean): string {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return plainNumber(serial);
  const totalSeconds = Math.round(serial * 86_400);
  if (kind === 'time') return timeText(totalSeconds);
  let days = Math.floor(totalSeconds / 86_400);
  const seconds = totalSeconds - days * 86_400;
  // The 1900 system counts a 29 February 1900 that never was; serials before it are one day off.
  let epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  if (!date1904 && days < 61) epoch = Date.UTC(1899, 11, 31);
  if (!date1904 && days === 60) days = 59;
  const d = new Date(epoch + days * 86_400_000);
  const date = `${String(d.getUTCFullYear()).padStart(4, '0')}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
  return seconds === 0 ? date : `${date}T${timeText(seconds)}`;
}

/** An ISO date or date-time (from an .xlsx `t="d"` cell) in the same shapes as serialToText. */
function isoDateText(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(text.trim());
  if (!m) return text;
  const [, date = '', h = '00', min = '00', s = '00'] = m;
  const seconds = Number(h) * 3600 + Number(min) * 60 + Number(s);
  return seconds === 0 ? date : `${date}T${timeText(seconds)}`;
}

// ---------------------------------------------------------------------------------------------
// .xlsx: ZIP checks, then a streaming SAX read of the first worksheet

const SHEET_ZIP_RULES: TZipRules = {
  maxEntries: BULK_MAX_ZIP_ENTRIES,
  maxUnpackedBytes: BULK_MAX_UNZIPPED_BYTES,
  maxRatio: MAX_DEFLATE_RATIO,
  messages: {
    corrupt: MESSAGES.corrupt,
    tooManyParts: MESSAGES.tooManyParts,
    passwordProtected: MESSAGES.passwordProtected,
    tooLarge: zipBombMessage,
  },
};

function zipBombMessage(declared: number): string {
  return `The workbook unpacks to ${fmt(Math.round(declared / (1024 * 1024)))} MB, more than the ${fmt(BULK_MAX_UNZIPPED_BYTES / (1024 * 1024))} MB a spreadsheet upload may use (it may be a "zip bomb"). Remove images and unused sheets, or split the rows into smaller files.`;
}

type TSaxHandlers = {
  open?: (name: string, attributes: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
};

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * Streams one part through a SAX parser. A handler may throw to stop reading (the row limit);
 * the inflate stream is then destroyed, so nothing past that point is unpacked.
 */
async function parsePart(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  handlers: TSaxHandlers,
  onBytes?: (n: number) => void,
): Promise<void> {
  const parser = new SaxesParser({ position: false });
  parser.on('doctype', () => {
    throw bad(MESSAGES.corrupt);
  });
  parser.on('error', () => {
    throw bad(MESSAGES.corrupt);
  });
  if (handlers.open) {
    const open = handlers.open;
    parser.on('opentag', (tag) => open(localName(tag.name), tag.attributes as Record<string, string>));
  }
  if (handlers.close) {
    const close = handlers.close;
    parser.on('closetag', (tag) => close(localName(tag.name)));
  }
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  const decoder = new TextDecoder('utf-8');
  let stream: NodeJS.ReadableStream & AsyncIterable<Buffer>;
  try {
    stream = await openEntry(zip, entry);
  } catch {
    throw bad(MESSAGES.corrupt);
  }
  try {
    for await (const chunk of stream) {
      onBytes?.(chunk.length);
      parser.write(decoder.decode(chunk, { stream: true }));
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = error instanceof Error ? error.message : '';
    throw bad(/too many bytes/i.test(message) ? MESSAGES.sizeMismatch : MESSAGES.corrupt);
  } finally {
    const destroyable = stream as unknown as { destroy?: () => void };
    destroyable.destroy?.();
  }
}

async function readPartText(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry | undefined,
  handlers: TSaxHandlers,
): Promise<void> {
  if (entry) await parsePart(zip, entry, handlers);
}

/** Decodes OOXML's `_xHHHH_` escapes (Excel writes a carriage return as `_x000D_`). */
function unescapeOoxml(text: string): string {
  return text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;
}

/** Collects `<t>` text inside `<si>`/`<is>`, leaving out phonetic runs (`<rPh>`). */
class RichTextCollector {
  private depthT = 0;
  private inPhonetic = 0;
  private parts: string[] = [];

  open(name: string): void {
    if (name === 't') this.depthT += 1;
    else if (name === 'rPh') this.inPhonetic += 1;
  }
  close(name: string): void {
    if (name === 't') this.depthT -= 1;
    else if (name === 'rPh') this.inPhonetic -= 1;
  }
  text(text: string): void {
    if (this.depthT > 0 && this.inPhonetic === 0) this.parts.push(text);
  }
  take(): string {
    const out = unescapeOoxml(this.parts.join(''));
    this.parts = [];
    return out;
  }
}

function resolveTarget(target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/').toLowerCase();
}

const COLUMN_REF_RE = /^\$?([A-Za-z]{1,3})/;

function columnIndexOf(ref: string | undefined): number | null {
  const m = ref ? COLUMN_REF_RE.exec(ref) : null;
  if (!m) return null;
  let n = 0;
  for (const ch of (m[1] ?? '').toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

async function readXlsx(bytes: Buffer, builder: SheetBuilder, stats: TReadStats, others?: TOtherSheets): Promise<void> {
  const { zip, entries } = await openCheckedZip(bytes, SHEET_ZIP_RULES);
  try {
    const workbookEntry = entries.get('xl/workbook.xml');
    if (!workbookEntry) throw mismatch('xlsx', 'zip');

    // Workbook: the first sheet in workbook order, and the date system.
    let firstSheetRel: string | null = null;
    let date1904 = false;
    const laterSheets: { name: string; rel: string }[] = [];
    await readPartText(zip, workbookEntry, {
      open: (name, attributes) => {
        if (name === 'sheet' && firstSheetRel === null) {
          const key = Object.keys(attributes).find((k) => k === 'id' || k.endsWith(':id'));
          firstSheetRel = key ? (attributes[key] ?? null) : null;
        } else if (name === 'sheet') {
          const key = Object.keys(attributes).find((k) => k === 'id' || k.endsWith(':id'));
          const rel = key ? attributes[key] : undefined;
          // Hidden sheets hold helpers (the template's option lists), never data.
          if (rel && attributes.state !== 'hidden' && attributes.state !== 'veryHidden') laterSheets.push({ name: attributes.name ?? '', rel });
        } else if (name === 'workbookPr') {
          const v = attributes.date1904;
          date1904 = v === '1' || v === 'true';
        }
      },
    });

    const targets = new Map<string, string>();
    await readPartText(zip, entries.get('xl/_rels/workbook.xml.rels'), {
      open: (name, attributes) => {
        if (name === 'Relationship' && attributes.Id && attributes.Target) {
          targets.set(attributes.Id, resolveTarget(attributes.Target));
        }
      },
    });
    const target = firstSheetRel ? targets.get(firstSheetRel) : undefined;
    const sheetEntry = entries.get(target ?? 'xl/worksheets/sheet1.xml');
    if (!sheetEntry) {
      throw bad(
        target?.includes('chartsheet')
          ? 'The first sheet of the workbook is a chart. Move the sheet with the data to the front and upload the file again.'
          : MESSAGES.corrupt,
      );
    }

    // Styles: which cell formats show dates.
    const customFormats = new Map<number, string>();
    const xfFormatIds: number[] = [];
    let inCellXfs = false;
    await readPartText(zip, entries.get('xl/styles.xml'), {
      open: (name, attributes) => {
        if (name === 'numFmt') customFormats.set(Number(attributes.numFmtId), attributes.formatCode ?? '');
        else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) xfFormatIds.push(Number(attributes.numFmtId ?? 0));
      },
      close: (name) => {
        if (name === 'cellXfs') inCellXfs = false;
      },
    });
    const dateKindByStyle = xfFormatIds.map((id) => {
      const custom = customFormats.get(id);
      return custom !== undefined ? dateKindOfFormat(custom) : builtinDateKind(id);
    });

    // Shared strings: bounded by the unpacked-size check above.
    const shared: string[] = [];
    const sharedText = new RichTextCollector();
    await readPartText(zip, entries.get('xl/sharedstrings.xml'), {
      open: (name) => sharedText.open(name),
      close: (name) => {
        if (name === 'si') shared.push(sharedText.take());
        else sharedText.close(name);
      },
      text: (text) => sharedText.text(text),
    });

    await readWorksheet(zip, sheetEntry, builder, stats, { shared, dateKindByStyle, date1904 });
    if (others) {
      for (const later of laterSheets.slice(0, BULK_MAX_OTHER_SHEETS)) {
        const entry = entries.get(targets.get(later.rel) ?? '');
        if (!entry || !(targets.get(later.rel) ?? '').includes('worksheets/')) continue;
        const other = new SheetBuilder(others.budget.rows, others.budget);
        await readWorksheet(zip, entry, other, stats, { shared, dateKindByStyle, date1904 });
        others.sheets.push({ name: later.name, builder: other });
      }
    }
  } finally {
    zip.close();
  }
}

interface TWorkbookContext {
  shared: readonly string[];
  dateKindByStyle: readonly (TDateKind | null)[];
  date1904: boolean;
}

async function readWorksheet(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  builder: SheetBuilder,
  stats: TReadStats,
  book: TWorkbookContext,
): Promise<void> {
  let inSheetData = false;
  let rowNumber = 0;
  let rowHidden = false;
  let cells: TCell[] = [];
  let nextColumn = 0;
  // Current cell.
  let cellColumn = -1;
  let cellType = 'n';
  let cellStyle = 0;
  let value: string[] | null = null;
  let inValue = false;
  let inInline = false;
  const inline = new RichTextCollector();

  const cellText = (): string => {
    const raw = value === null ? null : value.join('');
    if (cellType === 'inlineStr') return inline.take();
    if (raw === null) return ''; // also a formula with no cached result: never evaluated
    switch (cellType) {
      case 's':
        return book.shared[Number(raw)] ?? '';
      case 'str':
        return unescapeOoxml(raw);
      case 'b':
        return raw.trim() === '1' || raw.trim().toLowerCase() === 'true' ? 'TRUE' : 'FALSE';
      case 'e':
        return raw;
      case 'd':
        return isoDateText(raw);
      default: {
        const trimmed = raw.trim();
        if (trimmed === '') return '';
        const n = Number(trimmed);
        if (!Number.isFinite(n)) return trimmed;
        const kind = book.dateKindByStyle[cellStyle] ?? null;
        return kind ? serialToText(n, kind, book.date1904) : plainNumber(n);
      }
    }
  };

  await parsePart(
    zip,
    entry,
    {
      open: (name, attributes) => {
        if (name === 'sheetData') {
          inSheetData = true;
        } else if (!inSheetData) {
          return;
        } else if (name === 'row') {
          const r = Number(attributes.r);
          rowNumber = Number.isInteger(r) && r > rowNumber ? r : rowNumber + 1;
          rowHidden = attributes.hidden === '1' || attributes.hidden === 'true';
          cells = [];
          nextColumn = 0;
        } else if (name === 'c') {
          cellColumn = columnIndexOf(attributes.r) ?? nextColumn;
          nextColumn = cellColumn + 1;
          cellType = attributes.t ?? 'n';
          cellStyle = Number(attributes.s ?? 0) || 0;
          value = null;
        } else if (name === 'v') {
          inValue = true;
          value = [];
        } else if (name === 'is') {
          inInline = true;
        } else if (inInline) {
          inline.open(name);
        }
      },
      text: (text) => {
        if (inValue) value?.push(text);
        else if (inInline) inline.text(text);
      },
      close: (name) => {
        if (!inSheetData) return;
        if (name === 'v') {
          inValue = false;
        } else if (name === 'is') {
          inInline = false;
        } else if (inInline) {
          inline.close(name);
        } else if (name === 'c') {
          const text = cellText();
          if (cellColumn < builder.width && text !== '') cells[cellColumn] = text;
          value = null;
        } else if (name === 'row') {
          stats.rowsRead += 1;
          builder.push(rowNumber, cells, rowHidden);
        } else if (name === 'sheetData') {
          inSheetData = false;
        }
      },
    },
    (n) => {
      stats.bytesInflated += n;
    },
  );
}

// ---------------------------------------------------------------------------------------------
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
function readXls(bytes: Buffer, builder: SheetBuilder, stats: TReadStats, others?: TOtherSheets): void {
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
