import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error.ts';
import { HTTP_STATUS_OF } from '../../../contract/errors.ts';
import { readSpreadsheet } from './spreadsheet/read-spreadsheet.ts';
import type { TReadStats } from './spreadsheet/sheet-types.ts';
import { BULK_MAX_COLUMNS, MESSAGES } from './spreadsheet/spreadsheet-limits.ts';
import {
  corruptXls,
  csvBytesForXlsxName,
  csvFrom,
  duplicateHeadersCsv,
  emptyFile,
  formatted,
  handXlsx,
  handXlsxEntries,
  headerOnlyCsv,
  inlineRow,
  invalidUtf8Csv,
  lyingZipXlsx,
  malformedXmlXlsx,
  manyPartsXlsx,
  millionRowXlsx,
  passwordProtectedXls,
  passwordProtectedXlsx,
  plainZip,
  pngBytes,
  quotedNewlinesCsv,
  truncatedXlsx,
  xlsFrom,
  xlsFromSheet,
  xlsxFrom,
  zipBombXlsx,
} from './test/fixtures.ts';
import { zipFrom } from '../../test/hand-made-zip.ts';

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected readSpreadsheet to throw');
}

async function expectRefused(promise: Promise<unknown>, status: number, code: string, message: string): Promise<void> {
  const error = await failure(promise);
  expect({ status: HTTP_STATUS_OF[error.code], code: error.code, message: error.message }).toEqual({ status, code, message });
}

const CORRUPT = MESSAGES.corrupt;
const PASSWORD =
  'This workbook is password-protected, so it cannot be read. Remove the password in Excel (File > Info > Protect Workbook > Encrypt with Password), save it and upload it again.';
const newStats = (): TReadStats => ({ rowsRead: 0, bytesInflated: 0 });

describe('readSpreadsheet: names, sizes and what the bytes really are', () => {
  it('accepts .xlsx, .xls and .csv in any case, and refuses other extensions with 415', async () => {
    const csv = csvFrom([['Name'], ['Ann']]);
    expect((await readSpreadsheet(csv, 'DATA.CSV')).rows).toHaveLength(1);
    await expectRefused(readSpreadsheet(csv, 'data.pdf'), 415, 'unsupported_media_type', '.pdf files cannot be read. Upload an .xlsx, .xls or .csv file.');
    await expectRefused(readSpreadsheet(csv, 'data.xlsm'), 415, 'unsupported_media_type', '.xlsm files cannot be read. Upload an .xlsx, .xls or .csv file.');
    await expectRefused(
      readSpreadsheet(csv, 'data'),
      415,
      'unsupported_media_type',
      '"data" has no file extension, so its type is unknown. Upload an .xlsx, .xls or .csv file.',
    );
  });

  it('refuses a file over 10 MB with 413 before reading it', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 'a');
    await expectRefused(readSpreadsheet(big, 'big.csv'), 413, 'payload_too_large', 'The file is larger than 10 MB. Split it into smaller files.');
    await expectRefused(readSpreadsheet(big, 'big.xlsx'), 413, 'payload_too_large', 'The file is larger than 10 MB. Split it into smaller files.');
  });

  it('refuses an empty file', async () => {
    for (const name of ['a.csv', 'a.xlsx', 'a.xls']) {
      await expectRefused(readSpreadsheet(emptyFile(), name), 400, 'bad_request', 'The file is empty.');
    }
  });

  it('refuses with 415 a file whose bytes are not what its extension says', async () => {
    const xlsx = await xlsxFrom([['Name'], ['Ann']]);
    const xls = xlsFrom([['Name'], ['Ann']]);
    const cases: [Buffer, string, string][] = [
      [csvBytesForXlsxName(), 'data.xlsx', 'This file is named .xlsx, but it is a text (CSV) file. Rename it to .csv and upload it again.'],
      [pngBytes(), 'data.csv', 'This file is named .csv, but it is a PNG image. Upload an .xlsx, .xls or .csv file.'],
      [xlsx, 'data.csv', 'This file is named .csv, but it is an Excel workbook (.xlsx). Rename it to .xlsx and upload it again.'],
      [xlsx, 'data.xls', 'This file is named .xls, but it is an Excel workbook (.xlsx). Rename it to .xlsx and upload it again.'],
      [xls, 'data.xlsx', 'This file is named .xlsx, but it is an Excel 97-2003 workbook (.xls). Rename it to .xls and upload it again.'],
      [xls, 'data.csv', 'This file is named .csv, but it is an Excel 97-2003 workbook (.xls). Rename it to .xls and upload it again.'],
      [plainZip(), 'data.xlsx', 'This file is named .xlsx, but it is a ZIP archive. Upload an .xlsx, .xls or .csv file.'],
      [
        Buffer.from('%PDF-1.7\n%\xe2\xe3\n1 0 obj', 'latin1'),
        'data.xls',
        'This file is named .xls, but it is a PDF document. Upload an .xlsx, .xls or .csv file.',
      ],
      [
        Buffer.from('<html><body><table><tr><td>Name</td></tr></table></body></html>'),
        'export.xls',
        'This file is named .xls, but it is a web page or XML document. Upload an .xlsx, .xls or .csv file.',
      ],
      [
        Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0, 0]),
        'data.csv',
        'This file is named .csv, but it is a GIF image. Upload an .xlsx, .xls or .csv file.',
      ],
      [Buffer.from([1, 2, 3, 0, 5, 6, 7, 8, 9]), 'data.csv', 'This file is named .csv, but it is binary data, not text. Upload an .xlsx, .xls or .csv file.'],
    ];
    for (const [bytes, name, message] of cases) {
      await expectRefused(readSpreadsheet(bytes, name), 415, 'unsupported_media_type', message);
    }
  });
});

