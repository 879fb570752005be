import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents.ts';
import type { TFormat } from '../../../contract/formats.ts';
import { formatSnapshots, workspaces } from '../../db/schema.ts';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app.ts';

/*
 * Documents say whether they are tagged PDF/UA and PDF/A (docs/accessible-pdf.md), and what their
 * format lacks, in the app's API and in v1; a document made from a format version saved before
 * tagging says it is neither, and prints as it did.
 */

let t: TTestApp;
let client: TestClient;
let apiKey = '';
const dir = mkdtempSync(path.join(tmpdir(), 'formwork-a11y-'));

function pdfinfo(pdf: Buffer): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdfinfo', [file], { encoding: 'utf8' });
}

async function formatWith(elements: unknown[]): Promise<TFormat> {
  const created = await client.post('/api/formats', { name: 'Accessible', content: { elements }, placeholders: [{ name: 'name', type: 'text' }] });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as TFormat;
}

beforeAll(async () => {
  t = await createTestApp();
  client = new TestClient(t.app);
  const { user } = await client.signUp();
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, user.id));
  apiKey = ((await client.post('/api/user/api-keys', { name: 'A11y' })).json() as { key: string }).key;
});
afterAll(async () => {
  await t.close();
});

describe('a document’s accessibility', () => {
  it('is PDF/UA and PDF/A for a format saved now with nothing missing, and its PDF is tagged', async () => {
    const format = await formatWith([
      { id: 'h', type: 'heading', content: 'Welcome, {{name}}', level: 1 },
      { id: 'p', type: 'paragraph', content: 'Glad to have you.' },
    ]);
    expect(format.content.accessible).toBe(true);
    const made = await client.post('/api/documents', { formatId: format.id, data: { name: 'Jane' } });
    expect(made.statusCode, made.body).toBe(201);
    const document = made.json() as TDocument;
    expect(document.accessibility).toEqual({ pdfua: true, pdfa: true, warnings: [] });
    expect((await client.get(`/api/documents/${document.id}`)).json()).toMatchObject({ accessibility: { pdfua: true, pdfa: true } });
    const pdf = await client.get(`/api/documents/${document.id}/download`);
    expect(pdfinfo(pdf.rawPayload)).toMatch(/^Tagged:\s+yes$/m);
  });

  it('names what the format lacks, in the app and through v1; an image without alternative text costs PDF/UA', async () => {
    const upload = await client.upload('/api/upload/image', 'image', 'dot.png', PNG_1X1, 'image/png');
    expect(upload.statusCode, upload.body).toBe(200);
    const src = (upload.json() as { url: string }).url;
    const format = await formatWith([
      { id: 'h', type: 'heading', content: 'Report', level: 2 },
      { id: 'img', type: 'image', src },
    ]);
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/v1/documents',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ formatId: format.id, data: { name: 'Jane' } }),
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id, accessibility } = made.json() as TDocument;
    expect(accessibility?.pdfua).toBe(false);
    expect(accessibility?.pdfa).toBe(true);
    expect(accessibility?.warnings.map((w) => [w.code, w.elementId])).toEqual([
      ['heading_level_skipped', 'h'],
      ['image_alt_missing', 'img'],
    ]);
    const read = await t.app.inject({ method: 'GET', url: `/api/v1/documents/${id}`, headers: { authorization: `Bearer ${apiKey}` } });
    expect((read.json() as TDocument).accessibility).toEqual(accessibility);
    // Lists stay lean: the flags are on one document.
    const listed = (await client.get('/api/documents')).json() as { documents?: TDocument[] } | TDocument[];
    const rows = Array.isArray(listed) ? listed : (listed.documents ?? []);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.accessibility === undefined)).toBe(true);
  });

  it('is neither where a character has no font and prints as .notdef, which both forbid', async () => {
    const format = await formatWith([{ id: 'p', type: 'paragraph', content: 'Lucky charm: {{name}}' }]);
    const made = await client.post('/api/documents', { formatId: format.id, data: { name: '\u{1F9FF}' } });
    expect(made.statusCode, made.body).toBe(201);
    const document = made.json() as TDocument & { warnings: { code: string }[] };
    expect(document.warnings.map((w) => w.code)).toContain('missing_glyphs');
    expect(document.accessibility).toEqual({ pdfua: false, pdfa: false, warnings: [] });
    expect((await client.get(`/api/documents/${document.id}`)).json()).toMatchObject({ accessibility: { pdfua: false, pdfa: false } });
    const v1 = await t.app.inject({ method: 'GET', url: `/api/v1/documents/${document.id}`, headers: { authorization: `Bearer ${apiKey}` } });
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.json()).toMatchObject({ accessibility: { pdfua: false, pdfa: false } });
  });

  it('is neither for a format version saved before documents were tagged, whose PDF stays untagged', async () => {
    const format = await formatWith([{ id: 'p', type: 'paragraph', content: 'Hello {{name}}' }]);
    const { accessible: _dropped, ...before } = format.content;
    await t.database.db.update(formatSnapshots).set({ content: before }).where(eq(formatSnapshots.formatId, format.id));
    const document = (await client.post('/api/documents', { formatId: format.id, data: { name: 'Jane' } })).json() as TDocument;
    expect(document.accessibility).toEqual({ pdfua: false, pdfa: false, warnings: [] });
    const pdf = await client.get(`/api/documents/${document.id}/download`);
    expect(pdfinfo(pdf.rawPayload)).toMatch(/^Tagged:\s+no$/m);
  });
});

/** A 1×1 PNG. */
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
