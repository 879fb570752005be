import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaces } from '../db/schema.ts';
import type { TFormat } from '../../contract/formats.ts';
import { createTestApp, TEST_ORIGIN, TestClient, type TTestApp, signUpVerified } from '../test/test-app.ts';

/*
 * Every string a client can send, in every JSON endpoint the OpenAPI document lists, replaced one
 * at a time by each hostile string below: none may answer 5xx. Endpoints come from the served
 * document, so a new endpoint is covered without touching this file.
 */

const CORPUS: [name: string, value: string][] = [
  ['SQL', "'; drop table users; --"],
  ['SQL union', "1' union select password from accounts --"],
  ['HTML and script', '<script>alert(1)</script><img src=x onerror=alert(1)>'],
  ['RTL override', 'invoice\u202Efdp.exe'],
  ['zero-width', 'a\u200Bb\uFEFFc\u200D'],
  ['emoji and ZWJ', '👩‍👩‍👧‍👦 🏳️‍🌈 🇮🇳'],
  ['100 KB', 'x'.repeat(100 * 1024)],
  ['NUL', 'before\u0000after'],
  ['lone high surrogate', 'broken \uD800 text'],
  ['lone low surrogate', '\uDC00'],
  ['placeholder-looking', '{{client_name}} {{ }} {{{{x}}}}'],
  ['path traversal', '../../../../etc/passwd'],
  ['CRLF header injection', 'a\r\nSet-Cookie: x=1'],
  ['control characters', '\u0001\u0007\u001b[31m\u007f'],
  ['long unicode', 'ü'.repeat(5_000) + '漢'.repeat(5_000)],
];

type TSchema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, TSchema>;
  required?: string[];
  items?: TSchema;
  anyOf?: TSchema[];
  oneOf?: TSchema[];
  allOf?: TSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  minLength?: number;
  minimum?: number;
  minItems?: number;
};

/** A plausible value for a JSON schema: enough to get past the first checks to where strings are used. */
function sample(schema: TSchema | undefined): unknown {
  if (!schema) return 'Sample';
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return sample(choices.find((c) => c.type !== 'null') ?? choices[0]);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sample(s) as object));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'email') return 'ann@example.com';
      if (schema.format === 'uri') return 'https://example.com/x.png';
      return 'Sample'.padEnd(schema.minLength ?? 0, 'x');
    case 'number':
    case 'integer':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: schema.minItems ?? 1 }, () => sample(schema.items));
    case 'object':
    default:
      if (!schema.properties) return {};
      return Object.fromEntries(Object.entries(schema.properties).map(([key, s]) => [key, sample(s)]));
  }
}

/**
 * Percent-encoding as an attacker would send it: an unpaired surrogate, which has no UTF-8 form,
 * goes out as the three bytes a careless encoder writes for it.
 */
function encodeRaw(text: string): string {
  let out = '';
  for (const char of text) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

/** Every way to put `text` into `value`: each string replaced, and a key added to each object. */
function mutations(value: unknown, text: string): unknown[] {
  if (typeof value === 'string') return [text];
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => mutations(item, text).map((m) => value.map((v, j) => (j === i ? m : v))));
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    return [{ ...value, [text]: 'value' }, ...entries.flatMap(([key, item]) => mutations(item, text).map((m) => ({ ...value, [key]: m })))];
  }
  return [];
}

const offerLetter = {
  name: 'Offer letter',
  description: 'Standard offer',
  content: {
    elements: [
      { id: '1', type: 'heading', content: 'Offer for {{client_name}}' },
      { id: '2', type: 'list', items: ['Salary {{salary}}'] },
      { id: '3', type: 'table', rows: [['Start', '{{start}}']] },
    ],
    header: { text: 'Page {{page}}' },
  },
  placeholders: [
    { name: 'client_name', label: 'Client', type: 'text', required: true },
    { name: 'team', type: 'select', required: false, options: ['Design'] },
  ],
};

