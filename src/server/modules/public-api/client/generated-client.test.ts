import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { eq } from 'drizzle-orm';
import createClient, { type Middleware } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_MAIL_SETTING } from '../../../../contract/mail.ts';
import { systemSettings, workspaces } from '../../../db/schema.ts';
import { startSmtpStandIn, type TSmtpStandIn } from '../../../test/smtp-stand-in.ts';
import { createTestApp, TestClient, type TTestApp, signUpVerified } from '../../../test/test-app.ts';
import { typesFromOpenApi } from './openapi-types.ts';
import type { paths } from './v1-schema.ts';

/*
 * A client generated from the served OpenAPI document (openapi-typescript types, openapi-fetch
 * calls) talks to a real listening server. The types are checked by the compiler, and every
 * answer is checked at run time against the document's schema for its status: a server that
 * answers something its document does not describe fails here.
 */

type TOperation = { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
type TDocument = { paths: Record<string, Record<string, TOperation>>; components?: { schemas?: Record<string, unknown> } };

let t: TTestApp;
let baseUrl = '';
let document: TDocument;
let key = '';
let formatId = '';
let smtp: TSmtpStandIn;
const checked = new Set<string>();

beforeAll(async () => {
  smtp = await startSmtpStandIn({ tls: false });
  t = await createTestApp();
  // The installation's mail server: a relay on loopback that takes mail without signing in.
  await t.database.db.insert(systemSettings).values({
    key: SYSTEM_MAIL_SETTING,
    value: JSON.stringify({
      host: smtp.host,
      port: smtp.port,
      secure: false,
      user: '',
      passwordEnc: null,
      fromAddress: 'documents@formwork.test',
      fromName: 'Formwork',
    }),
  });
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  document = (await (await fetch(`${baseUrl}/api/openapi.json`)).json()) as TDocument;
  const owner = new TestClient(t.app);
  const { user } = await signUpVerified(t, owner, {}, smtp);
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, user.id));
  key = ((await owner.post('/api/user/api-keys', { name: 'Generated client' })).json() as { key: string }).key;
  formatId = (
    (
      await owner.post('/api/formats', {
        name: 'Invoice',
        content: { elements: [{ id: 'p', type: 'paragraph', content: 'Invoice for {{client_name}}: {{amount}}' }] },
        placeholders: [
          { name: 'client_name', type: 'text', required: true },
          { name: 'amount', type: 'number' },
        ],
      })
    ).json() as { id: string }
  ).id;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Checks each JSON answer against the document's schema for its path, method and status. */
function conformance(): Middleware {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // The components under their own id, so the operations' `#/components/...` references resolve.
  ajv.addSchema({ $id: 'openapi', components: document.components });
  return {
    async onResponse({ schemaPath, request, response }) {
      const operation = document.paths[schemaPath]?.[request.method.toLowerCase()];
      expect(operation, `${request.method} ${schemaPath} is documented`).toBeDefined();
      const described = operation!.responses[String(response.status)];
      expect(described, `${request.method} ${schemaPath} documents status ${response.status}`).toBeDefined();
      checked.add(`${request.method} ${schemaPath} ${response.status}`);
      const type = response.headers.get('content-type') ?? '';
      if (!type.startsWith('application/json')) return undefined;
      const schema = described!.content?.['application/json']?.schema;
      expect(schema, `${request.method} ${schemaPath} ${response.status} has a JSON schema`).toBeDefined();
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as object);
      const body: unknown = await response.clone().json();
      expect(validate(body), `${request.method} ${schemaPath} ${response.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      return undefined;
    },
  };
}

function client(apiKey = key) {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
  api.use(conformance());
  return api;
}

describe('a client generated from the OpenAPI document', () => {
  it('is the one committed: the types match the served document', async () => {
    const committed = readFileSync(path.join(import.meta.dirname, 'v1-schema.ts'), 'utf8');
    expect(await typesFromOpenApi(document as unknown as Record<string, unknown>)).toBe(committed);
  });

  // Every endpoint, with a batch, an email and a sealed signature: about 6 s alone, and more than
  // 60 s when CI ran it on PostgreSQL beside the browser journeys.
  it('calls every endpoint, and every answer matches the document', { timeout: 240_000 }, async () => {
    const api = client();

    const formats = await api.GET('/api/v1/formats', { params: { query: { limit: 10 } } });
    expect(formats.data?.data.map((f) => f.id)).toEqual([formatId]);
    const format = await api.GET('/api/v1/formats/{id}', { params: { path: { id: formatId } } });
    expect(format.data?.placeholders.map((p) => p.name)).toEqual(['client_name', 'amount']);
    const createdFormat = await api.POST('/api/v1/formats', {
      body: { name: 'Receipt', content: { elements: [{ id: 'p', type: 'paragraph', content: 'Paid' }] } },
    });
    expect(createdFormat.response.status).toBe(201);
    const invalidFormat = await api.POST('/api/v1/formats', { body: { name: '', content: { elements: [] } } });
    expect(invalidFormat.error?.error.code).toBe('validation_failed');

    const made = await api.POST('/api/v1/documents', { body: { formatId, data: { client_name: 'Acme', amount: 1200 } } });
    expect(made.response.status).toBe(201);
    const documentId = made.data && 'pdfUrl' in made.data ? made.data.id : '';
    expect(documentId).not.toBe('');
    const asynchronous = await api.POST('/api/v1/documents', {
      body: { formatId, data: { client_name: 'Later Ltd' } },
      params: { header: { prefer: 'respond-async', 'idempotency-key': 'async-1' } },
    });
    expect(asynchronous.response.status).toBe(202);
    let polled = await api.GET('/api/v1/documents/{id}', { params: { path: { id: asynchronous.data!.id } } });
    for (let i = 0; i < 200 && polled.response.status === 202; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      polled = await api.GET('/api/v1/documents/{id}', { params: { path: { id: asynchronous.data!.id } } });
    }
    expect(polled.response.status).toBe(200);

    const listed = await api.GET('/api/v1/documents', { params: { query: { formatId, limit: 1 } } });
    expect(listed.data?.data).toHaveLength(1);
    expect(listed.data?.nextCursor).toEqual(expect.any(String));
    const pdf = await api.GET('/api/v1/documents/{id}/pdf', { params: { path: { id: documentId } }, parseAs: 'arrayBuffer' });
    expect(
      Buffer.from(pdf.data as ArrayBuffer)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const emailed = await api.POST('/api/v1/documents/{id}/email', {
      params: { path: { id: documentId } },
      body: { to: ['jane@example.com'], subject: 'Your invoice' },
    });
    expect(emailed.response.status).toBe(202);
    expect(emailed.response.headers.get('location')).toBe(`${t.config.publicUrl}/api/v1/deliveries/${emailed.data!.id}`);
    let delivery = await api.GET('/api/v1/deliveries/{id}', { params: { path: { id: emailed.data!.id } } });
    for (let i = 0; i < 200 && delivery.data?.status !== 'sent'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      delivery = await api.GET('/api/v1/deliveries/{id}', { params: { path: { id: emailed.data!.id } } });
    }
    expect(delivery.data).toMatchObject({ status: 'sent', to: ['jane@example.com'], subject: 'Your invoice' });
    await smtp.waitFor(1);

    const generated = await api.POST('/api/documents/generate', { body: { template_id: formatId, data: { client_name: 'Short Form' } } });
    expect(generated.data?.status).toBe('generated');

    const batch = await api.POST('/api/v1/batches', {
      body: { formatId, rows: [{ client_name: 'A' }, { client_name: 'B' }, { amount: 'x' }], skipInvalid: true },
    });
    expect(batch.response.status).toBe(202);
    let progress = await api.GET('/api/v1/batches/{id}', { params: { path: { id: batch.data!.id } } });
    for (let i = 0; i < 400 && progress.data?.status !== 'completed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      progress = await api.GET('/api/v1/batches/{id}', { params: { path: { id: batch.data!.id } } });
    }
    expect(progress.data).toMatchObject({ status: 'completed', done: 2, skipped: 1 });
    const errors = await api.GET('/api/v1/batches/{id}/errors', { params: { path: { id: batch.data!.id }, query: {} } });
    expect(errors.data?.total).toBe(1);
    const zip = await api.GET('/api/v1/batches/{id}/zip', { params: { path: { id: batch.data!.id } }, parseAs: 'arrayBuffer' });
    expect(
      Buffer.from(zip.data as ArrayBuffer)
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');

    // Signature requests: one made from the format and data, signed, sealed; another cancelled.
    const sent = await api.POST('/api/v1/signature-requests', {
      body: { formatId, data: { client_name: 'Signed Client' }, signers: [{ name: 'Sam Signer', email: 'sam@example.com' }] },
    });
    expect(sent.response.status).toBe(201);
    const requestId = sent.data!.id;
    const path = { id: requestId };
    expect((await api.POST('/api/v1/signature-requests/{id}/remind', { params: { path } })).data?.status).toBe('sent');
    expect((await api.GET('/api/v1/signature-requests/{id}/pdf', { params: { path }, parseAs: 'arrayBuffer' })).response.status).toBe(409);
    const signUrl = sent.data!.signers[0]!.signUrl;
    const signed = await fetch(`${baseUrl}/api/sign/${signUrl.slice(signUrl.lastIndexOf('/') + 1)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ consent: true, signature: { type: 'typed', text: 'Sam Signer' } }),
    });
    expect(signed.status).toBe(200);
    let request = await api.GET('/api/v1/signature-requests/{id}', { params: { path } });
    for (let i = 0; i < 400 && request.data?.status !== 'completed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      request = await api.GET('/api/v1/signature-requests/{id}', { params: { path } });
    }
    expect(request.data?.status).toBe('completed');
    expect((await api.GET('/api/v1/signature-requests/{id}/audit', { params: { path } })).data?.intact).toBe(true);
    const sealed = await api.GET('/api/v1/signature-requests/{id}/pdf', { params: { path }, parseAs: 'arrayBuffer' });
    expect(
      Buffer.from(sealed.data as ArrayBuffer)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const another = await api.POST('/api/v1/signature-requests', { body: { documentId, signers: [{ name: 'Cy Cancel', email: 'cy@example.com' }] } });
    expect((await api.POST('/api/v1/signature-requests/{id}/cancel', { params: { path: { id: another.data!.id } } })).data?.status).toBe('cancelled');

    const deleted = await api.DELETE('/api/v1/documents/{id}', { params: { path: { id: documentId } } });
    expect(deleted.response.status).toBe(204);
    const gone = await api.GET('/api/v1/documents/{id}', { params: { path: { id: documentId } } });
    expect(gone.error?.error.code).toBe('not_found');

    const stranger = await client('fw_live_not-a-real-key').GET('/api/v1/formats', { params: { query: {} } });
    expect(stranger.error?.error.code).toBe('unauthorized');

    // Every documented operation was called at least once.
    const operations = Object.entries(document.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    const called = new Set([...checked].map((c) => c.split(' ').slice(0, 2).join(' ')));
    expect(operations.filter((o) => !called.has(o))).toEqual([]);
  });
});
