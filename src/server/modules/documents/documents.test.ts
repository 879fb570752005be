import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../../../render/testdata/pdf-tools.ts';
import type { TFormat, TFormatInput } from '../../../contract/formats.ts';
import type { TDocument } from '../../../contract/documents.ts';
import { usageCounters } from '../../db/schema.ts';
import { errorOf, createTestApp, TestClient, type TTestApp, signUpOnPlan } from '../../test/test-app.ts';
import { eq } from 'drizzle-orm';
import { usagePeriod } from '../workspaces/index.ts';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' });
});
afterAll(async () => {
  await t.close();
});

const offerLetter: TFormatInput = {
  name: 'Offer letter',
  description: 'Standard offer',
  content: {
    elements: [
      { id: '1', type: 'heading', content: 'Offer for {{Client Name}}', fontSize: 'text-2xl' },
      { id: '2', type: 'paragraph', content: 'Start date: {{start_date}}. Salary: {{salary}}. Team: {{team}}.' },
    ],
  },
  placeholders: [
    { name: 'Client Name', type: 'text', required: true },
    { name: 'start_date', type: 'date', required: false },
    { name: 'salary', type: 'number', required: false },
    { name: 'email', type: 'email', required: false },
    { name: 'team', type: 'select', required: true, options: ['Design', 'Engineering', ''] },
  ],
};

async function userWithFormat(plan: 'free' | 'basic' = 'basic') {
  const { client, user } = await signUpOnPlan(t, plan);
  const created = await client.post('/api/formats', offerLetter);
  expect(created.statusCode).toBe(201);
  return { client, user, format: created.json() as TFormat };
}

