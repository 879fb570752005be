import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCreatedApiKey } from '../../../contract/api-keys.ts';
import type { TDocument } from '../../../contract/documents.ts';
import type { TFormat, TFormatInput } from '../../../contract/formats.ts';
import { STARTER_FORMATS } from '../../../contract/starter-formats.ts';
import { pdfPages, pdfText } from '../../../render/testdata/pdf-tools.ts';
import { errorOf, createTestApp, type TTestApp, signUpOnPlan, TestClient } from '../../test/test-app.ts';

/*
 * Lists, conditions, formulas and checkboxes through the app's API and the public API: arrays in
 * `data`, 400s that name the row and the column, formulas refused at save with where they fail,
 * questions that hidden sections only use, the expansion bound over a list's rows, and documents
 * that keep their snapshot and bytes.
 */

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const flat = (text: string) => text.replace(/\s+/g, ' ');

const starter = STARTER_FORMATS.find((s) => s.id === 'invoice')!;
const INVOICE: TFormatInput = { name: 'Invoice', content: starter.content, placeholders: starter.placeholders };

const FILLED = {
  business_name: 'Northwind Studio',
  business_address: '12 Harbour Road',
  invoice_number: 'INV-7',
  issue_date: '2026-03-02',
  due_date: '2026-04-01',
  client_name: 'Acme',
  tax_rate: 18,
  payment_terms: '30 days',
  payment_details: 'IBAN GB29 NWBK 6016 1331 9268 19',
};
const lines = (n: number, description = (i: number) => `Line ${i + 1}`) =>
  Array.from({ length: n }, (_, i) => ({ description: description(i), qty: (i % 3) + 1, unit_price: '0.10' }));

async function member(plan: 'basic' | 'enterprise' = 'basic') {
  const { client, user } = await signUpOnPlan(t, plan);
  const created = await client.post('/api/formats', INVOICE);
  expect(created.statusCode).toBe(201);
  return { client, userId: user.id, format: created.json() as TFormat };
}

describe('formats with logic', () => {
  it('save and read back a list, formulas, a checkbox and a condition', async () => {
    const { format } = await member();
    const items = format.placeholders.find((p) => p.name === 'items')!;
    expect(items).toMatchObject({
      type: 'list',
      required: true,
      columns: [{ name: 'description' }, { name: 'qty' }, { name: 'unit_price' }, { name: 'amount', type: 'formula', expression: 'qty * unit_price' }],
    });
    expect(format.content.elements.find((e) => e.id === 'inv-4')).toMatchObject({ repeat: { row: 1, list: 'items' } });
    expect(format.content.tagFormats).toBe(true);
  });

  it('refuse a formula that does not parse, or reads what does not exist, with where', async () => {
    const { client } = await member();
    const broken = await client.post('/api/formats', {
      ...INVOICE,
      placeholders: INVOICE.placeholders!.map((p) => (p.name === 'tax' ? { ...p, expression: 'round(subtotal * * 0.18, 2)' } : p)),
    });
    expect(broken.statusCode).toBe(400);
    const index = INVOICE.placeholders!.findIndex((p) => p.name === 'tax');
    expect(errorOf(broken).fields).toEqual({ [`placeholders.${index}.expression`]: 'tax: Unexpected "*". (at character 18)' });
    const unknown = await client.post('/api/formats', {
      ...INVOICE,
      placeholders: INVOICE.placeholders!.map((p) => (p.name === 'total' ? { ...p, expression: 'subtotal + vat' } : p)),
    });
    expect(errorOf(unknown).fields).toEqual({
      [`placeholders.${INVOICE.placeholders!.findIndex((p) => p.name === 'total')}.expression`]:
        'total: Unknown name vat (at character 12). Use the name of a placeholder.',
    });
  });
});

