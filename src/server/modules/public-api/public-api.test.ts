import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCreatedApiKey } from '../../../contract/api-keys.ts';
import { ZApiUsage } from '../../../contract/api-usage.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plans.ts';
import { ZV1Batch, ZV1Document, ZV1DocumentPage, ZV1Format, ZV1FormatPage } from '../../../contract/public-api.ts';
import { pdfRaster, pdfText } from '../../../render/testdata/pdf-tools.ts';
import { apiRequests, apiUsageDaily, asyncDocuments, documents, emailDeliveries, usageCounters, users } from '../../db/schema.ts';
import { createTestApp, multipartBody, TestClient, type TTestApp, signUpVerified } from '../../test/test-app.ts';

let t: TTestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'root@example.com' });
  admin = new TestClient(t.app);
  await signUpVerified(t, admin, { email: 'root@example.com' });
});
afterAll(async () => {
  await t.close();
});

const errorOf = (response: { json(): unknown }) => ZApiError.parse(response.json()).error;

/** A client that holds only an API key, as an integrator's server does: no cookie, no Origin. */
function keyed(key: string, style: 'bearer' | 'header' = 'bearer') {
  const auth = style === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
  return async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
}

const OFFER = {
  name: 'Offer letter',
  content: {
    elements: [
      { id: 'h', type: 'heading', level: 1, content: 'Offer for {{client_name}}' },
      { id: 'p', type: 'paragraph', content: 'Salary {{salary}}, starting {{start}}. Team: {{team}}.' },
    ],
  },
  placeholders: [
    { name: 'client_name', type: 'text', required: true, label: 'Candidate' },
    { name: 'salary', type: 'number', required: true },
    { name: 'start', type: 'date' },
    { name: 'team', type: 'select', options: ['Sales', 'Support'] },
  ],
};

async function enterpriseMember(mode: 'live' | 'test' = 'live') {
  const client = new TestClient(t.app);
  const { user } = await client.signUp();
  await t.database.db.update(users).set({ subscriptionPlan: 'enterprise' }).where(eq(users.id, user.id));
  const created = ZCreatedApiKey.parse((await client.post('/api/user/api-keys', { name: 'Server', mode })).json());
  const format = await client.post('/api/formats', OFFER);
  expect(format.statusCode).toBe(201);
  return { client, userId: user.id, key: created.key, keyId: created.id, call: keyed(created.key), formatId: (format.json() as { id: string }).id };
}

/** The request log is written in batches within a quarter second of the answers. */
const requestLogWritten = () => new Promise((resolve) => setTimeout(resolve, 600));

const goodData = { client_name: 'Jane Doe', salary: 85000, start: '2027-01-04', team: 'Sales' };

async function generations(userId: string) {
  const rows = await t.database.db.select().from(usageCounters).where(eq(usageCounters.ownerId, userId));
  return rows.reduce((sum, r) => sum + r.generations, 0);
}

describe('keys at the door', () => {
  it('refuses a missing, wrong or revoked key with 401, and a cookie alone', async () => {
    const { client, key, keyId, call } = await enterpriseMember();
    const none = await t.app.inject({ method: 'GET', url: '/api/v1/formats' });
    expect(none.statusCode).toBe(401);
    expect(errorOf(none)).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('Authorization: Bearer') });
    // The browser session works for the app, never for the API.
    const cookieOnly = await client.get('/api/v1/formats');
    expect(cookieOnly.statusCode).toBe(401);
    expect((await keyed(`${key}x`)('GET', '/api/v1/formats')).statusCode).toBe(401);
    expect((await keyed('fw_live_nothing')('GET', '/api/v1/formats')).statusCode).toBe(401);
    expect((await keyed(key, 'header')('GET', '/api/v1/formats')).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/formats')).statusCode).toBe(200);

    expect((await client.request('DELETE', `/api/user/api-keys/${keyId}`)).statusCode).toBe(204);
    const revoked = await call('GET', '/api/v1/formats');
    expect(revoked.statusCode).toBe(401);
    expect(errorOf(revoked).message).toContain('revoked');
  });

  it('refuses a key whose owner has left the Enterprise plan with 403', async () => {
    const { userId, call } = await enterpriseMember();
    await t.database.db.update(users).set({ subscriptionPlan: 'premium' }).where(eq(users.id, userId));
    const refused = await call('GET', '/api/v1/formats');
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('plan_limit');
  });

  it('needs no CSRF proof: an integrator sends no Origin, and a foreign one changes nothing', async () => {
    const { call, formatId } = await enterpriseMember();
    const made = await call('POST', '/api/v1/documents', { formatId, data: goodData }, { origin: 'https://crm.example' });
    expect(made.statusCode).toBe(201);
  });
});