describe('readSpreadsheet: the header and the rows', () => {
  it('refuses a header-only file', async () => {
    await expectRefused(readSpreadsheet(headerOnlyCsv(), 'a.csv'), 400, 'bad_request', 'The file has a header row but no data rows.');
    await expectRefused(
      readSpreadsheet(await xlsxFrom([['Name', 'Email'], [], ['  ', '']]), 'a.xlsx'),
      400,
      'bad_request',
      'The file has a header row but no data rows.',
    );
    await expectRefused(readSpreadsheet(xlsFrom([['Name']]), 'a.xls'), 400, 'bad_request', 'The file has a header row but no data rows.');
  });

  it('refuses a file with no rows at all', async () => {
    await expectRefused(readSpreadsheet(Buffer.from('\r\n \r\n,,\r\n'), 'a.csv'), 400, 'bad_request', MESSAGES.noRows);
    await expectRefused(readSpreadsheet(await xlsxFrom([]), 'a.xlsx'), 400, 'bad_request', MESSAGES.noRows);
  });

  it('names duplicate header names and their columns', async () => {
    await expectRefused(
      readSpreadsheet(duplicateHeadersCsv(), 'a.csv'),
      400,
      'bad_request',
      'The header row has the same column name more than once: "Name" (columns A, E and F), "Email" (columns B and D). Give each column a different name and upload the file again.',
    );
    await expectRefused(
      readSpreadsheet(
        await xlsxFrom([
          ['Email', ' Email '],
          ['a', 'b'],
        ]),
        'a.xlsx',
      ),
      400,
      'bad_request',
      'The header row has the same column name more than once: "Email" (columns A and B). Give each column a different name and upload the file again.',
    );
  });

  it('trims the header, drops trailing empty columns, pads and cuts rows, and skips blank rows keeping row numbers', async () => {
    const sheet = await readSpreadsheet(
      csvFrom([[], [' Name ', '', 'Email', '', ''], ['Ann'], [' ', ''], ['Bob', 'x', 'b@example.com', 'beyond', 'more']]),
      'a.csv',
    );
    expect(sheet).toEqual({
      columns: ['Name', '', 'Email'],
      rows: [
        { row: 3, cells: ['Ann', '', ''] },
        { row: 5, cells: ['Bob', 'x', 'b@example.com'] },
      ],
    });
    const xlsx = await readSpreadsheet(await xlsxFrom([['Name ', 'Email', null, null], [], ['Ann', null, null, 'x'], ['Bob', 'b@example.com']]), 'a.xlsx');
    expect(xlsx).toEqual({
      columns: ['Name', 'Email'],
      rows: [
        { row: 3, cells: ['Ann', ''] },
        { row: 4, cells: ['Bob', 'b@example.com'] },
      ],
    });
  });

  it('refuses a header wider than the column limit', async () => {
    const header = Array.from({ length: BULK_MAX_COLUMNS + 1 }, (_, i) => `c${i}`);
    await expectRefused(
      readSpreadsheet(csvFrom([header, ['x']]), 'a.csv'),
      400,
      'bad_request',
      'The header row has more than 256 columns; the limit is 256. Delete the columns you do not need and upload the file again.',
    );
    const sheet = await readSpreadsheet(csvFrom([header.slice(0, BULK_MAX_COLUMNS), ['x']]), 'a.csv');
    expect(sheet.columns).toHaveLength(BULK_MAX_COLUMNS);
  });

  it('refuses more data rows than the limit, saying the limit, and stops reading there', async () => {
    const rows = [['Name'], ...Array.from({ length: 10 }, (_, i) => [`n${i}`])];
    const message = 'The file has more than 3 data rows; the limit is 3 rows per upload. Split it into smaller files and upload them one by one.';
    const stats = newStats();
    await expectRefused(readSpreadsheet(csvFrom(rows), 'a.csv', { maxRows: 3, stats }), 400, 'bad_request', message);
    expect(stats.rowsRead).toBe(5); // the header, three rows, and the one too many
    await expectRefused(readSpreadsheet(await xlsxFrom(rows), 'a.xlsx', { maxRows: 3 }), 400, 'bad_request', message);
    await expectRefused(readSpreadsheet(xlsFrom(rows), 'a.xls', { maxRows: 3 }), 400, 'bad_request', message);
    expect((await readSpreadsheet(csvFrom(rows.slice(0, 4)), 'a.csv', { maxRows: 3 })).rows).toHaveLength(3);
    // Blank rows do not count.
    expect((await readSpreadsheet(csvFrom([['Name'], ['a'], [], [''], ['b'], ['c']]), 'a.csv', { maxRows: 3 })).rows).toHaveLength(3);
  });
});