describe('documents with lists', () => {
  it('take rows in data, compute each line and the totals, and print every line', async () => {
    const { client, format } = await member();
    const created = await client.post('/api/documents', { formatId: format.id, data: { ...FILLED, items: lines(40) } });
    expect(created.statusCode).toBe(201);
    const doc = created.json() as TDocument;
    const rows = doc.data.items as Record<string, string>[];
    expect(rows).toHaveLength(40);
    expect(rows[1]).toEqual({ description: 'Line 2', qty: '2', unit_price: '0.10', amount: '0.2' });
    // 40 lines of 0.10 × (1, 2, 3, …) = 0.10 × 79 = 7.90; 18% is 1.422, so 1.42; total 9.32.
    expect([doc.data.subtotal, doc.data.tax, doc.data.total]).toEqual(['7.9', '1.42', '9.32']);
    const pdf = (await client.get(`/api/documents/${doc.id}/download`)).rawPayload;
    const text = flat(pdfText(pdf));
    for (let i = 1; i <= 40; i++) expect(text).toContain(`Line ${i} `);
    expect(text).toContain('Subtotal $7.90 Tax (18%) $1.42 Total due $9.32');
  });

  it('answer 400 naming the row and the column of a bad cell', async () => {
    const { client, format } = await member();
    const rows = lines(5);
    rows[3] = { ...rows[3]!, qty: 'three' as unknown as number };
    const refused = await client.post('/api/documents', { formatId: format.id, data: { ...FILLED, items: rows } });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toEqual({
      code: 'validation_failed',
      message: 'Please correct the highlighted fields. items[3].qty: Enter a number.',
      fields: { 'items[3].qty': 'Enter a number.' },
    });
    const none = await client.post('/api/documents', { formatId: format.id, data: { ...FILLED, items: [] } });
    expect(errorOf(none)).toMatchObject({ message: 'Please fill in all required fields: Line items', fields: { items: 'Add at least one row.' } });
    const notRows = await client.post('/api/documents', { formatId: format.id, data: { ...FILLED, items: [['a', 1]] } });
    expect(notRows.statusCode).toBe(400);
  });

  it('refuse more rows than a list may hold, and rows whose text exceeds the expansion bound', async () => {
    const { client, format } = await member();
    const tooMany = await client.post('/api/documents', { formatId: format.id, data: { ...FILLED, items: lines(1001) } });
    expect(tooMany.statusCode).toBe(400);
    expect(errorOf(tooMany).fields?.items).toBe('A list may hold at most 1,000 rows.');
    // Each line's description printed four times: well under the body limit, well over the bound once repeated.
    const echo = (
      await client.post('/api/formats', {
        ...INVOICE,
        name: 'Echo',
        content: {
          ...INVOICE.content,
          elements: INVOICE.content.elements!.map((e) =>
            e.id === 'inv-4' && e.type === 'table'
              ? { ...e, rows: e.rows!.map((row, r) => (r === 1 ? ['{{description}} {{description}} {{description}} {{description}}', '', '', ''] : row)) }
              : e,
          ),
        },
      })
    ).json() as TFormat;
    const long = await client.post('/api/documents', {
      formatId: echo.id,
      data: { ...FILLED, items: lines(1000, (i) => `${i} ${'x'.repeat(600)}`) },
    });
    expect(long.statusCode).toBe(422);
    expect(errorOf(long)).toMatchObject({ code: 'document_too_large', message: expect.stringContaining('Most of it comes from the 1,000 rows of {{items}}') });
  });

  it('refuse a formula that cannot be computed from the data, naming it', async () => {
    const { client } = await member();
    const format = (
      await client.post('/api/formats', {
        name: 'Unit cost',
        content: { elements: [{ id: 'p', type: 'paragraph', content: '{{each | currency}}' }] },
        placeholders: [
          { name: 'total', type: 'number' },
          { name: 'people', type: 'number' },
          { name: 'each', type: 'formula', expression: 'total / people' },
        ],
      })
    ).json() as TFormat;
    const refused = await client.post('/api/documents', { formatId: format.id, data: { total: 10, people: 0 } });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).fields).toEqual({ each: 'The formula divides by zero.' });
    const made = await client.post('/api/documents', { formatId: format.id, data: { total: 10, people: 3 } });
    expect((made.json() as TDocument).data.each).toBe('3.333333333333333333333333333333333');
  });
});

describe('conditions', () => {
  it('leave hidden questions unasked and a reverse-charge note out, and print it when ticked', async () => {
    const { client } = await member();
    const format = (
      await client.post('/api/formats', {
        name: 'Plans',
        content: {
          elements: [
            { id: 'a', type: 'paragraph', content: 'Plan {{plan}}.' },
            {
              id: 's',
              type: 'section',
              title: 'Premium',
              showIf: { match: 'all', conditions: [{ field: 'plan', op: 'equals', value: 'Premium' }] },
              elements: [{ id: 's1', type: 'paragraph', content: 'Account manager: {{manager}}.' }],
            },
            { id: 'z', type: 'paragraph', content: 'Done{{vip}}' },
          ],
        },
        placeholders: [
          { name: 'plan', type: 'select', options: ['Basic', 'Premium'], required: true },
          { name: 'manager', type: 'text', required: true },
          { name: 'vip', type: 'checkbox', checkedText: ' (VIP)', uncheckedText: '.' },
        ],
      })
    ).json() as TFormat;
    const basic = await client.post('/api/documents', { formatId: format.id, data: { plan: 'Basic' } });
    expect(basic.statusCode).toBe(201);
    expect(flat(pdfText((await client.get(`/api/documents/${(basic.json() as TDocument).id}/download`)).rawPayload)).trim()).toBe('Plan Basic. Done.');
    const premium = await client.post('/api/documents', { formatId: format.id, data: { plan: 'Premium' } });
    expect(errorOf(premium)).toMatchObject({ message: 'Please fill in all required fields: Manager' });
    const shown = await client.post('/api/documents', { formatId: format.id, data: { plan: 'Premium', manager: 'Ravi', vip: true } });
    expect(flat(pdfText((await client.get(`/api/documents/${(shown.json() as TDocument).id}/download`)).rawPayload)).trim()).toBe(
      'Plan Premium. Account manager: Ravi. Done (VIP)',
    );
  });
});