describe('formats', () => {
  it('pages with a cursor and tells a client how to build data', async () => {
    const { client, call, formatId } = await enterpriseMember();
    for (const name of ['Second', 'Third']) expect((await client.post('/api/formats', { ...OFFER, name })).statusCode).toBe(201);
    const first = ZV1FormatPage.parse((await call('GET', '/api/v1/formats?limit=2')).json());
    expect(first.data.map((f) => f.name)).toEqual(['Third', 'Second']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = ZV1FormatPage.parse((await call('GET', `/api/v1/formats?limit=2&cursor=${first.nextCursor}`)).json());
    expect(second.data.map((f) => f.name)).toEqual(['Offer letter']);
    expect(second.nextCursor).toBeNull();
    expect(second.data[0]!.placeholders).toEqual([
      { name: 'client_name', label: 'Candidate', type: 'text', required: true, options: [] },
      { name: 'salary', label: 'Salary', type: 'number', required: true, options: [] },
      { name: 'start', label: 'Start', type: 'date', required: false, options: [] },
      { name: 'team', label: 'Team', type: 'select', required: false, options: ['Sales', 'Support'] },
    ]);
    const bad = await call('GET', '/api/v1/formats?cursor=not-a-cursor');
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toContain('cursor');

    const one = ZV1Format.parse((await call('GET', `/api/v1/formats/${formatId}`)).json());
    expect(one.content.elements).toHaveLength(2);
  });

  it('creates a format from content JSON with the builder’s checks', async () => {
    const { call } = await enterpriseMember();
    const created = await call('POST', '/api/v1/formats', { ...OFFER, name: 'From the API' });
    expect(created.statusCode).toBe(201);
    expect(created.headers.location).toMatch(/\/api\/v1\/formats\/[\w-]+$/);
    expect(ZV1Format.parse(created.json()).name).toBe('From the API');
    const invalid = await call('POST', '/api/v1/formats', { ...OFFER, name: '' });
    expect(invalid.statusCode).toBe(400);
    expect(errorOf(invalid)).toMatchObject({ code: 'validation_failed', fields: { name: 'Please enter a format name.' } });
  });
});

describe('documents', () => {
  it('generates a document with a PDF URL, lists, fetches and deletes it', async () => {
    const { userId, call, formatId } = await enterpriseMember();
    const made = await call('POST', '/api/v1/documents', { formatId, data: goodData });
    expect(made.statusCode).toBe(201);
    const document = ZV1Document.parse(made.json());
    expect(document).toMatchObject({ status: 'generated', test: false, clientName: 'Jane Doe', data: { salary: '85000' } });
    expect(document.pdfUrl).toBe(`http://localhost:5000/api/v1/documents/${document.id}/pdf`);
    expect(made.headers.location).toBe(`http://localhost:5000/api/v1/documents/${document.id}`);
    expect(await generations(userId)).toBe(1);

    const pdf = await call('GET', `/api/v1/documents/${document.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdfText(pdf.rawPayload)).toContain('Offer for Jane Doe');

    const listed = ZV1DocumentPage.parse((await call('GET', `/api/v1/documents?formatId=${formatId}`)).json());
    expect(listed.data.map((d) => d.id)).toEqual([document.id]);
    const later = ZV1DocumentPage.parse((await call('GET', `/api/v1/documents?createdAfter=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).json());
    expect(later.data).toEqual([]);

    expect((await call('DELETE', `/api/v1/documents/${document.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/documents/${document.id}`)).statusCode).toBe(404);
  });

  it('names every invalid field, and never generates', async () => {
    const { userId, call, formatId } = await enterpriseMember();
    const refused = await call('POST', '/api/v1/documents', { formatId, data: { salary: 'lots', team: 'Legal' } });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toMatchObject({
      code: 'validation_failed',
      fields: { client_name: 'This field is required.', salary: 'Enter a number.', team: 'Choose one of: Sales, Support.' },
    });
    expect(await generations(userId)).toBe(0);
  });

  it('answers the landing page’s call exactly as shown', async () => {
    const { call, formatId } = await enterpriseMember();
    const made = await call('POST', '/api/documents/generate', { template_id: formatId, data: goodData });
    expect(made.statusCode).toBe(201);
    const body = made.json() as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['document_url', 'id', 'status']);
    expect(body).toMatchObject({ status: 'generated', document_url: expect.stringMatching(/\/api\/v1\/documents\/[\w-]+\/pdf$/) });
    expect((await call('GET', new URL(body.document_url as string).pathname)).headers['content-type']).toBe('application/pdf');
  });

  it('answers 202 with a Location for Prefer: respond-async, then the document', async () => {
    const { call, formatId } = await enterpriseMember();
    const accepted = await call('POST', '/api/v1/documents', { formatId, data: goodData }, { prefer: 'respond-async' });
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json()).toMatchObject({ status: 'pending' });
    const location = new URL(accepted.headers.location as string).pathname;
    let polled = await call('GET', location);
    for (let i = 0; i < 200 && polled.statusCode === 202; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      polled = await call('GET', location);
    }
    expect(polled.statusCode).toBe(200);
    expect(ZV1Document.parse(polled.json()).clientName).toBe('Jane Doe');
    // Bad data is still refused at once, not after the 202.
    const invalid = await call('POST', '/api/v1/documents', { formatId, data: {} }, { prefer: 'respond-async' });
    expect(invalid.statusCode).toBe(400);
  });

  it('makes one document for 20 parallel requests with one Idempotency-Key', async () => {
    const { userId, call, formatId } = await enterpriseMember();
    const headers = { 'idempotency-key': 'order-7731' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('POST', '/api/v1/documents', { formatId, data: goodData }, headers)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => (a.json() as { id: string }).id)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await t.database.db.select().from(documents).where(eq(documents.ownerId, userId))).toHaveLength(1);
    expect(await generations(userId)).toBe(1);

    const otherBody = await call('POST', '/api/v1/documents', { formatId, data: { ...goodData, salary: 1 } }, headers);
    expect(otherBody.statusCode).toBe(422);
    expect(errorOf(otherBody).message).toContain('different request');
    // A failed request leaves its key free for the corrected one.
    const failed = await call('POST', '/api/v1/documents', { formatId, data: {} }, { 'idempotency-key': 'order-7732' });
    expect(failed.statusCode).toBe(400);
    expect((await call('POST', '/api/v1/documents', { formatId, data: goodData }, { 'idempotency-key': 'order-7732' })).statusCode).toBe(201);
  });

  it('makes free, watermarked test documents that expire after 7 days', async () => {
    const { userId, call, formatId } = await enterpriseMember('test');
    const made = await call('POST', '/api/v1/documents', { formatId, data: goodData });
    expect(made.statusCode).toBe(201);
    const document = ZV1Document.parse(made.json());
    expect(document.test).toBe(true);
    expect(await generations(userId)).toBe(0);
    const pdf = (await call('GET', `/api/v1/documents/${document.id}/pdf`)).rawPayload;
    const [page] = pdfRaster(pdf, 30);
    let pink = 0;
    for (let i = 0; i < page!.data.length; i += 4) if (page!.data[i]! > 225 && page!.data[i + 1]! < 215 && page!.data[i + 2]! < 215) pink++;
    expect(pink).toBeGreaterThan(500);
    const [row] = await t.database.db.select().from(documents).where(eq(documents.id, document.id));
    expect(row!.expiresAt!.getTime() - row!.createdAt.getTime()).toBe(7 * 24 * 60 * 60_000);

    const batch = await call('POST', '/api/v1/batches', { formatId, rows: [goodData] });
    expect(batch.statusCode).toBe(403);
    expect(errorOf(batch).message).toContain('live key');
  });
});

