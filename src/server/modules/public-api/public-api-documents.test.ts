import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ZV1Batch, ZV1Document, ZV1DocumentPage, ZV1Format, ZV1FormatPage } from '../../../contract/public-api.ts';
import { pdfRaster, pdfText } from '../../../render/testdata/pdf-tools.ts';
import { documents } from '../../db/schema.ts';
import { multipartBody, type TTestApp } from '../../test/test-app.ts';
import { errorOf, goodData, OFFER, publicApiTestKit } from './test/public-api-test-kit.ts';

let t: TTestApp;
const { enterpriseMember, generations } = publicApiTestKit((app) => {
  t = app;
});

/** Cursors whose time PostgreSQL cannot read: each was once a 500. */
const FORGED_CURSORS = ['99999|x', '+275760-09-13T00:00:00.000Z|x', '-000001-01-01T00:00:00.000Z|x', '0000-01-01T00:00:00.000Z|x'].map((text) =>
  Buffer.from(text).toString('base64url'),
);

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
    for (const cursor of FORGED_CURSORS) {
      const forged = await call('GET', `/api/v1/formats?cursor=${cursor}`);
      expect(forged.statusCode, cursor).toBe(400);
      expect(errorOf(forged), cursor).toMatchObject({ code: 'bad_request', message: expect.stringContaining('not one this API gave out') });
    }

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
    const later = ZV1DocumentPage.parse(
      (await call('GET', `/api/v1/documents?createdAfter=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).json(),
    );
    expect(later.data).toEqual([]);

    expect((await call('DELETE', `/api/v1/documents/${document.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/documents/${document.id}`)).statusCode).toBe(404);
  });

  it('refuses forged cursors and instants past what the database stores with a 400', async () => {
    const { call, formatId } = await enterpriseMember();
    expect((await call('POST', '/api/v1/documents', { formatId, data: goodData })).statusCode).toBe(201);
    for (const cursor of FORGED_CURSORS) {
      const forged = await call('GET', `/api/v1/documents?cursor=${cursor}`);
      expect(forged.statusCode, cursor).toBe(400);
      expect(errorOf(forged), cursor).toMatchObject({ code: 'bad_request', message: expect.stringContaining('not one this API gave out') });
    }
    const instant = (value: string) => call('GET', `/api/v1/documents?createdAfter=${encodeURIComponent(value)}`);
    expect(ZV1DocumentPage.parse((await instant('1970-01-01T00:00:00Z')).json()).data).toHaveLength(1);
    expect(ZV1DocumentPage.parse((await instant('9998-12-31T23:59:59.999Z')).json()).data).toEqual([]);
    // The last two lie in 1969 and in 9999 once their offsets are applied.
    for (const value of [
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59-12:00',
      '1969-12-31T23:59:59Z',
      '1970-01-01T00:59:59+01:00',
      '9998-12-31T23:00:00-01:00',
    ]) {
      const refused = await instant(value);
      expect(refused.statusCode, value).toBe(400);
      expect(errorOf(refused), value).toMatchObject({
        code: 'validation_failed',
        fields: { createdAfter: expect.stringContaining('from 1970-01-01 to 9998-12-31') },
      });
    }
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
      '/api/v1/signature-requests',
      '/api/v1/signature-requests/{id}',
      '/api/v1/signature-requests/{id}/audit',
      '/api/v1/signature-requests/{id}/cancel',
      '/api/v1/signature-requests/{id}/pdf',
      '/api/v1/signature-requests/{id}/remind',
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