describe('formats', () => {
  it('normalises placeholder names, drops blank options and bumps the version on save', async () => {
    const { client, format } = await userWithFormat();
    expect(format.placeholders.map((p) => p.name)).toEqual(['client_name', 'start_date', 'salary', 'email', 'team']);
    expect(format.placeholders[4]!.options).toEqual(['Design', 'Engineering']);
    expect(format.version).toBe(1);
    const updated = await client.request('PUT', `/api/formats/${format.id}`, { ...offerLetter, name: 'Offer v2' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Offer v2', version: 2 });
    const list = (await client.get('/api/formats')).json() as TFormat[];
    expect(list.map((f) => f.name)).toEqual(['Offer v2']);
  });

  it('refuses a blank name, bad content and duplicate placeholder names', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const blank = await client.post('/api/formats', { ...offerLetter, name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(errorOf(blank).fields?.name).toBe('Please enter a format name.');
    const badContent = await client.post('/api/formats', { ...offerLetter, content: { elements: [{ type: 'video' }] } });
    expect(badContent.statusCode).toBe(400);
    const dup = await client.post('/api/formats', {
      ...offerLetter,
      placeholders: [{ name: 'Client Name' }, { name: 'client_name' }],
    });
    expect(dup.statusCode).toBe(400);
    expect(errorOf(dup).message).toMatch(/unique/);
  });

  it("refuses a free user's second format with 403 naming the plan and the limit", async () => {
    const { client } = await userWithFormat('free');
    const second = await client.post('/api/formats', offerLetter);
    expect(second.statusCode).toBe(403);
    expect(errorOf(second)).toMatchObject({ code: 'plan_limit' });
    expect(errorOf(second).message).toMatch(/Free plan includes 1 format/);
  });

  it('previews the format as a PDF with [Label] in place of each placeholder', async () => {
    const { client, format } = await userWithFormat();
    const preview = await client.get(`/api/formats/${format.id}/preview`);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('application/pdf');
    expect(String(preview.headers['content-disposition'])).toMatch(/^inline/);
    const text = pdfText(preview.rawPayload, { layout: true });
    expect(text).toContain('Offer for [Client name]');
    expect(text).toContain('Team: [Team]');
  });

  it('previews the form as filled so far: typed values printed by type, the rest as [Label]; nothing stored or counted', async () => {
    const { client, user, format } = await userWithFormat();
    const response = await client.post(`/api/formats/${format.id}/preview`, {
      data: { client_name: 'Ada Lovelace', start_date: '2026-03-01', salary: '85000', team: '  ' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const text = pdfText(response.rawPayload, { layout: true }).replace(/\s+/g, ' ');
    expect(text).toContain('Offer for Ada Lovelace');
    expect(text).toContain('Start date: March 1, 2026. Salary: 85,000. Team: [Team].');
    expect((await client.get('/api/documents')).json()).toEqual([]);
    const [usage] = await t.database.db.select().from(usageCounters).where(eq(usageCounters.ownerId, user.id));
    expect(usage?.generations ?? 0).toBe(0);
    // Bad input is refused, and another user's format is not found.
    expect((await client.post(`/api/formats/${format.id}/preview`, { data: 'x' })).statusCode).toBe(400);
    const stranger = new TestClient(t.app);
    await stranger.signUp();
    expect((await stranger.post(`/api/formats/${format.id}/preview`, { data: {} })).statusCode).toBe(404);
  });

  it('previews unsaved content without storing anything', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const response = await client.post('/api/formats/preview', { ...offerLetter, name: 'Draft' });
    expect(response.statusCode).toBe(200);
    expect(pdfText(response.rawPayload, { layout: true })).toContain('Offer for [Client name]');
    expect((await client.get('/api/formats')).json()).toEqual([]);
    expect((await client.post('/api/formats/preview', { ...offerLetter, name: '' })).statusCode).toBe(400);
  });
});

describe('documents', () => {
  it('validates data by placeholder type and lists missing required fields by label', async () => {
    const { client, format } = await userWithFormat();
    const missing = await client.post('/api/documents', { formatId: format.id, data: { salary: '10' } });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).message).toBe('Please fill in all required fields: Client name, Team');
    const invalid = await client.post('/api/documents', {
      formatId: format.id,
      data: { client_name: 'Ann', team: 'Sales', email: 'nope', salary: 'lots', start_date: '2025-02-30' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(errorOf(invalid).fields ?? {}).sort()).toEqual(['email', 'salary', 'start_date', 'team']);
    const unknownFormat = await client.post('/api/documents', { formatId: 'nope', data: {} });
    expect(unknownFormat.statusCode).toBe(404);
    expect(errorOf(unknownFormat).message).toBe('Format not found.');
  });

  it('generates a PDF with the values substituted and formatted, re-downloads identical bytes', async () => {
    const { client, format } = await userWithFormat();
    const created = await client.post('/api/documents', {
      formatId: format.id,
      data: { client_name: 'Zoë Müller', team: 'Design', salary: '1234567.5', start_date: '2025-03-05' },
    });
    expect(created.statusCode).toBe(201);
    const doc = created.json() as TDocument;
    expect(doc).toMatchObject({ clientName: 'Zoë Müller', formatName: 'Offer letter', status: 'generated' });
    const first = await client.get(`/api/documents/${doc.id}/download`);
    expect(first.statusCode).toBe(200);
    expect(String(first.headers['content-disposition'])).toMatch(/^attachment; filename="Offer letter - Zoë Müller - \d{4}-\d\d-\d\d\.pdf"/);
    const text = pdfText(first.rawPayload, { layout: true });
    expect(text).toContain('Offer for Zoë Müller');
    expect(text).toContain('Salary: 1,234,567.5');
    expect(text).toContain('March 5, 2025');
    const second = await client.get(`/api/documents/${doc.id}/preview`);
    expect(Buffer.compare(first.rawPayload, second.rawPayload)).toBe(0);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(first.rawPayload).digest('hex')).toBe(doc.pdfSha256);
  });

  it('keeps documents unchanged after their format is edited or deleted', async () => {
    const { client, format } = await userWithFormat();
    const doc = (await client.post('/api/documents', { formatId: format.id, data: { client_name: 'Ann', team: 'Design' } })).json() as TDocument;
    const before = (await client.get(`/api/documents/${doc.id}/download`)).rawPayload;
    await client.request('PUT', `/api/formats/${format.id}`, {
      ...offerLetter,
      content: { elements: [{ id: '9', type: 'paragraph', content: 'Changed' }] },
    });
    expect(Buffer.compare((await client.get(`/api/documents/${doc.id}/download`)).rawPayload, before)).toBe(0);
    expect((await client.request('DELETE', `/api/formats/${format.id}`)).statusCode).toBe(204);
    const after = await client.get(`/api/documents/${doc.id}/download`);
    expect(Buffer.compare(after.rawPayload, before)).toBe(0);
    const [listed] = (await client.get('/api/documents')).json() as TDocument[];
    expect(listed).toMatchObject({ id: doc.id, formatId: null, formatName: 'Unknown' });
  });

  it('makes the next document from the version just saved, and none once the format is deleted', async () => {
    // The current version is remembered between documents; a save or a delete must reach the next one.
    const { client, format } = await userWithFormat();
    const make = () => client.post('/api/documents', { formatId: format.id, data: { client_name: 'Ann', team: 'Design' } });
    const textOf = async (made: Awaited<ReturnType<typeof make>>) => {
      expect(made.statusCode, made.body).toBe(201);
      return pdfText((await client.get(`/api/documents/${(made.json() as TDocument).id}/download`)).rawPayload, { layout: true });
    };
    expect(await textOf(await make())).toContain('Offer for Ann');
    const saved = await client.request('PUT', `/api/formats/${format.id}`, {
      ...offerLetter,
      name: 'Offer, second edition',
      content: { elements: [{ id: '9', type: 'paragraph', content: 'Second edition for {{Client Name}}' }] },
    });
    expect(saved.statusCode).toBe(200);
    const second = await make();
    expect(second.json()).toMatchObject({ formatName: 'Offer, second edition' });
    expect(await textOf(second)).toContain('Second edition for Ann');
    expect((await client.request('DELETE', `/api/formats/${format.id}`)).statusCode).toBe(204);
    expect((await make()).statusCode).toBe(404);
  });

  it('deletes a document and updates the stats', async () => {
    const { client, format } = await userWithFormat();
    const doc = (await client.post('/api/documents', { formatId: format.id, data: { client_name: 'Ann', team: 'Design' } })).json() as TDocument;
    expect((await client.get('/api/user/stats')).json()).toMatchObject({ totalFormats: 1, totalDocuments: 1, apiCallsUsed: 1 });
    expect((await client.request('DELETE', `/api/documents/${doc.id}`)).statusCode).toBe(204);
    expect((await client.request('DELETE', `/api/documents/${doc.id}`)).statusCode).toBe(404);
    // Generations already made still count against the month.
    expect((await client.get('/api/user/stats')).json()).toMatchObject({ totalDocuments: 0, apiCallsUsed: 1 });
  });
});

describe('generation quota', () => {
  it('is exact under concurrency: 50 parallel generations with 10 remaining make exactly 10 documents', async () => {
    const { client, user, format } = await userWithFormat('free');
    await t.database.db.insert(usageCounters).values({ ownerId: user.id, period: usagePeriod(), generations: 20 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => client.post('/api/documents', { formatId: format.id, data: { client_name: `C${i}`, team: 'Design' } })),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    const refused = results.find((r) => r.statusCode === 429)!;
    expect(errorOf(refused)).toMatchObject({ code: 'quota_exceeded' });
    expect(errorOf(refused).message).toMatch(/all 30 documents of your plan/);
    expect((await client.get('/api/documents')).json()).toHaveLength(10);
    expect((await client.get('/api/user/stats')).json()).toMatchObject({ apiCallsUsed: 30, apiCallsLimit: 30 });
  });
});

describe('ownership', () => {
  it("answers 404 for every one of another user's formats and documents", async () => {
    const a = await userWithFormat();
    const doc = (await a.client.post('/api/documents', { formatId: a.format.id, data: { client_name: 'Ann', team: 'Design' } })).json() as TDocument;
    const b = new TestClient(t.app);
    await b.signUp();
    const attempts = [
      b.get(`/api/formats/${a.format.id}`),
      b.request('PUT', `/api/formats/${a.format.id}`, offerLetter),
      b.request('DELETE', `/api/formats/${a.format.id}`),
      b.get(`/api/formats/${a.format.id}/preview`),
      b.post('/api/documents', { formatId: a.format.id, data: { client_name: 'x', team: 'Design' } }),
      b.get(`/api/documents/${doc.id}/preview`),
      b.get(`/api/documents/${doc.id}/download`),
      b.request('DELETE', `/api/documents/${doc.id}`),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).code).toBe('not_found');
    }
    expect((await b.get('/api/formats')).json()).toEqual([]);
    expect((await b.get('/api/documents')).json()).toEqual([]);
    // A's things are untouched.
    expect((await a.client.get(`/api/documents/${doc.id}/download`)).statusCode).toBe(200);
  });

  it('answers 401 without a session', async () => {
    const anonymous = new TestClient(t.app);
    for (const url of ['/api/formats', '/api/documents', '/api/formats/x/preview']) {
      expect((await anonymous.get(url)).statusCode).toBe(401);
    }
  });
});
