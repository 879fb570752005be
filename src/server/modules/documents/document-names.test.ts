import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZBulkJob, type TBulkJob } from '../../../contract/bulk.ts';
import type { TDocument } from '../../../contract/documents.ts';
import { workspaces } from '../../db/schema.ts';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app.ts';

/* A format's document-name pattern names its documents however they are made: the form, the API and spreadsheets. */

let t: TTestApp;
let client: TestClient;
let formatId = '';
beforeAll(async () => {
  t = await createTestApp();
  client = new TestClient(t.app);
  const { user } = await client.signUp();
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, user.id));
  const created = await client.post('/api/formats', {
    name: 'Offer Letter',
    content: {
      documentNamePattern: 'Offer Letter – {{candidate_name}}',
      elements: [{ id: 'p', type: 'paragraph', content: 'Dear {{candidate_name}}, welcome.' }],
    },
    placeholders: [{ name: 'candidate_name', type: 'text' }],
  });
  expect(created.statusCode, created.body).toBe(201);
  formatId = (created.json() as { id: string; content: { documentNamePattern: string } }).id;
  expect((created.json() as { content: { documentNamePattern: string } }).content.documentNamePattern).toBe('Offer Letter – {{candidate_name}}');
});
afterAll(async () => {
  await t.close();
});

it('names a document made in the app or by the API from the pattern', async () => {
  const made = (await client.post('/api/documents', { formatId, data: { candidate_name: 'Jane Doe' } })).json() as TDocument;
  expect(made.name).toBe('Offer Letter – Jane Doe');
  const download = await client.get(`/api/documents/${made.id}/download`);
  expect(download.headers['content-disposition']).toContain('Offer Letter');

  const key = ((await client.post('/api/user/api-keys', { name: 'Names' })).json() as { key: string }).key;
  const viaApi = await t.app.inject({
    method: 'POST',
    url: '/api/v1/documents',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ formatId, data: { candidate_name: 'Ann Lee' } }),
  });
  expect(viaApi.statusCode, viaApi.body).toBe(201);
  expect((viaApi.json() as TDocument).name).toBe('Offer Letter – Ann Lee');

  // A value left empty leaves no dangling dash; nothing at all falls back to the format and date.
  const empty = (await client.post('/api/documents', { formatId, data: {} })).json() as TDocument;
  expect(empty.name).toBe('Offer Letter');
});

it('names a batch’s documents from the pattern, and its ZIP files after them', async () => {
  const rows = ['Candidate Name', 'Jane Doe', 'Ann Lee'].join('\n');
  const draft = (await client.upload(`/api/formats/${formatId}/bulk`, 'file', 'candidates.csv', Buffer.from(rows), 'text/csv')).json() as { id: string };
  const started = await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false });
  expect(started.statusCode).toBe(202);
  expect((started.json() as TBulkJob).fileNamePattern).toBe('{{document}}');
  let job: TBulkJob;
  do {
    await new Promise((resolve) => setTimeout(resolve, 50));
    job = ZBulkJob.parse((await client.get(`/api/bulk-jobs/${draft.id}`)).json());
  } while (job.status !== 'completed');
  const docs = (await client.get(`/api/documents?batchId=${draft.id}`)).json() as TDocument[];
  expect(docs.map((d) => d.name).sort()).toEqual(['Offer Letter – Ann Lee', 'Offer Letter – Jane Doe']);
  const zip = await client.get(`/api/bulk-jobs/${draft.id}/documents.zip`);
  const names = [...zip.rawPayload.toString('latin1').matchAll(/Offer Letter [^\n]*?\.pdf/g)].map((m) => m[0]);
  expect(new Set(names.map((n) => Buffer.from(n, 'latin1').toString('utf8')))).toEqual(new Set(['Offer Letter – Jane Doe.pdf', 'Offer Letter – Ann Lee.pdf']));
});