let t: TTestApp;
let user: TestClient;
let admin: TestClient;
const ids: Record<string, string> = {};
let apiKey = '';

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'corpus-admin@example.com' });
  user = new TestClient(t.app);
  const { user: created } = await user.signUp();
  admin = new TestClient(t.app);
  await signUpVerified(t, admin, { email: 'corpus-admin@example.com' });
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, created.id));
  apiKey = ((await user.post('/api/user/api-keys', { name: 'Corpus' })).json() as { key: string }).key;
  const format = (await user.post('/api/formats', offerLetter)).json() as TFormat;
  const document = (await user.post('/api/documents', { formatId: format.id, data: { client_name: 'Ann' } })).json() as { id: string };
  const draft = (await user.upload(`/api/formats/${format.id}/bulk`, 'file', 'people.csv', Buffer.from('Client\nAnn\nBob\n'), 'text/csv')).json() as {
    id: string;
  };
  const gateway = (
    await admin.post('/api/admin/payment-gateways', { gatewayName: 'stripe', keyId: 'pk_test_1', keySecret: 'sk_test_1', isActive: false })
  ).json() as { id: string };
  Object.assign(ids, { format: format.id, document: document.id, draft: draft.id, user: created.id, gateway: gateway.id });
});
afterAll(async () => {
  await t.close();
});

/** The real resource a path parameter points at, so a mutated body reaches the code behind it. */
function pathFor(route: string): string {
  return route
    .replace(/^\/api(\/v1)?\/formats\/\{id\}/, `/api$1/formats/${ids.format}`)
    .replace(/^\/api(\/v1)?\/documents\/\{id\}/, `/api$1/documents/${ids.document}`)
    .replace('/api/bulk-jobs/{id}', `/api/bulk-jobs/${ids.draft}`)
    .replace('/api/admin/users/{id}', `/api/admin/users/${ids.user}`)
    .replace('/api/admin/payment-gateways/{id}', `/api/admin/payment-gateways/${ids.gateway}`)
    .replace('{key}', 'support.email')
    .replace(/\{[^}]+\}/g, randomUUID());
}