describe('batches', () => {
  it('generates JSON rows with the bulk engine and gives the ZIP and the errors', async () => {
    const { userId, call, formatId } = await enterpriseMember();
    const rows = [goodData, { ...goodData, client_name: 'Ravi Patel' }, { client_name: 'No salary' }];
    const refused = await call('POST', '/api/v1/batches', { formatId, rows });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toContain('1 row has invalid values');

    const started = await call('POST', '/api/v1/batches', { formatId, rows, skipInvalid: true });
    expect(started.statusCode).toBe(202);
    let batch = ZV1Batch.parse(started.json());
    expect(batch).toMatchObject({ total: 2, skipped: 1 });
    for (let i = 0; i < 400 && batch.status !== 'completed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      batch = ZV1Batch.parse((await call('GET', `/api/v1/batches/${batch.id}`)).json());
    }
    expect(batch).toMatchObject({ status: 'completed', done: 2 });
    const zip = await call('GET', new URL(batch.zipUrl).pathname);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const errors = (await call('GET', new URL(batch.errorsUrl).pathname)).json();
    expect(errors).toEqual({ total: 1, errors: [{ row: 3, column: 'salary', message: 'This field is required.' }] });
    expect(await generations(userId)).toBe(2);
  });

  it('takes a spreadsheet upload whose headers name the placeholders', async () => {
    const { call, key, formatId } = await enterpriseMember();
    const csv = Buffer.from('Candidate,Salary,Start,Team\nJane Doe,85000,2027-01-04,Sales\nRavi Patel,90000,,Support\n');
    const { payload, headers } = multipartBody('file', 'people.csv', csv, 'text/csv');
    const boundary = headers['content-type'].split('boundary=')[1]!;
    const field = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="formatId"\r\n\r\n${formatId}\r\n`);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/batches',
      headers: { ...headers, authorization: `Bearer ${key}` },
      payload: Buffer.concat([field, payload]),
    });
    expect(started.statusCode).toBe(202);
    expect(ZV1Batch.parse(started.json())).toMatchObject({ total: 2, skipped: 0 });
    const withoutFormat = await t.app.inject({ method: 'POST', url: '/api/v1/batches', headers: { ...headers, authorization: `Bearer ${key}` }, payload });
    expect(withoutFormat.statusCode).toBe(400);
    expect(errorOf(withoutFormat).message).toContain('formatId');
    expect((await call('POST', '/api/v1/batches', { formatId, rows: [] })).statusCode).toBe(400);
  });
});

describe('test keys and live keys', () => {
  /**
   * One owner with both kinds of key: a live document (live key), a document made in the app, a
   * finished batch, a test document (test key), a pending document of each kind, and an email of
   * each kind of document. Each key must find only its own kind.
   */
  async function bothKinds() {
    const live = await enterpriseMember();
    const test = ZCreatedApiKey.parse((await live.client.post('/api/user/api-keys', { name: 'Staging', mode: 'test' })).json());
    const callTest = keyed(test.key);
    const liveDocument = ZV1Document.parse((await live.call('POST', '/api/v1/documents', { formatId: live.formatId, data: goodData })).json());
    const testDocument = ZV1Document.parse((await callTest('POST', '/api/v1/documents', { formatId: live.formatId, data: goodData })).json());
    const appDocument = (await live.client.post('/api/documents', { formatId: live.formatId, data: goodData })).json() as { id: string };
    expect([liveDocument.test, testDocument.test]).toEqual([false, true]);
    let batch = ZV1Batch.parse((await live.call('POST', '/api/v1/batches', { formatId: live.formatId, rows: [goodData] })).json());
    for (let i = 0; i < 400 && batch.status !== 'completed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      batch = ZV1Batch.parse((await live.call('GET', `/api/v1/batches/${batch.id}`)).json());
    }
    expect(batch.status).toBe('completed');
    const pendingLive = crypto.randomUUID();
    const pendingTest = crypto.randomUUID();
    await t.database.db.insert(asyncDocuments).values([
      { id: pendingLive, ownerId: live.userId, status: 'pending' },
      { id: pendingTest, ownerId: live.userId, status: 'pending', testMode: true },
    ]);
    const email = (documentId: string) => ({
      id: crypto.randomUUID(),
      ownerId: live.userId,
      documentId,
      to: ['jane@example.com'],
      cc: [],
      recipientCount: 1,
      subject: 'Offer',
      message: 'Hello',
      status: 'failed' as const,
    });
    const [liveEmail, testEmail] = [email(liveDocument.id), email(testDocument.id)];
    await t.database.db.insert(emailDeliveries).values([liveEmail, testEmail]);
    return { ...live, callTest, liveDocument, testDocument, appDocument, batch, pendingLive, pendingTest, liveEmail, testEmail };
  }

  /** Every v1 route that names a document, a batch or an email by id, with the id each kind of key must not reach. */
  const ROUTES = [
    ['GET', '/api/v1/documents/{id}', 'document'],
    ['GET', '/api/v1/documents/{id}/pdf', 'document'],
    ['POST', '/api/v1/documents/{id}/email', 'document'],
    ['DELETE', '/api/v1/documents/{id}', 'document'],
    ['GET', '/api/v1/deliveries/{id}', 'email'],
    ['GET', '/api/v1/batches/{id}', 'batch'],
    ['GET', '/api/v1/batches/{id}/zip', 'batch'],
    ['GET', '/api/v1/batches/{id}/errors', 'batch'],
  ] as const;

  it('covers every v1 route that takes an id (formats are shared by both kinds of key)', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const withIds = Object.entries(document.paths)
      .filter(([path]) => path.includes('{id}') && !path.startsWith('/api/v1/formats/'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    expect(withIds.sort()).toEqual(ROUTES.map(([method, path]) => `${method} ${path}`).sort());
  });

  it('a test key gets 404 for every live document, app document, batch, pending document and email', async () => {
    const k = await bothKinds();
    const foreign = { document: [k.liveDocument.id, k.appDocument.id, k.pendingLive], email: [k.liveEmail.id], batch: [k.batch.id] };
    for (const [method, path, kind] of ROUTES) {
      for (const id of foreign[kind]) {
        const url = path.replace('{id}', id);
        const response = await k.callTest(method, url, method === 'POST' ? { to: ['jane@example.com'] } : undefined);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(errorOf(response).code).toBe('not_found');
      }
    }
    // Nothing was deleted or emailed.
    expect((await k.call('GET', `/api/v1/documents/${k.liveDocument.id}`)).statusCode).toBe(200);
    expect((await k.call('GET', `/api/v1/documents/${k.appDocument.id}`)).statusCode).toBe(200);
    expect((await t.database.db.select().from(emailDeliveries).where(eq(emailDeliveries.ownerId, k.userId))).length).toBe(2);
  });

  it('a live key gets 404 for every test document, pending test document and email of one', async () => {
    const k = await bothKinds();
    const foreign = { document: [k.testDocument.id, k.pendingTest], email: [k.testEmail.id], batch: [] as string[] };
    for (const [method, path, kind] of ROUTES) {
      for (const id of foreign[kind]) {
        const url = path.replace('{id}', id);
        const response = await k.call(method, url, method === 'POST' ? { to: ['jane@example.com'] } : undefined);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(errorOf(response).code).toBe('not_found');
      }
    }
    expect((await k.callTest('GET', `/api/v1/documents/${k.testDocument.id}`)).statusCode).toBe(200);
  });

  it('each key reads, emails and deletes its own kind', async () => {
    const k = await bothKinds();
    for (const [call, own] of [
      [k.callTest, { document: k.testDocument.id, pending: k.pendingTest, email: k.testEmail.id }],
      [k.call, { document: k.liveDocument.id, pending: k.pendingLive, email: k.liveEmail.id }],
    ] as const) {
      expect((await call('GET', `/api/v1/documents/${own.document}`)).statusCode).toBe(200);
      expect((await call('GET', `/api/v1/documents/${own.document}/pdf`)).statusCode).toBe(200);
      expect((await call('GET', `/api/v1/documents/${own.pending}`)).statusCode).toBe(202);
      expect((await call('GET', `/api/v1/deliveries/${own.email}`)).statusCode).toBe(200);
      // Past the document: no mail server is set up here.
      expect((await call('POST', `/api/v1/documents/${own.document}/email`, { to: ['jane@example.com'] })).statusCode).toBe(422);
      expect((await call('DELETE', `/api/v1/documents/${own.document}`)).statusCode).toBe(204);
    }
    expect((await k.call('GET', `/api/v1/documents/${k.appDocument.id}`)).statusCode).toBe(200);
    expect((await k.call('GET', `/api/v1/batches/${k.batch.id}/errors`)).statusCode).toBe(200);
  });

  it('lists only the key’s own kind of documents', async () => {
    const k = await bothKinds();
    const listed = async (call: typeof k.call) => ZV1DocumentPage.parse((await call('GET', '/api/v1/documents?limit=100')).json()).data;
    const testListed = await listed(k.callTest);
    expect(testListed.map((d) => d.id)).toEqual([k.testDocument.id]);
    const liveListed = await listed(k.call);
    expect(liveListed.map((d) => d.id)).toEqual(expect.arrayContaining([k.liveDocument.id, k.appDocument.id]));
    expect(liveListed.some((d) => d.test)).toBe(false);
    expect(liveListed).toHaveLength(3);
  });

  it('keeps an Idempotency-Key of a test key apart from the same key of a live key', async () => {
    const k = await bothKinds();
    const first = await k.callTest('POST', '/api/v1/documents', { formatId: k.formatId, data: goodData }, { 'idempotency-key': 'order-1' });
    const second = await k.call('POST', '/api/v1/documents', { formatId: k.formatId, data: goodData }, { 'idempotency-key': 'order-1' });
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(ZV1Document.parse(second.json())).toMatchObject({ test: false });
    expect(ZV1Document.parse(second.json()).id).not.toBe(ZV1Document.parse(first.json()).id);
  });
});

describe('ownership', () => {
  it('answers 404 for everything another user owns', async () => {
    const owner = await enterpriseMember();
    const stranger = await enterpriseMember();
    const document = ZV1Document.parse((await owner.call('POST', '/api/v1/documents', { formatId: owner.formatId, data: goodData })).json());
    const batch = ZV1Batch.parse((await owner.call('POST', '/api/v1/batches', { formatId: owner.formatId, rows: [goodData] })).json());
    const attempts: [string, string, unknown?][] = [
      ['GET', `/api/v1/formats/${owner.formatId}`],
      ['POST', '/api/v1/documents', { formatId: owner.formatId, data: goodData }],
      ['POST', '/api/documents/generate', { template_id: owner.formatId, data: goodData }],
      ['GET', `/api/v1/documents/${document.id}`],
      ['GET', `/api/v1/documents/${document.id}/pdf`],
      ['DELETE', `/api/v1/documents/${document.id}`],
      ['POST', '/api/v1/batches', { formatId: owner.formatId, rows: [goodData] }],
      ['GET', `/api/v1/batches/${batch.id}`],
      ['GET', `/api/v1/batches/${batch.id}/zip`],
      ['GET', `/api/v1/batches/${batch.id}/errors`],
    ];
    for (const [method, url, body] of attempts) {
      const response = await stranger.call(method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(errorOf(response).code).toBe('not_found');
    }
    expect(ZV1DocumentPage.parse((await stranger.call('GET', '/api/v1/documents')).json()).data).toEqual([]);
    expect(ZV1FormatPage.parse((await stranger.call('GET', '/api/v1/formats')).json()).data.map((f) => f.id)).toEqual([stranger.formatId]);
    expect((await owner.call('GET', `/api/v1/documents/${document.id}`)).statusCode).toBe(200);
  });
});

describe('rate limits, quota and usage', () => {
  it('counts each key per minute, with RateLimit headers on every answer and Retry-After on a 429', async () => {
    const catalogue = DEFAULT_PLAN_CATALOGUE.map((p) => (p.id === 'enterprise' ? { ...p, apiRequestsPerMinute: 5 } : p));
    expect((await admin.post('/api/admin/settings', { key: 'plans.catalogue', value: JSON.stringify(catalogue) })).statusCode).toBe(200);
    try {
      const { call, client } = await enterpriseMember();
      const second = ZCreatedApiKey.parse((await client.post('/api/user/api-keys', { name: 'Other' })).json());
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await call('GET', '/api/v1/formats'));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0', '0']);
      for (const a of answers) {
        expect(a.headers['ratelimit-limit']).toBe('5');
        expect(Number(a.headers['ratelimit-reset'])).toBeGreaterThan(0);
      }
      const limited = answers[5]!;
      expect(errorOf(limited).code).toBe('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Limits are per key.
      expect((await keyed(second.key)('GET', '/api/v1/formats')).statusCode).toBe(200);
    } finally {
      await admin.request('DELETE', '/api/admin/settings/plans.catalogue');
    }
  });

  it('refuses past the monthly quota with its own code, the same quota the app uses', async () => {
    const { userId, call, formatId, client } = await enterpriseMember();
    await t.database.db.update(users).set({ apiCallsLimit: 2 }).where(eq(users.id, userId));
    expect((await client.post('/api/documents', { formatId, data: goodData })).statusCode).toBe(201);
    expect((await call('POST', '/api/v1/documents', { formatId, data: goodData })).statusCode).toBe(201);
    const refused = await call('POST', '/api/v1/documents', { formatId, data: goodData });
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).code).toBe('quota_exceeded');
    expect(refused.headers['retry-after']).toBeUndefined();
  });

  it('logs each request by route pattern, and rolls finished days up', async () => {
    const { userId, keyId, call, formatId } = await enterpriseMember();
    await call('POST', '/api/v1/documents', { formatId, data: goodData });
    await call('GET', '/api/v1/documents/nope');
    await call('GET', '/api/v1/formats');
    // The log is written after the answer.
    await requestLogWritten();
    const logged = await t.database.db.select().from(apiRequests).where(eq(apiRequests.ownerId, userId));
    expect(logged.map((r) => [r.method, r.route, r.status, r.documents]).sort()).toEqual(
      [
        ['GET', '/api/v1/documents/:id', 404, 0],
        ['GET', '/api/v1/formats', 200, 0],
        ['POST', '/api/v1/documents', 201, 1],
      ].sort(),
    );
    expect(logged.every((r) => r.keyId === keyId && r.latencyMs >= 0)).toBe(true);
  });
});

describe('usage analytics', () => {
  it('shows a call made a moment ago, before its batch of the request log was due', async () => {
    const { client, call, formatId } = await enterpriseMember();
    await call('POST', '/api/v1/documents', { formatId, data: goodData });
    const usage = ZApiUsage.parse((await client.get('/api/user/api-usage')).json());
    expect(usage.totals).toMatchObject({ requests: 1, ok: 1, documents: 1 });
  });

  it('shows 30 days by status class and documents, per key, with latency and a CSV; admins see it too', async () => {
    const { client, userId, call, formatId } = await enterpriseMember();
    const other = ZCreatedApiKey.parse((await client.post('/api/user/api-keys', { name: 'Other' })).json());
    await call('POST', '/api/v1/documents', { formatId, data: goodData });
    await call('POST', '/api/v1/documents', { formatId, data: {} });
    await keyed(other.key)('GET', '/api/v1/formats');
    await requestLogWritten();

    const all = ZApiUsage.parse((await client.get('/api/user/api-usage')).json());
    expect(all.days).toHaveLength(30);
    expect(all.days.at(-1)).toMatchObject({ day: new Date().toISOString().slice(0, 10), ok: 2, clientErrors: 1, serverErrors: 0, documents: 1 });
    expect(all.days.slice(0, -1).every((d) => d.ok + d.clientErrors + d.serverErrors === 0 && d.p50Ms === null)).toBe(true);
    expect(all.totals).toEqual({ requests: 3, ok: 2, clientErrors: 1, serverErrors: 0, documents: 1 });
    expect(all.latency.p95Ms).toEqual(expect.any(Number));
    expect(all.keys.map((k) => k.name).sort()).toEqual(['Other', 'Server']);

    const one = ZApiUsage.parse((await client.get(`/api/user/api-usage?keyId=${other.id}`)).json());
    expect(one.totals).toEqual({ requests: 1, ok: 1, clientErrors: 0, serverErrors: 0, documents: 0 });
    const stranger = await enterpriseMember();
    expect((await stranger.client.get(`/api/user/api-usage?keyId=${other.id}`)).statusCode).toBe(404);
    expect(ZApiUsage.parse((await stranger.client.get('/api/user/api-usage')).json()).totals.requests).toBe(0);

    const csv = await client.get('/api/user/api-usage.csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('Date,2xx/3xx requests,4xx requests,5xx requests,Documents generated,p50 latency (ms),p95 latency (ms)');
    expect(lines).toHaveLength(31);
    expect(lines.at(-1)).toMatch(new RegExp(`^${new Date().toISOString().slice(0, 10)},2,1,0,1,\\d+,\\d+$`));

    expect(ZApiUsage.parse((await admin.get(`/api/admin/users/${userId}/api-usage`)).json()).totals.requests).toBe(3);
    expect((await admin.get('/api/admin/users/nobody/api-usage')).statusCode).toBe(404);
    expect((await admin.get(`/api/admin/users/${userId}/api-usage.csv`)).body.trim().split('\r\n')).toHaveLength(31);
    expect((await admin.get('/api/admin/users/nobody/api-usage.csv')).statusCode).toBe(404);
    expect((await client.get(`/api/admin/users/${userId}/api-usage`)).statusCode).toBe(403);
  });
});

describe('the OpenAPI document', () => {
  it('describes only the public API, with its keys and errors', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      openapi: string;
      paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual([
      '/api/documents/generate',
      '/api/v1/batches',
      '/api/v1/batches/{id}',
      '/api/v1/batches/{id}/errors',
      '/api/v1/batches/{id}/zip',
      '/api/v1/deliveries/{id}',
      '/api/v1/documents',
      '/api/v1/documents/{id}',
      '/api/v1/documents/{id}/email',
      '/api/v1/documents/{id}/pdf',
      '/api/v1/formats',
      '/api/v1/formats/{id}',
    ]);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['apiKeyHeader', 'bearerAuth']);
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        expect(operation.security).toBeDefined();
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403', '404', '429']));
      }
    }
  });
});

// Kept at the end: it rolls the log up as if a day had passed.
describe('usage roll-up', () => {
  it('keeps one row per key and day after the retention period', async () => {
    const { userId, call } = await enterpriseMember();
    await call('GET', '/api/v1/formats');
    await requestLogWritten();
    const { createPublicApiRepository } = await import('./public-api.repository.ts');
    const repository = createPublicApiRepository(t.database.db);
    const inTenDays = new Date(Date.now() + 10 * 24 * 60 * 60_000);
    await repository.sweep(inTenDays, new Date(inTenDays.getTime() - 7 * 24 * 60 * 60_000), inTenDays);
    expect(await t.database.db.select().from(apiRequests).where(eq(apiRequests.ownerId, userId))).toEqual([]);
    const [day] = await t.database.db.select().from(apiUsageDaily).where(eq(apiUsageDaily.ownerId, userId));
    expect(day).toMatchObject({ ok: 1, clientErrors: 0, serverErrors: 0, documents: 0, day: new Date().toISOString().slice(0, 10) });
  });
});