describe('readSpreadsheet: CSV', () => {
  it('reads comma, semicolon and tab files and strips a UTF-8 BOM', async () => {
    const rows = [
      ['Name', 'Amount'],
      ['Ann', '1,5'],
    ];
    expect(await readSpreadsheet(csvFrom(rows, { delimiter: ';' }), 'a.csv')).toEqual({
      columns: ['Name', 'Amount'],
      rows: [{ row: 2, cells: ['Ann', '1,5'] }],
    });
    expect(await readSpreadsheet(csvFrom(rows, { delimiter: '\t', bom: true }), 'a.csv')).toEqual({
      columns: ['Name', 'Amount'],
      rows: [{ row: 2, cells: ['Ann', '1,5'] }],
    });
    expect(await readSpreadsheet(csvFrom(rows, { bom: true, eol: '\n' }), 'a.csv')).toEqual({
      columns: ['Name', 'Amount'],
      rows: [{ row: 2, cells: ['Ann', '1,5'] }],
    });
    // A comma inside a semicolon file's header does not fool the detection.
    expect((await readSpreadsheet(Buffer.from('Amount (EUR, net);Date\n1,5;2025-01-02\n'), 'a.csv')).columns).toEqual(['Amount (EUR, net)', 'Date']);
    // Excel's "sep=" line names the delimiter and is not a row.
    expect(await readSpreadsheet(Buffer.from('sep=;\r\nName;Note\r\nAnn;a,b\r\n'), 'a.csv')).toEqual({
      columns: ['Name', 'Note'],
      rows: [{ row: 2, cells: ['Ann', 'a,b'] }],
    });
    // One column: no delimiter at all.
    expect(await readSpreadsheet(Buffer.from('Name\nAnn\n'), 'a.csv')).toEqual({ columns: ['Name'], rows: [{ row: 2, cells: ['Ann'] }] });
  });

  it('keeps delimiters, line breaks and doubled quotes inside quoted fields; row numbers count records', async () => {
    expect(await readSpreadsheet(quotedNewlinesCsv(), 'a.csv')).toEqual({
      columns: ['Name', 'Address', 'Note'],
      rows: [
        { row: 2, cells: ['Smith, Ann', '1 Main St\r\nSpringfield', 'She said "hi"'] },
        { row: 3, cells: ['Bob', '2 Side St', ''] },
      ],
    });
  });

  it('refuses invalid UTF-8, saying on which line and how to save the file', async () => {
    await expectRefused(
      readSpreadsheet(invalidUtf8Csv(), 'a.csv'),
      400,
      'bad_request',
      'The file is not valid UTF-8 text (the first problem is on line 3). In Excel, save it as "CSV UTF-8 (Comma delimited)", or upload it as .xlsx.',
    );
  });

  it('reads UTF-16 text with a BOM (Excel "Unicode Text")', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Name\tCity\r\nRené\tLyon\r\n', 'utf16le')]);
    expect(await readSpreadsheet(bytes, 'a.csv')).toEqual({ columns: ['Name', 'City'], rows: [{ row: 2, cells: ['René', 'Lyon'] }] });
  });

  it('refuses a quote that is never closed instead of swallowing the rest of the file', async () => {
    await expectRefused(
      readSpreadsheet(Buffer.from('Name,Note\nAnn,ok\nBob,"never closed\nCid,x\n'), 'a.csv'),
      400,
      'bad_request',
      'Row 3 has a quoted value that is not closed properly, so the rest of the file cannot be read. Check the quotation marks on that row.',
    );
  });
});

