import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TFormat } from '../../../contract/formats.ts';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app.ts';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function formatWith(client: TestClient, placeholders: unknown[]) {
  const response = await client.post('/api/formats', { name: 'Offer / 2025', content: { elements: [] }, placeholders });
  expect(response.statusCode).toBe(201);
  return response.json() as TFormat;
}

describe('excel template', () => {
  it('has one column per placeholder: labels, a hidden row of names, required marks and dropdowns', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const format = await formatWith(client, [
      { name: 'client_name', required: true },
      { name: 'start date', type: 'date' },
      { name: 'team', type: 'select', required: true, options: ['Design', 'Engineering', 'People Ops'] },
    ]);
    const response = await client.get(`/api/formats/${format.id}/excel-template`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(String(response.headers['content-disposition'])).toContain('Offer 2025 - data template.xlsx');

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Data')!;
    expect([1, 2, 3].map((c) => sheet.getCell(1, c).value)).toEqual(['Client name *', 'Start date', 'Team *']);
    expect([1, 2, 3].map((c) => sheet.getCell(2, c).value)).toEqual(['client_name', 'start_date', 'team']);
    expect(sheet.getRow(2).hidden).toBe(true);

    const zip = await JSZip.loadAsync(response.rawPayload);
    const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    expect(xml).toMatch(/<dataValidation[^>]*type="list"[^>]*sqref="C3:C1003"/);
    expect(xml).toContain('Lists!$C$1:$C$3');
  });

  it('works for a format with no placeholders, and is 404 for someone else', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const format = await formatWith(client, []);
    const response = await client.get(`/api/formats/${format.id}/excel-template`);
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(String(workbook.getWorksheet('Data')!.getCell('A1').value)).toMatch(/no placeholders/);
    const other = new TestClient(t.app);
    await other.signUp();
    expect((await other.get(`/api/formats/${format.id}/excel-template`)).statusCode).toBe(404);
  });
});