describe('previews', () => {
  it('fill an empty list with three sample rows and compute formulas from them; the form’s preview shows the rows typed', async () => {
    const { client, format } = await member();
    const builder = await client.post('/api/formats/preview', INVOICE);
    expect(builder.statusCode).toBe(200);
    const sample = flat(pdfText(builder.rawPayload));
    // Sample quantities and prices are 1, 2, 3: lines of $1, $4 and $9.
    expect(sample).toContain('[Description 1] 1 $1.00 $1.00 [Description 2] 2 $2.00 $4.00 [Description 3] 3 $3.00 $9.00');
    expect(sample).toContain('Subtotal $14.00');
    expect(sample).toContain('Reverse charge');
    const typed = await client.post(`/api/formats/${format.id}/preview`, {
      data: { tax_rate: '10', items: [{ description: 'Typed line', qty: '2', unit_price: '5' }] },
    });
    const filled = flat(pdfText(typed.rawPayload));
    expect(filled).toContain('Typed line 2 $5.00 $10.00 Subtotal $10.00 Tax (10%) $1.00 Total due $11.00');
    expect(filled).toContain('[Your business name]');
    expect(filled).not.toContain('Reverse charge');
  });
});

describe('documents keep their snapshot', () => {
  it('re-render byte-identical after the format’s lists, formulas and conditions change, and with no cached PDF', async () => {
    const { client, format } = await member();
    const doc = (await client.post('/api/documents', { formatId: format.id, data: { ...FILLED, items: lines(30) } })).json() as TDocument;
    const first = (await client.get(`/api/documents/${doc.id}/download`)).rawPayload;
    expect(sha(first)).toBe(doc.pdfSha256);
    const changed = await client.request('PUT', `/api/formats/${format.id}`, {
      ...INVOICE,
      placeholders: INVOICE.placeholders!.map((p) => (p.name === 'tax' ? { ...p, expression: 'round(subtotal * 0.2, 2)' } : p)),
      content: { ...INVOICE.content, elements: INVOICE.content.elements!.filter((e) => e.id !== 'inv-4') },
    });
    expect(changed.statusCode).toBe(200);
    // A new process, with the cache's files gone too: nothing is left but the snapshot and the data.
    rmSync(path.join(t.config.dataDir, 'pdf-cache'), { recursive: true, force: true });
    const cookie = client.cookieHeader;
    await t.restart();
    const again = (await new TestClient(t.app).get(`/api/documents/${doc.id}/download`, { cookie })).rawPayload;
    expect(sha(again)).toBe(doc.pdfSha256);
    expect(pdfPages(again).length).toBe(pdfPages(first).length);
  });
});

describe('the public API', () => {
  it('takes arrays in data and describes a list’s columns', async () => {
    const { client, format } = await member('enterprise');
    const key = ZCreatedApiKey.parse((await client.post('/api/user/api-keys', { name: 'Server', mode: 'live' })).json()).key;
    const call = (method: string, url: string, body?: unknown) =>
      t.app.inject({
        method: method as 'POST',
        url,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
    const described = (await call('GET', `/api/v1/formats/${format.id}`)).json() as { placeholders: { name: string; columns?: { name: string }[] }[] };
    expect(described.placeholders.find((p) => p.name === 'items')?.columns?.map((c) => c.name)).toEqual(['description', 'qty', 'unit_price', 'amount']);
    const made = await call('POST', '/api/v1/documents', { formatId: format.id, data: { ...FILLED, items: lines(3) } });
    expect(made.statusCode).toBe(201);
    expect((made.json() as TDocument).data.total).toBe('0.71');
    const rows = lines(4);
    rows[2] = { ...rows[2]!, description: '' };
    const refused = await call('POST', '/api/v1/documents', { formatId: format.id, data: { ...FILLED, items: rows } });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).fields).toEqual({ 'items[2].description': 'This field is required.' });
  });
});