/** Routes that end the session the test runs with, or are not JSON endpoints of ours. */
const SKIPPED = [/^\/api\/logout$/, /^\/api\/identity\//, /^\/\{\*\}$/, /^\/api\/(internal\/)?openapi\.json$/];

describe('hostile strings in every JSON endpoint', () => {
  it('never answer 5xx, in a body, a query string or a path', { timeout: 300_000 }, async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/internal/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema: TSchema }> }; parameters?: { in: string; name: string }[] }>>;
    };
    const failures: string[] = [];
    let requests = 0;
    const send = async (method: string, url: string, body?: unknown) => {
      const client = url.startsWith('/api/admin') ? admin : user;
      requests++;
      const keyed = url.startsWith('/api/v1/') || url.startsWith('/api/documents/generate');
      const response = await client.request(method.toUpperCase(), url, body, keyed ? { authorization: `Bearer ${apiKey}` } : {});
      if (response.statusCode >= 500) failures.push(`${method.toUpperCase()} ${url.slice(0, 120)} -> ${response.statusCode} ${response.body.slice(0, 200)}`);
    };

    for (const [route, operations] of Object.entries(document.paths)) {
      if (SKIPPED.some((re) => re.test(route))) continue;
      for (const [method, operation] of Object.entries(operations)) {
        const url = pathFor(route);
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        const baseline =
          route === '/api/formats' || route === '/api/v1/formats' || route === '/api/formats/preview' || route === '/api/formats/{id}'
            ? offerLetter
            : route === '/api/documents/generate'
              ? { template_id: ids.format, data: { client_name: 'Ann' } }
              : route === '/api/documents' || route === '/api/v1/documents'
                ? { formatId: ids.format, name: 'Doc', clientName: 'Ann', data: { client_name: 'Ann', team: 'Design' } }
                : sample(schema);
        for (const [, text] of CORPUS) {
          if (schema) for (const body of mutations(baseline, text)) await send(method, url, body);
          const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
          for (const parameter of query) await send(method, `${url}?${parameter.name}=${encodeRaw(text)}`, schema ? baseline : undefined);
          const params = (operation.parameters ?? []).filter((p) => p.in === 'path');
          if (params.length > 0 && method !== 'delete') {
            await send(method, route.replace(/\{[^}]+\}/g, encodeRaw(text)), schema ? baseline : undefined);
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(1_000);
    expect(failures).toEqual([]);
  });

  it('answers a team named by hostile text as no team, before it reaches the database', async () => {
    // The team is read before the request's own validation, from a header or, for reads, `?team=`.
    for (const [name, text] of [...CORPUS, ['a UUID of no team', randomUUID()] as [string, string]]) {
      const byQuery = await user.get(`/api/formats?team=${encodeRaw(text)}`);
      expect(byQuery.statusCode, `${name}: ${byQuery.body.slice(0, 200)}`).toBe(404);
      expect((byQuery.json() as { error: { message: string } }).error.message).toMatch(/Team not found/);
    }
    const byHeader = await user.request('GET', '/api/formats', undefined, { 'x-formwork-team': 'x'.repeat(10_000) });
    expect(byHeader.statusCode).toBe(404);
  });

  it('refuses a body nested deeper than any schema, and a gateway setting that is not a single value', async () => {
    // Written out by hand: JSON.stringify itself runs out of stack on a value this deep.
    const nested = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/payment-gateways/${ids.gateway}`,
      headers: { cookie: admin.cookieHeader, origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: `{"configuration":{"extra":${'['.repeat(50_000)}"bottom\\u0000"${']'.repeat(50_000)}}}`,
    });
    expect(nested.statusCode, nested.body.slice(0, 200)).toBe(400);
    expect((nested.json() as { error: { message: string } }).error.message).toMatch(/Nested more than 64 levels deep/);
    const object = await admin.request('PATCH', `/api/admin/payment-gateways/${ids.gateway}`, { configuration: { extra: { a: 'b\u0000' } } });
    expect(object.statusCode, object.body.slice(0, 200)).toBe(400);
    const single = await admin.request('PATCH', `/api/admin/payment-gateways/${ids.gateway}`, { configuration: { region: 'eu', retries: 3 } });
    expect(single.statusCode, single.body.slice(0, 200)).toBe(200);
  });

  it('names the field a NUL or an unpaired surrogate was sent in', async () => {
    const nul = await user.post('/api/formats', { ...offerLetter, name: 'Offer\u0000letter' });
    expect(nul.statusCode).toBe(400);
    expect((nul.json() as { error: { fields: Record<string, string> } }).error.fields).toHaveProperty('name');
    const nested = await user.post('/api/documents', { formatId: ids.format, data: { client_name: 'Ann \uD83D' } });
    expect(nested.statusCode).toBe(400);
    expect((nested.json() as { error: { fields: Record<string, string> } }).error.fields).toHaveProperty(['data.client_name']);
  });

  it('sends a document or preview whose stored name has an unpaired surrogate with a well-formed file name', async () => {
    // A name stored before these checks existed, or from a file name, must not break the download header.
    const { documents } = await import('../db/schema.ts');
    const { eq } = await import('drizzle-orm');
    await t.database.db.update(documents).set({ name: 'Broken \uD800 name' }).where(eq(documents.id, ids.document!));
    const download = await user.get(`/api/documents/${ids.document}/download`);
    expect(download.statusCode).toBe(200);
    expect(String(download.headers['content-disposition'])).toMatch(/filename\*=UTF-8''Broken%20%EF%BF%BD%20name\.pdf/);
  });

  it('refuses upload file names with a NUL or a broken character without a 5xx', async () => {
    for (const name of ['a\u0000b.png', 'x\uD800.png', 'a\r\nb.docx']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/formats/import',
        headers: { cookie: user.cookieHeader, origin: TEST_ORIGIN, 'content-type': 'multipart/form-data; boundary=b' },
        payload: Buffer.concat([
          Buffer.from(`--b\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`),
          Buffer.from('Dear {{name}}'),
          Buffer.from('\r\n--b--\r\n'),
        ]),
      });
      expect(response.statusCode).toBeLessThan(500);
    }
  });
});
