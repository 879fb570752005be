import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZBulkJob, ZBulkUpload, type TBulkJob } from '../../../contract/bulk.ts';
import type { TDocument } from '../../../contract/documents.ts';
import type { TFormat } from '../../../contract/formats.ts';
import { STARTER_FORMATS } from '../../../contract/starter-formats.ts';
import { workspaces } from '../../db/schema.ts';
import { errorOf, createTestApp, TestClient, type TTestApp } from '../../test/test-app.ts';

/*
 * Invoices with line items from a spreadsheet: the Excel template's lines sheet keyed by a
 * document key, and a CSV that repeats the key on one row per line. Each document gets its own
 * lines, and lines that fit no document are refused.
 */

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp({ RENDER_THREADS: '2' });
});
afterAll(async () => {
  await t.close();
});

const tmp = mkdtempSync(path.join(os.tmpdir(), 'formwork-lines-'));
function pdfText(bytes: Buffer): string {
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}
const finished = (job: TBulkJob) => ['completed', 'cancelled', 'failed'].includes(job.status);

async function waitForJob(client: TestClient, id: string): Promise<TBulkJob> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = ZBulkJob.parse((await client.get(`/api/bulk-jobs/${id}`)).json());
    if (finished(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} did not finish: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const starter = STARTER_FORMATS.find((s) => s.id === 'invoice')!;

async function invoiceFormat() {
  const client = new TestClient(t.app);
  const { user } = await client.signUp();
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'basic' }).where(eq(workspaces.id, user.id));
  const created = await client.post('/api/formats', { name: 'Invoice', content: starter.content, placeholders: starter.placeholders });
  expect(created.statusCode).toBe(201);
  return { client, format: created.json() as TFormat };
}

/** The values of a document's fields by the template's header labels (without the * of required ones). */
function documentRow(i: number): Record<string, string | Date> {
  return {
    'Document key': `INV-${i}`,
    'Your business name': 'Northwind Studio',
    'Your business address': '12 Harbour Road',
    'Invoice number': `INV-${1000 + i}`,
    'Issue date': new Date(Date.UTC(2026, 2, i)),
    'Due date': new Date(Date.UTC(2026, 3, i)),
    'Client name': `Client ${i}`,
    'Tax rate (%)': '10',
    'Payment terms': '30 days',
    'Bank or payment details': 'IBAN GB29 NWBK 6016 1331 9268 19',
  };
}

/** Fills the sheet's rows under its header (row 1) and hidden name row (row 2), by header label. */
function fill(sheet: ExcelJS.Worksheet, rows: Record<string, string | number | Date>[]) {
  const columns = new Map<string, number>();
  sheet.getRow(1).eachCell((cell, col) => columns.set(String(cell.value).replace(/ \*$/, ''), col));
  rows.forEach((row, r) => {
    for (const [label, value] of Object.entries(row)) {
      const col = columns.get(label);
      if (!col) throw new Error(`no column "${label}" on ${sheet.name}: ${[...columns.keys()].join(', ')}`);
      sheet.getCell(3 + r, col).value = value;
    }
  });
}