describe('readSpreadsheet: .xlsx values', () => {
  it('turns every kind of cell into the text a person sees, never evaluating formulas', async () => {
    const bytes = await xlsxFrom([
      ['Text', 'Date', 'Number', 'Formula', 'Bool', 'Error', 'Rich', 'Link'],
      [
        'Ann',
        new Date(Date.UTC(2025, 2, 5)),
        0.1 + 0.2,
        { formula: 'C2*2', result: 84 },
        true,
        { error: '#DIV/0!' },
        { richText: [{ text: 'Big ' }, { text: 'deal', font: { bold: true } }] },
        { text: 'our site', hyperlink: 'https://example.com' },
      ],
      [
        'Bob',
        new Date(Date.UTC(2025, 2, 5, 14, 30)),
        1e21,
        { formula: 'NOW()' },
        false,
        { formula: '1/0', result: { error: '#DIV/0!' } },
        { formula: 'UPPER(A3)', result: 'BOB' },
        -0,
      ],
      [
        'Cid',
        formatted(45721, 'dd/mm/yyyy'),
        1.5e-7,
        formatted(0.5, 'h:mm'),
        formatted(0.25, '0.00%'),
        1234567.891,
        12345678901234567890,
        formatted(45721.75, 'yyyy-mm-dd hh:mm'),
      ],
    ]);
    expect(await readSpreadsheet(bytes, 'a.xlsx')).toEqual({
      columns: ['Text', 'Date', 'Number', 'Formula', 'Bool', 'Error', 'Rich', 'Link'],
      rows: [
        { row: 2, cells: ['Ann', '2025-03-05', '0.3', '84', 'TRUE', '#DIV/0!', 'Big deal', 'our site'] },
        { row: 3, cells: ['Bob', '2025-03-05T14:30', '1000000000000000000000', '', 'FALSE', '#DIV/0!', 'BOB', '0'] },
        { row: 4, cells: ['Cid', '2025-03-05', '0.00000015', '12:00', '0.25', '1234567.891', '12345678901234600000', '2025-03-05T18:00'] },
      ],
    });
  });

  it('reads only the first worksheet', async () => {
    const sheet = await readSpreadsheet(await xlsxFrom([['Name'], ['Ann']], { extraSheet: true }), 'a.xlsx');
    expect(sheet).toEqual({ columns: ['Name'], rows: [{ row: 2, cells: ['Ann'] }] });
  });

  it('reads hand-made sheets: workbook order, shared and inline rich text, escapes, cell types and formats', async () => {
    const sharedStringsXml = [
      '<si><t>Name</t></si>',
      '<si><t>Kanji</t></si>',
      '<si><r><t>Rich </t></r><r><rPr><b/></rPr><t xml:space="preserve">text</t></r></si>',
      '<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></si>',
      '<si><t>Line_x000D_\nbreak</t></si>',
    ].join('');
    const bytes = handXlsx({
      sharedStringsXml,
      numFmts: { 164: 'yyyy-mm-dd hh:mm', 165: '[h]:mm', 166: '"Day "0', 167: 'dd/mm/yyyy;@' },
      cellXfs: [0, 14, 164, 165, 166, 167, 10],
      sheetData: [
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>Inline</t></is></c>',
        '<c r="D1" t="inlineStr"><is><t>Builtin date</t></is></c><c r="E1" t="inlineStr"><is><t>Custom</t></is></c>',
        '<c r="F1" t="inlineStr"><is><t>Elapsed</t></is></c><c r="G1" t="inlineStr"><is><t>Quoted</t></is></c>',
        '<c r="H1" t="inlineStr"><is><t>Sections</t></is></c><c r="I1" t="inlineStr"><is><t>Percent</t></is></c></row>',
        '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="s"><v>3</v></c><c r="C2" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c>',
        '<c r="D2" s="1"><v>45721</v></c><c r="E2" s="2"><v>45721.5</v></c><c r="F2" s="3"><v>1.5</v></c>',
        '<c r="G2" s="4"><v>3</v></c><c r="H2" s="5"><v>45721</v></c><c r="I2" s="6"><v>0.125</v></c></row>',
        // No r attributes: cells and rows follow on.
        '<row><c t="s"><v>4</v></c><c t="b"><f>TRUE()</f><v>1</v></c><c t="e"><f>NA()</f><v>#N/A</v></c><c t="str"><f>A2&amp;"!"</f><v>Rich text!</v></c>',
        '<c t="d"><v>2025-03-05T00:00:00</v></c><c t="d"><v>2025-03-05T09:15:30</v></c><c><f>SUM(A1:A2)</f></c><c><v>  </v></c></row>',
      ].join(''),
    });
    expect(await readSpreadsheet(bytes, 'a.xlsx')).toEqual({
      columns: ['Name', 'Kanji', 'Inline', 'Builtin date', 'Custom', 'Elapsed', 'Quoted', 'Sections', 'Percent'],
      rows: [
        { row: 2, cells: ['Rich text', '東京', 'inline', '2025-03-05', '2025-03-05T12:00', '36:00', '3', '2025-03-05', '0.125'] },
        { row: 3, cells: ['Line\r\nbreak', 'TRUE', '#N/A', 'Rich text!', '2025-03-05', '2025-03-05T09:15:30', '', '', ''] },
      ],
    });
  });

  it('uses the 1904 date system when the workbook says so', async () => {
    const bytes = handXlsx({ date1904: true, cellXfs: [0, 14], sheetData: inlineRow(1, ['Date']) + '<row r="2"><c r="A2" s="1"><v>0</v></c></row>' });
    expect((await readSpreadsheet(bytes, 'a.xlsx')).rows).toEqual([{ row: 2, cells: ['1904-01-01'] }]);
  });

  it('refuses a DOCTYPE (entity expansion) as a damaged workbook', async () => {
    // Entities like these expand to a billion "lol"s in a parser that expands internal DTDs.
    const doctype = '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>';
    const entries = handXlsxEntries({ sheetData: '' }).map((e) =>
      e.name === 'xl/worksheets/sheet2.xml'
        ? {
            name: e.name,
            data: `<?xml version="1.0" encoding="UTF-8"?>${doctype}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${inlineRow(1, ['&lol2;'])}${inlineRow(2, ['x'])}</sheetData></worksheet>`,
          }
        : e,
    );
    await expectRefused(readSpreadsheet(zipFrom(entries), 'a.xlsx'), 400, 'bad_request', CORRUPT);
  });
});

