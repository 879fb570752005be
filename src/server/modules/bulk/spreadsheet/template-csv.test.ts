import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZBulkUpload } from '../../../../contract/bulk.ts';
import { exampleData } from '../../../../contract/example-data.ts';
import type { TFormat } from '../../../../contract/formats.ts';
import { STARTER_FORMATS } from '../../../../contract/starter-formats/index.ts';
import { createTestApp, signUpOnPlan, type TestClient, type TTestApp } from '../../../test/test-app.ts';
import { TEMPLATE_FIRST_DATA_ROW, TEMPLATE_NAME_ROW } from '../../formats/index.ts';

/*
 * The Excel template saved as CSV, as Excel saves it: the Data sheet only, its hidden row of
 * placeholder names written out as an ordinary second row. That file uploads as it is.
 */

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'silent' });
});
afterAll(async () => {
  await t.close();
});

const offer = STARTER_FORMATS.find((s) => s.id === 'offer-letter')!;

async function withStarterFormat(): Promise<{ client: TestClient; format: TFormat }> {
  const { client } = await signUpOnPlan(t, 'basic');
  const created = await client.post('/api/formats', { name: offer.name, content: offer.content, placeholders: offer.placeholders });
  expect(created.statusCode).toBe(201);
  return { client, format: created.json() as TFormat };
}

/** The server's own template for the format, two documents' rows filled in, saved as CSV by the repository's xlsx library. */
async function templateAsCsv(client: TestClient, format: TFormat, names: string[]): Promise<Buffer> {
  const template = await client.get(`/api/formats/${format.id}/excel-template`);
  expect(template.statusCode).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
  // The data sheet comes first, the one Excel saves as CSV when the file is opened and saved.
  const sheet = workbook.worksheets[0]!;
  expect(sheet.getRow(TEMPLATE_NAME_ROW).hidden).toBe(true);
  const example = exampleData(format.placeholders);
  names.forEach((name, i) => {
    const row = sheet.getRow(TEMPLATE_FIRST_DATA_ROW + i);
    sheet.getRow(TEMPLATE_NAME_ROW).eachCell((cell, col) => {
      const key = String(cell.value);
      const value = key === 'candidate_name' ? name : example[key];
      if (value !== undefined && !Array.isArray(value)) row.getCell(col).value = value;
    });
  });
  return Buffer.from(await workbook.csv.writeBuffer({ sheetId: sheet.id }));
}

describe('the Excel template saved as CSV', () => {
  it('uploads with every column matched and no row in error, its name row skipped', async () => {
    const { client, format } = await withStarterFormat();
    const bytes = await templateAsCsv(client, format, ['Jane Doe', 'Ravi Patel']);
    const text = bytes.toString('utf8').split(/\r?\n/);
    // The labels (required ones starred), then the names as a visible row: what made it fail before.
    expect(text[0]).toContain('Hiring manager *');
    expect(text[1]).toContain('manager_name');

    const response = await client.upload(`/api/formats/${format.id}/bulk`, 'file', 'offer letters.csv', bytes, 'text/csv');
    expect(response.statusCode).toBe(201);
    const upload = ZBulkUpload.parse(response.json());
    expect(upload.unmappedPlaceholders).toEqual([]);
    expect({ total: upload.totalRows, valid: upload.validRows, invalid: upload.invalidRows }).toEqual({ total: 2, valid: 2, invalid: 0 });
    expect(upload.preview.map((r) => [r.row, r.errors])).toEqual([
      [3, {}],
      [4, {}],
    ]);
    expect(upload.preview[1]!.values['candidate_name']).toBe('Ravi Patel');
  });
});
