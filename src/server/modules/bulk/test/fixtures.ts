/*
 * Spreadsheet fixtures built in code (no committed binaries), for the reader's tests and any other
 * test that needs an upload: real workbooks written by exceljs and SheetJS, hand-made ZIPs for
 * what no library writes on purpose (zip bombs, a million rows cheaply), and hostile or broken
 * files of every kind the reader refuses.
 */
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { deflateRawSync } from 'node:zlib';
import { zipFrom, type TZipEntry } from '../../../test/hand-made-zip.ts';

// ---------------------------------------------------------------------------------------------
// Hand-made .xlsx

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

export interface THandXlsx {
  /** The inside of `<sheetData>`. */
  sheetData: string | Buffer;
  /** `<si>` elements' inner XML, or plain strings (escaped for you). */
  sharedStrings?: readonly string[];
  sharedStringsXml?: string;
  /** Custom number formats by id, and the numFmtId of each cell style (index = `s`). */
  numFmts?: Record<number, string>;
  cellXfs?: readonly number[];
  date1904?: boolean;
  /** Extra sheets listed before the data sheet in the archive (but after it in the workbook). */
  extraSheetFirstInZip?: boolean;
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The ZIP entries of a minimal workbook whose first sheet is `sheetData`. */
export function handXlsxEntries(spec: THandXlsx): TZipEntry[] {
  const workbook = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook ${NS}><workbookPr${spec.date1904 ? ' date1904="1"' : ''}/><sheets><sheet name="Data" sheetId="1" r:id="rId1"/><sheet name="Other" sheetId="2" r:id="rId2"/></sheets></workbook>`;
  const rels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/sheet2.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;
  const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${NS}><sheetData>`;
  const tail = '</sheetData></worksheet>';
  const sheetData = typeof spec.sheetData === 'string' ? Buffer.from(spec.sheetData, 'utf8') : spec.sheetData;
  // The data sheet is sheet2.xml but first in workbook order; sheet1.xml is a decoy.
  const dataSheet: TZipEntry = { name: 'xl/worksheets/sheet2.xml', data: Buffer.concat([Buffer.from(head), sheetData, Buffer.from(tail)]) };
  const decoy: TZipEntry = {
    name: 'xl/worksheets/sheet1.xml',
    data: `${head}<row r="1"><c r="A1" t="inlineStr"><is><t>Not the first sheet</t></is></c></row>${tail}`,
  };
  const entries: TZipEntry[] = [
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: '_rels/.rels', data: ROOT_RELS },
    { name: 'xl/workbook.xml', data: workbook },
    { name: 'xl/_rels/workbook.xml.rels', data: rels },
    ...(spec.extraSheetFirstInZip === false ? [dataSheet, decoy] : [decoy, dataSheet]),
  ];
  const numFmts = Object.entries(spec.numFmts ?? {});
  const xfs = spec.cellXfs ?? [0];
  entries.push({
    name: 'xl/styles.xml',
    data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${
      numFmts.length > 0
        ? `<numFmts count="${numFmts.length}">${numFmts.map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${escapeXml(code)}"/>`).join('')}</numFmts>`
        : ''
    }<cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs><cellXfs count="${xfs.length}">${xfs.map((id) => `<xf numFmtId="${id}" xfId="0"/>`).join('')}</cellXfs></styleSheet>`,
  });
  const shared = spec.sharedStringsXml ?? (spec.sharedStrings ?? []).map((s) => `<si><t xml:space="preserve">${escapeXml(s)}</t></si>`).join('');
  if (shared !== '') {
    entries.push({
      name: 'xl/sharedStrings.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${shared}</sst>`,
    });
  }
  return entries;
}

export function handXlsx(spec: THandXlsx): Buffer {
  return zipFrom(handXlsxEntries(spec));
}

/** `<row>` XML of inline-string cells, for hand-made sheets. */
export function inlineRow(row: number, cells: readonly string[], attributes = ''): string {
  const cs = cells
    .map((text, i) => (text === '' ? '' : `<c r="${String.fromCharCode(65 + i)}${row}" t="inlineStr"><is><t>${escapeXml(text)}</t></is></c>`))
    .join('');
  return `<row r="${row}"${attributes}>${cs}</row>`;
}

// ---------------------------------------------------------------------------------------------
// Real workbooks

/** A cell with a number format, for xlsxFrom (e.g. an Excel serial shown as a date). */
export interface TFormattedCell {
  value: ExcelJS.CellValue;
  numFmt: string;
}
export const formatted = (value: ExcelJS.CellValue, numFmt: string): TFormattedCell => ({ value, numFmt });

