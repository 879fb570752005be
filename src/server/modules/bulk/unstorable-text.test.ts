import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZBulkUpload } from '../../../contract/bulk.ts';
import type { TFormat, TFormatInput } from '../../../contract/formats.ts';
import { createTestApp, multipartBody, signUpOnPlan, TEST_ORIGIN, type TestClient, type TTestApp } from '../../test/test-app.ts';
import { readSpreadsheet } from './spreadsheet/read-spreadsheet.ts';
import { handXlsx, inlineRow, xlsFrom, xlsxFrom } from './test/fixtures.ts';

/*
 * Text a spreadsheet can hold but PostgreSQL cannot store (NUL in a UTF-16 CSV, the .xlsx escapes
 * `_x0000_` and `_xD800_`, NUL in the upload's name) was stored as it came and answered 500. It is
 * cleaned as the file is read: NUL dropped, an unpaired surrogate made U+FFFD, real text kept.
 */

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const FORMAT: TFormatInput = {
  name: 'Note',
  content: { elements: [{ id: '1', type: 'paragraph', content: '{{client_name}}: {{note}}' }] },
  placeholders: [
    { name: 'client_name', label: 'Client Name', type: 'text', required: true },
    { name: 'note', label: 'Note', type: 'text', required: false },
  ],
};

/** Text as Excel saves "Unicode Text" and some exporters save CSV: UTF-16LE after its byte order mark. */
const utf16Csv = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

async function upload(client: TestClient, formatId: string, fileName: string, bytes: Buffer) {
  const { payload, headers } = multipartBody('file', fileName, bytes);
  return t.app.inject({
    method: 'POST',
    url: `/api/formats/${formatId}/bulk`,
    payload,
    headers: { ...headers, cookie: client.cookieHeader, origin: TEST_ORIGIN },
  });
}

/** Uploads the file, then reads the draft back from the database as the browser does. */
async function storedDraft(fileName: string, bytes: Buffer) {
  const { client } = await signUpOnPlan(t, 'basic');
  const format = (await client.post('/api/formats', FORMAT)).json() as TFormat;
  const uploaded = await upload(client, format.id, fileName, bytes);
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const read = await client.get(`/api/bulk-jobs/${ZBulkUpload.parse(uploaded.json()).id}/draft`);
  expect(read.statusCode, read.body).toBe(200);
  const draft = ZBulkUpload.parse(read.json());
  return { ...draft, values: draft.preview.map((row) => row.values) };
}

describe('text no database can store, in an uploaded spreadsheet', () => {
  it('drops NUL from a UTF-16 CSV, in the header and the cells', async () => {
    const draft = await storedDraft('people.csv', utf16Csv('Client\u0000 Name,Note\r\nAnn\u0000 Lee,a\u0000b\r\n'));
    expect(draft.columns).toEqual(['Client Name', 'Note']);
    expect(draft.mapping).toEqual({ client_name: 0, note: 1 });
    expect(draft.values).toEqual([{ client_name: 'Ann Lee', note: 'ab' }]);
  });

  it('drops an .xlsx cell’s `_x0000_` and makes `_xD800_` U+FFFD, keeping an escaped surrogate pair', async () => {
    const bytes = await xlsxFrom([
      ['Client Name', 'Note'],
      ['Ann_x0000_ Lee', 'before_xD800_after'],
      ['Bob', '_xD83D__xDE00_'],
    ]);
    const draft = await storedDraft('people.xlsx', bytes);
    expect(draft.values).toEqual([
      { client_name: 'Ann Lee', note: 'before\uFFFDafter' },
      { client_name: 'Bob', note: '😀' },
    ]);
  });

  it('drops NUL from the file’s name', async () => {
    const draft = await storedDraft('peo\u0000ple.csv', Buffer.from('Client Name,Note\r\nAnn,hi\r\n'));
    expect(draft.fileName).toBe('people.csv');
    expect(draft.values).toEqual([{ client_name: 'Ann', note: 'hi' }]);
  });
});

describe('the spreadsheet reader', () => {
  it('cleans what every kind of file and every sheet holds', async () => {
    const xls = xlsFrom([
      ['Name', 'Note'],
      ['A\u0000nn', 'x\uDC00'],
    ]);
    expect((await readSpreadsheet(xls, 'a.xls')).rows[0]!.cells).toEqual(['Ann', 'x\uFFFD']);
    const hand = handXlsx({ sheetData: inlineRow(1, ['Name_x0000_', 'Note']) + inlineRow(2, ['_xDFFF_Ann', 'ok']) });
    const sheet = await readSpreadsheet(hand, 'a.xlsx');
    expect(sheet.columns).toEqual(['Name', 'Note']);
    expect(sheet.rows[0]!.cells).toEqual(['\uFFFDAnn', 'ok']);
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Data').addRows([['Name'], ['Ann']]);
    workbook.addWorksheet('Lines').addRows([['Item_x0000_'], ['Pen_xD800_']]);
    const withLines = await readSpreadsheet(Buffer.from(await workbook.xlsx.writeBuffer()), 'a.xlsx', { otherSheets: true });
    expect(withLines.others).toEqual([{ name: 'Lines', columns: ['Item'], rows: [{ row: 2, cells: ['Pen\uFFFD'] }] }]);
  });
});
