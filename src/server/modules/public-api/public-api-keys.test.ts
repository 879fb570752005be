import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ZCreatedApiKey } from '../../../contract/api-keys.ts';
import { ZV1Batch, ZV1Document, ZV1DocumentPage, ZV1FormatPage } from '../../../contract/public-api.ts';
import { asyncDocuments, emailDeliveries, workspaces } from '../../db/schema.ts';
import type { TTestApp } from '../../test/test-app.ts';
import { createSigningRepository } from '../signing/index.ts';
import { errorOf, goodData, publicApiTestKit } from './test/public-api-test-kit.ts';

let t: TTestApp;
const { keyed, enterpriseMember } = publicApiTestKit((app) => {
  t = app;
});

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
    await t.database.db.update(workspaces).set({ subscriptionPlan: 'premium' }).where(eq(workspaces.id, userId));
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
    // A live request, as sending one needs a mail server this app has not: test keys never reach requests.
    const { request: liveRequest } = await createSigningRepository(t.database.db).createRequest(
      {
        id: crypto.randomUUID(),
        ownerId: live.userId,
        documentId: liveDocument.id,
        expiresAt: new Date(Date.now() + 86_400_000),
        documentSha256: 'a'.repeat(64),
      },
      [],
      { type: 'created' },
    );
    return { ...live, callTest, liveDocument, testDocument, appDocument, batch, pendingLive, pendingTest, liveEmail, testEmail, liveRequest };
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
    ['GET', '/api/v1/signature-requests/{id}', 'request'],
    ['GET', '/api/v1/signature-requests/{id}/audit', 'request'],
    ['GET', '/api/v1/signature-requests/{id}/pdf', 'request'],
    ['POST', '/api/v1/signature-requests/{id}/remind', 'request'],
    ['POST', '/api/v1/signature-requests/{id}/cancel', 'request'],
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
    const foreign = {
      document: [k.liveDocument.id, k.appDocument.id, k.pendingLive],
      email: [k.liveEmail.id],
      batch: [k.batch.id],
      request: [k.liveRequest.id],
    };
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
    expect((await k.call('GET', `/api/v1/signature-requests/${k.liveRequest.id}`)).statusCode).toBe(200);
  });

  it('a live key gets 404 for every test document, pending test document and email of one', async () => {
    const k = await bothKinds();
    const foreign = { document: [k.testDocument.id, k.pendingTest], email: [k.testEmail.id], batch: [] as string[], request: [] as string[] };
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