function isFormatted(value: unknown): value is TFormattedCell {
  return typeof value === 'object' && value !== null && 'numFmt' in value && 'value' in value;
}

/**
 * An .xlsx written by exceljs, first row the header. Cells are exceljs values: strings, numbers,
 * booleans, Dates, `{ formula, result }`, `{ richText }`, `{ text, hyperlink }`, `{ error }`, or
 * `formatted(value, numFmt)`.
 */
export async function xlsxFrom(rows: readonly (readonly unknown[])[], options: { hiddenRows?: readonly number[]; extraSheet?: boolean } = {}): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  rows.forEach((cells, r) => {
    cells.forEach((value, c) => {
      if (value === undefined || value === null) return;
      const cell = sheet.getCell(r + 1, c + 1);
      if (isFormatted(value)) {
        cell.value = value.value;
        cell.numFmt = value.numFmt;
      } else {
        cell.value = value as ExcelJS.CellValue;
      }
    });
  });
  for (const r of options.hiddenRows ?? []) sheet.getRow(r).hidden = true;
  if (options.extraSheet) workbook.addWorksheet('Second').getCell('A1').value = 'second sheet';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A legacy .xls (BIFF8) written by SheetJS. Cells: SheetJS cell objects or plain values. */
export function xlsFrom(rows: readonly (readonly unknown[])[]): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet(rows.map((r) => [...r]));
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, sheet, 'Data');
  return Buffer.from(XLSX.write(workbook, { bookType: 'xls', type: 'buffer' }) as Uint8Array);
}

/** An .xls from a SheetJS sheet object, for cells aoa_to_sheet cannot express (formats, errors). */
export function xlsFromSheet(sheet: XLSX.WorkSheet): Buffer {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, sheet, 'Data');
  return Buffer.from(XLSX.write(workbook, { bookType: 'xls', type: 'buffer' }) as Uint8Array);
}

// ---------------------------------------------------------------------------------------------
// CSV

export interface TCsvOptions {
  delimiter?: ',' | ';' | '\t';
  bom?: boolean;
  eol?: '\r\n' | '\n';
}