describe('spreadsheets with lines', () => {
  it('the Excel template has a keyed lines sheet and says how to fill both layouts', async () => {
    const { client, format } = await invoiceFormat();
    const response = await client.get(`/api/formats/${format.id}/excel-template`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => `${s.name}${s.state === 'visible' ? '' : ` (${s.state})`}`)).toEqual([
      'Data',
      'Line items',
      'How to fill',
      'Lists (hidden)',
    ]);
    const data = book.getWorksheet('Data')!;
    expect(data.getRow(1).getCell(1).value).toBe('Document key');
    expect(data.getRow(2).getCell(1).value).toBe('document_key');
    const header = (data.getRow(1).values as unknown[]).slice(1).map(String);
    // Formulas are computed and lists have their own sheet: neither is a column of the Data sheet.
    for (const computed of ['Subtotal', 'Tax', 'Total', 'Line items']) expect(header).not.toContain(computed);
    const lines = book.getWorksheet('Line items')!;
    expect((lines.getRow(1).values as unknown[]).slice(1)).toEqual(['Document key', 'Description *', 'Qty *', 'Unit price *']);
    expect((lines.getRow(2).values as unknown[]).slice(1)).toEqual(['document_key', 'description', 'qty', 'unit_price']);
    const help = (book.getWorksheet('How to fill')!.getColumn(1).values as unknown[]).filter(Boolean).join('\n');
    expect(help).toContain('On the "Line items" sheet, write one row per line of Line items, with the Document key of its document');
    expect(help).toContain('repeat the Document key on one row per line');
    expect(help).toContain('"items.description"');
    expect(help).toContain('Computed values (Amount, Subtotal, Tax, Total) have no column');
  });

  it('makes 10 invoices from one workbook, sheet 1 for invoices and sheet 2 for lines, each PDF with its own lines', async () => {
    const { client, format } = await invoiceFormat();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await client.get(`/api/formats/${format.id}/excel-template`)).rawPayload as unknown as ArrayBuffer);
    fill(
      book.getWorksheet('Data')!,
      Array.from({ length: 10 }, (_, i) => documentRow(i + 1)),
    );
    // Invoice i has i lines, written interleaved so that order on the sheet is not order by document.
    const lineRows: Record<string, string | number>[] = [];
    for (let j = 1; j <= 10; j++) {
      for (let i = j; i <= 10; i++) lineRows.push({ 'Document key': `INV-${i}`, Description: `Invoice ${i} line ${j}`, Qty: j, 'Unit price': '0.10' });
    }
    fill(book.getWorksheet('Line items')!, lineRows);
    const bytes = Buffer.from(await book.xlsx.writeBuffer());

    const uploaded = await client.upload(`/api/formats/${format.id}/bulk`, 'file', 'invoices.xlsx', bytes);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const draft = ZBulkUpload.parse(uploaded.json());
    expect(draft).toMatchObject({ totalRows: 10, validRows: 10, invalidRows: 0, lists: [{ name: 'items', label: 'Line items', lines: 55, documents: 10 }] });
    expect(draft.unmappedPlaceholders).toEqual([]);
    expect(draft.unusedColumns).toEqual([]);
    expect((draft.preview[2]!.values.items as unknown[]).length).toBe(3);

    expect((await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false })).statusCode).toBe(202);
    expect(await waitForJob(client, draft.id)).toMatchObject({ status: 'completed', done: 10 });
    const docs = (await client.get(`/api/documents?batchId=${draft.id}`)).json() as TDocument[];
    expect(docs).toHaveLength(10);
    for (const doc of docs) {
      const i = Number(/Client (\d+)/.exec(doc.clientName)?.[1]);
      const text = pdfText((await client.get(`/api/documents/${doc.id}/download`)).rawPayload);
      for (let j = 1; j <= 10; j++) {
        if (j <= i) expect(text).toContain(`Invoice ${i} line ${j} `);
        else expect(text).not.toContain(`line ${j} `);
      }
      for (let other = 1; other <= 10; other++) if (other !== i) expect(text).not.toContain(`Invoice ${other} line`);
      // Lines j = 1..i at j × 0.10: 0.10 × i(i+1)/2, plus 10% tax, to the cent.
      const cents = (10 * i * (i + 1)) / 2;
      const tax = Math.round(cents / 10);
      const dollars = (c: number) => `$${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
      expect(text).toContain(`Subtotal ${dollars(cents)} Tax (10%) ${dollars(tax)} Total due ${dollars(cents + tax)}`);
    }
  });

  it('takes a CSV that repeats the document key on one row per line', async () => {
    const { client, format } = await invoiceFormat();
    const head = [
      'Document key',
      'Client name',
      'Invoice number',
      'Issue date',
      'Due date',
      'Your business name',
      'Your business address',
      'Tax rate (%)',
      'Payment terms',
      'Bank or payment details',
      'items.description',
      'items.qty',
      'Line items: Unit price',
    ];
    const doc = (key: string, client: string) => [key, client, `N-${key}`, '2026-03-02', '2026-04-01', 'Northwind', 'Harbour Road', '20', '14 days', 'IBAN 1'];
    const blank = (key: string) => [key, '', '', '', '', '', '', '', '', ''];
    const rows = [
      head,
      [...doc('A', 'Ann'), 'Design', '2', '50'],
      [...blank('A'), 'Hosting', '1', '9.99'],
      [...doc('B', 'Bo'), 'Audit', '1', '300'],
      [...blank('A'), 'Domain', '1', '0.01'],
    ];
    const csv = Buffer.from(rows.map((r) => r.join(',')).join('\n'));
    const uploaded = await client.upload(`/api/formats/${format.id}/bulk`, 'file', 'invoices.csv', csv, 'text/csv');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const draft = ZBulkUpload.parse(uploaded.json());
    expect(draft).toMatchObject({ totalRows: 2, validRows: 2, lists: [{ name: 'items', lines: 4, documents: 2 }] });
    expect(draft.unusedColumns).toEqual([]);
    expect(draft.preview[0]!.values.items).toEqual([
      { description: 'Design', qty: '2', unit_price: '50', amount: '100' },
      { description: 'Hosting', qty: '1', unit_price: '9.99', amount: '9.99' },
      { description: 'Domain', qty: '1', unit_price: '0.01', amount: '0.01' },
    ]);
    expect(draft.preview[0]!.values.total).toBe('132');
  });

  it('names the line and column of a bad cell on its document’s row, and refuses lines that fit no document', async () => {
    const { client, format } = await invoiceFormat();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await client.get(`/api/formats/${format.id}/excel-template`)).rawPayload as unknown as ArrayBuffer);
    fill(book.getWorksheet('Data')!, [documentRow(1), documentRow(2)]);
    fill(book.getWorksheet('Line items')!, [
      { 'Document key': 'INV-1', Description: 'Fine', Qty: 1, 'Unit price': '1' },
      { 'Document key': 'INV-2', Description: 'Fine', Qty: 1, 'Unit price': '1' },
      { 'Document key': 'INV-2', Description: 'Bad', Qty: 'lots', 'Unit price': '1' },
    ]);
    const uploaded = await client.upload(`/api/formats/${format.id}/bulk`, 'file', 'bad.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
    const draft = ZBulkUpload.parse(uploaded.json());
    expect(draft).toMatchObject({ validRows: 1, invalidRows: 1 });
    expect(draft.preview[1]!.errors).toEqual({ items: 'Line 2, Qty: Enter a number.' });

    fill(book.getWorksheet('Line items')!, [
      { 'Document key': 'INV-1', Description: 'Fine', Qty: 1, 'Unit price': '1' },
      { 'Document key': 'INV-9', Description: 'Lost', Qty: 1, 'Unit price': '1' },
      { 'Document key': 'INV-2', Description: 'Fine', Qty: 1, 'Unit price': '1' },
    ]);
    const orphan = await client.upload(`/api/formats/${format.id}/bulk`, 'file', 'orphan.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
    expect(orphan.statusCode).toBe(400);
    expect(errorOf(orphan).message).toBe(
      'A line on the "Line items" sheet has a Document key that no row of the first sheet has (column A): row 4 ("INV-9"). Fix the keys and upload the file again.',
    );
  });
});