describe('readSpreadsheet: hostile and broken workbooks', () => {
  it('refuses a zip bomb from its declared sizes, before inflating it', async () => {
    await expectRefused(
      readSpreadsheet(zipBombXlsx(), 'bomb.xlsx'),
      400,
      'bad_request',
      'The workbook unpacks to 2,048 MB, more than the 200 MB a spreadsheet upload may use (it may be a "zip bomb"). Remove images and unused sheets, or split the rows into smaller files.',
    );
  });

  it('refuses a workbook whose honest parts add up to more than the unpacked limit', async () => {
    // 210 MB of zeros declared honestly over several parts, each well within deflate's ratio.
    const entries = handXlsxEntries({ sheetData: inlineRow(1, ['Name']) + inlineRow(2, ['Ann']) });
    const parts = Array.from({ length: 21 }, (_, i) => ({
      name: `xl/media/part${i}.bin`,
      data: Buffer.alloc(0),
      deflated: Buffer.alloc(10 * 1024),
      declaredSize: 10 * 1024 * 1024,
      crc: 0,
    }));
    await expectRefused(
      readSpreadsheet(zipFrom([...entries, ...parts]), 'big.xlsx'),
      400,
      'bad_request',
      'The workbook unpacks to 210 MB, more than the 200 MB a spreadsheet upload may use (it may be a "zip bomb"). Remove images and unused sheets, or split the rows into smaller files.',
    );
  });

  it('refuses a part that inflates to more than it declares, while inflating it', async () => {
    await expectRefused(readSpreadsheet(lyingZipXlsx(), 'liar.xlsx'), 400, 'bad_request', MESSAGES.sizeMismatch);
  });

  it('refuses a workbook with an absurd number of parts', async () => {
    await expectRefused(
      readSpreadsheet(manyPartsXlsx(), 'parts.xlsx'),
      400,
      'bad_request',
      'The workbook has more than 10,000 parts, which is not a normal spreadsheet. Save the data in a new workbook and upload that.',
    );
  });

  it('refuses password-protected workbooks, .xlsx and .xls', async () => {
    await expectRefused(readSpreadsheet(passwordProtectedXlsx(), 'secret.xlsx'), 400, 'bad_request', PASSWORD);
    await expectRefused(readSpreadsheet(passwordProtectedXlsx(), 'secret.xls'), 400, 'bad_request', PASSWORD);
    await expectRefused(readSpreadsheet(passwordProtectedXls(), 'secret.xls'), 400, 'bad_request', PASSWORD);
  });

  it('refuses damaged workbooks', async () => {
    await expectRefused(readSpreadsheet(await truncatedXlsx(), 'cut.xlsx'), 400, 'bad_request', CORRUPT);
    await expectRefused(readSpreadsheet(malformedXmlXlsx(), 'bad.xlsx'), 400, 'bad_request', CORRUPT);
    await expectRefused(readSpreadsheet(corruptXls(), 'bad.xls'), 400, 'bad_request', CORRUPT);
  });

  it('stops reading a 1,000,000-row workbook as soon as the row limit is passed', async () => {
    const bytes = millionRowXlsx();
    expect(bytes.length).toBeLessThan(10 * 1024 * 1024);
    const stats = newStats();
    await expectRefused(
      readSpreadsheet(bytes, 'million.xlsx', { stats }),
      400,
      'bad_request',
      'The file has more than 50,000 data rows; the limit is 50,000 rows per upload. Split it into smaller files and upload them one by one.',
    );
    // The header, 50,000 rows and the one too many: nothing after it was parsed...
    expect(stats.rowsRead).toBe(50_002);
    // ...and little past it was even inflated (the sheet is about 64 MB of XML).
    expect(stats.bytesInflated).toBeLessThan(6 * 1024 * 1024);

    const small = newStats();
    await expectRefused(
      readSpreadsheet(bytes, 'million.xlsx', { maxRows: 10, stats: small }),
      400,
      'bad_request',
      'The file has more than 10 data rows; the limit is 10 rows per upload. Split it into smaller files and upload them one by one.',
    );
    expect(small.rowsRead).toBe(12);
    expect(small.bytesInflated).toBeLessThan(256 * 1024);
  });
});