/** A CSV file, quoting cells that hold the delimiter, quotes or line breaks. */
export function csvFrom(rows: readonly (readonly string[])[], options: TCsvOptions = {}): Buffer {
  const delimiter = options.delimiter ?? ',';
  const eol = options.eol ?? '\r\n';
  const quote = (cell: string) => (cell.includes(delimiter) || /["\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  const text = rows.map((r) => r.map(quote).join(delimiter)).join(eol) + eol;
  return Buffer.concat([options.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
}

// ---------------------------------------------------------------------------------------------
// Hostile and broken files

export const emptyFile = (): Buffer => Buffer.alloc(0);

export const headerOnlyCsv = (): Buffer => csvFrom([['Client Name', 'Email']]);

export const duplicateHeadersCsv = (): Buffer =>
  csvFrom([
    ['Name', 'Email', 'Amount', 'email', 'Name', 'Name'],
    ['Ann', 'a@example.com', '1', 'b@example.com', 'x', 'y'],
  ]);

/** Quoted fields holding the delimiter, a line break and doubled quotes. */
export const quotedNewlinesCsv = (): Buffer =>
  Buffer.from('Name,Address,Note\r\n"Smith, Ann","1 Main St\r\nSpringfield","She said ""hi"""\r\nBob,2 Side St,\r\n', 'utf8');

/** Latin-1 bytes (é = 0xE9) on line 3, as Excel's plain "CSV" saves on Windows. */
export const invalidUtf8Csv = (): Buffer =>
  Buffer.concat([Buffer.from('Name,City\r\nAnn,Paris\r\nRen', 'utf8'), Buffer.from([0xe9]), Buffer.from(',Lyon\r\n', 'utf8')]);

/** A CSV with a .xlsx name is the caller's business; these are the bytes. */
export const csvBytesForXlsxName = (): Buffer => csvFrom([['Name'], ['Ann']]);

/** The 8-byte PNG signature and an IHDR chunk: an image, whatever it is called. */
export const pngBytes = (): Buffer =>
  Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex')]);

/** A workbook whose sheet part declares 2 GB unpacked: refused from the directory alone. */
export function zipBombXlsx(declaredSize = 2 * 1024 * 1024 * 1024): Buffer {
  const entries = handXlsxEntries({ sheetData: inlineRow(1, ['Name']) + inlineRow(2, ['Ann']) });
  const zeros = deflateRawSync(Buffer.alloc(1024 * 1024));
  return zipFrom([...entries, { name: 'xl/media/zeros.bin', data: Buffer.alloc(0), deflated: zeros, declaredSize, crc: 0 }]);
}

/**
 * A workbook whose sheet part declares 10 KB but inflates to 50 MB of zeros behind the XML: the
 * directory looks harmless, so only counting while inflating catches it.
 */
export function lyingZipXlsx(): Buffer {
  const entries = handXlsxEntries({ sheetData: inlineRow(1, ['Name']) + inlineRow(2, ['Ann']) });
  return zipFrom(
    entries.map((entry) => {
      if (entry.name !== 'xl/worksheets/sheet2.xml') return entry;
      const real = Buffer.concat([Buffer.from(entry.data), Buffer.alloc(50 * 1024 * 1024, 0x20)]);
      return { ...entry, data: Buffer.alloc(0), deflated: deflateRawSync(real), declaredSize: 10 * 1024, crc: 0 };
    }),
  );
}

/** A workbook with more ZIP entries than any spreadsheet has. */
export function manyPartsXlsx(parts = 10_001): Buffer {
  const entries = handXlsxEntries({ sheetData: inlineRow(1, ['Name']) + inlineRow(2, ['Ann']) });
  for (let i = 0; i < parts; i++) entries.push({ name: `xl/junk/${i}.xml`, data: '', store: true });
  return zipFrom(entries);
}

/**
 * A million data rows (Name, Amount: shared strings) in a real .xlsx, built in under a second by
 * writing the sheet XML directly: about 64 MB unpacked, under 3 MB packed, so it passes the file
 * size and unpacked size checks and only the row limit stops it.
 */
export function millionRowXlsx(dataRows = 1_000_000): Buffer {
  const parts: string[] = ['<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'];
  for (let r = 2; r <= dataRows + 1; r++) parts.push(`<row r="${r}"><c t="s"><v>2</v></c><c t="s"><v>3</v></c></row>`);
  const entries = handXlsxEntries({ sheetData: parts.join(''), sharedStrings: ['Name', 'Amount', 'Ann', '12.50'] });
  return zipFrom(entries.map((e) => (e.name === 'xl/worksheets/sheet2.xml' ? { ...e, level: 1 } : e)));
}

/** An Office-encrypted workbook: a compound file holding EncryptionInfo and EncryptedPackage. */
export function passwordProtectedXlsx(): Buffer {
  const container = XLSX.CFB.utils.cfb_new();
  XLSX.CFB.utils.cfb_add(container, 'EncryptionInfo', Buffer.from([4, 0, 4, 0, 0x40, 0, 0, 0]));
  XLSX.CFB.utils.cfb_add(container, 'EncryptedPackage', Buffer.alloc(4096, 7));
  return Buffer.from(XLSX.CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/** A real .xls with a FILEPASS (RC4 encryption) record after its first BOF, as Excel writes a password. */
export function passwordProtectedXls(): Buffer {
  const container = XLSX.CFB.read(xlsFrom([['Name'], ['Ann']]), { type: 'buffer' });
  const stream = XLSX.CFB.find(container, 'Workbook');
  if (!stream) throw new Error('no Workbook stream');
  const content = Buffer.from(stream.content as Uint8Array);
  const bofEnd = 4 + content.readUInt16LE(2);
  const filepass = Buffer.alloc(4 + 54);
  filepass.writeUInt16LE(0x002f, 0);
  filepass.writeUInt16LE(54, 2);
  filepass.writeUInt16LE(1, 4); // RC4
  filepass.writeUInt16LE(1, 6);
  filepass.writeUInt16LE(1, 8);
  const next = Buffer.concat([content.subarray(0, bofEnd), filepass, content.subarray(bofEnd)]);
  stream.content = next;
  stream.size = next.length;
  return Buffer.from(XLSX.CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/** An .xlsx cut off half way: the ZIP directory at the end is missing. */
export async function truncatedXlsx(): Promise<Buffer> {
  const whole = await xlsxFrom([['Name'], ['Ann']]);
  return whole.subarray(0, Math.floor(whole.length / 2));
}

/** A complete ZIP whose worksheet is not well-formed XML. */
export function malformedXmlXlsx(): Buffer {
  return handXlsx({ sheetData: '<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row><row r="2"><c r="A2"' });
}

/** A ZIP that is not a workbook (e.g. a .docx or a plain archive). */
export const plainZip = (): Buffer => zipFrom([{ name: 'word/document.xml', data: '<w:document/>' }]);

/** An .xls-named compound file that is not a workbook: garbage after a valid header. */
export function corruptXls(): Buffer {
  const real = xlsFrom([['Name'], ['Ann']]);
  return Buffer.concat([real.subarray(0, 512), Buffer.alloc(3000, 0x41)]);
}