describe('readSpreadsheet: .xls', () => {
  it('reads values, dates, booleans, errors and cached formula results', async () => {
    const sheet: XLSX.WorkSheet = {
      '!ref': 'A1:F4',
      A1: { t: 's', v: 'Name' },
      B1: { t: 's', v: 'Date' },
      C1: { t: 's', v: 'Amount' },
      D1: { t: 's', v: 'Flag' },
      E1: { t: 's', v: 'Error' },
      F1: { t: 's', v: 'Formula' },
      A2: { t: 's', v: 'Ann' },
      B2: { t: 'n', v: 45721, z: 'yyyy-mm-dd' },
      C2: { t: 'n', v: 0.1 + 0.2 },
      D2: { t: 'b', v: true },
      E2: { t: 'e', v: 0x07 },
      F2: { t: 'n', v: 42, f: 'C2*140' },
      A4: { t: 's', v: 'Bob' },
      B4: { t: 'n', v: 45721.5, z: 'm/d/yy h:mm' },
      C4: { t: 'n', v: 1e21 },
      D4: { t: 'b', v: false },
    };
    expect(await readSpreadsheet(xlsFromSheet(sheet), 'legacy.xls')).toEqual({
      columns: ['Name', 'Date', 'Amount', 'Flag', 'Error', 'Formula'],
      rows: [
        { row: 2, cells: ['Ann', '2025-03-05', '0.3', 'TRUE', '#DIV/0!', '42'] },
        { row: 4, cells: ['Bob', '2025-03-05T12:00', '1000000000000000000000', 'FALSE', '', ''] },
      ],
    });
  });
});
