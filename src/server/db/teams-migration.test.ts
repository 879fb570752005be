/**
 * Upgrading an installation across migration 0020 (teams). People, plans, mail servers, images,
 * formats, documents, a batch and an API key are made through the API; the database is then put
 * back on the schema before 0020 with every row kept, migrated as an upgrade does, and the app
 * started again on it. Everything must be where its owner left it, and every PDF the same bytes.
 */
import path from 'node:path';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAdminUser } from '../../contract/admin.ts';
import type { TFormat } from '../../contract/formats.ts';
import { buildApp } from '../app.ts';
import { finishedBatchOf } from '../test/finished-batch.ts';
import { rebuildBefore } from '../test/schema-before.ts';
import { startSmtpStandIn, type TSmtpStandIn } from '../test/smtp-stand-in.ts';
import { createTestApp, logInto, signUpVerified, TestClient, type TTestApp, TEST_PASSWORD_HASH_COST } from '../test/test-app.ts';
import { migrateDatabase } from './client.ts';

/** The columns 0020 moved from users to workspaces. */
const MOVED = [
  'subscription_plan',
  'api_enabled',
  'api_calls_limit',
  'quota_period',
  'enterprise_email',
  'enterprise_email_password_enc',
  'smtp_host',
  'smtp_port',
  'smtp_secure',
] as const;

/** The tables 0020 gave a created_by, filled with the owner. */
const CREATED_BY = ['formats', 'documents', 'bulk_jobs', 'api_keys'] as const;

const ADA_SMTP = { address: 'ada@engines.test', password: 'ada-smtp-password' };

const logo = await sharp({ create: { width: 60, height: 30, channels: 4, background: { r: 20, g: 90, b: 160, alpha: 0.8 } } })
  .png()
  .toBuffer();

const letter = (name: string, image?: string) => ({
  name,
  content: {
    elements: [
      ...(image ? [{ id: 'logo', type: 'image', src: image, width: 120, height: 60 }] : []),
      { id: 'h', type: 'heading', content: 'Offer for {{client_name}}', fontSize: 'text-2xl' },
      { id: 'p', type: 'paragraph', content: 'Salary {{salary}}, starting {{start}}.' },
    ],
  },
  placeholders: [
    { name: 'client_name', type: 'text', required: true },
    { name: 'salary', type: 'number', required: true },
    { name: 'start', type: 'date' },
  ],
});

type TPerson = { id: string; client: TestClient; formatId: string };
type TOwned = { id: string; owner_id: string };

let t: TTestApp;
let smtp: TSmtpStandIn;
let admin: TestClient;
const people: Record<'ada' | 'bob' | 'cleo', TPerson> = {} as never;
let apiKey: string;
let apiDocumentId: string;
const before = {
  formats: [] as TOwned[],
  documents: [] as TOwned[],
  pdfs: new Map<string, Buffer>(),
  apiPdf: Buffer.alloc(0) as Buffer,
  settings: [] as Record<string, unknown>[],
  adminUsers: [] as TAdminUser[],
  views: new Map<string, unknown>(),
};
/** The database between the old app and the new one, as 0019 left it. */
const between = { workspacesTable: 'unset' as string | null, adaPlan: '' };
/** The old app's warnings and errors, to tell why a PDF could not be made. */
const logLines: string[] = [];

const rows = async <T>(text: string, values: unknown[] = []) => (await t.database.executeSql(text, values)).rows as T[];
const ownedRows = (table: string) => rows<TOwned>(`select id, owner_id from ${table} order by id`);
const movedSettings = () => rows<Record<string, unknown>>(`select id, ${MOVED.join(', ')} from workspaces where kind = 'personal' order by id`);

/** What each person sees of their own things, one entry per person and page. */
async function views(get: (person: TPerson, url: string) => Promise<{ statusCode: number; json(): unknown }>) {
  const seen = new Map<string, unknown>();
  for (const [name, person] of Object.entries(people)) {
    for (const url of ['/api/formats', '/api/documents', '/api/user/email-settings', '/api/user/api-keys', '/api/bulk-jobs']) {
      const response = await get(person, url);
      expect(response.statusCode, `${name} ${url}`).toBe(200);
      seen.set(`${name} ${url}`, response.json());
    }
  }
  return seen;
}

async function personOn(plan: 'free' | 'enterprise', firstName: string, apiCallsLimit: number | null): Promise<TPerson> {
  const client = new TestClient(t.app);
  const { user } = await signUpVerified(t, client, { firstName });
  const changed = await admin.request('PATCH', `/api/admin/users/${user.id}`, { subscriptionPlan: plan, apiCallsLimit });
  expect(changed.statusCode, changed.body).toBe(200);
  return { id: user.id, client, formatId: '' };
}

async function formatOf(person: TPerson, body: ReturnType<typeof letter>): Promise<string> {
  const created = await person.client.post('/api/formats', body);
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as TFormat).id;
}

async function documentOf(person: TPerson, clientName: string) {
  const made = await person.client.post('/api/documents', { formatId: person.formatId, data: { client_name: clientName, salary: 91000, start: '2027-02-01' } });
  expect(made.statusCode, made.body).toBe(201);
}

beforeAll(async () => {
  smtp = await startSmtpStandIn({ accounts: { [ADA_SMTP.address]: ADA_SMTP.password } });
  // Loopback is allowed as a mail server only because the operator's list says so.
  t = await createTestApp(
    { ADMIN_EMAILS: 'root@example.com', IMAGE_FETCH_ALLOWED_IPS: '127.0.0.1', LOG_LEVEL: 'warn' },
    { mailTrustedCa: [smtp.ca] },
    { logStream: logInto(logLines) },
  );
  admin = new TestClient(t.app);
  await signUpVerified(t, admin, { email: 'root@example.com' });

  // Ada: Enterprise with her own limit and mail server, a logo, a batch and an API key.
  const ada = (people.ada = await personOn('enterprise', 'Ada', 2500));
  const uploaded = await ada.client.upload('/api/upload/image', 'image', 'logo.png', logo, 'image/png');
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  ada.formatId = await formatOf(ada, letter('Letterhead offer', (uploaded.json() as { url: string }).url));
  await formatOf(ada, letter('Plain offer'));
  const saved = await ada.client.request('PUT', '/api/user/email-settings', {
    enterpriseEmail: ADA_SMTP.address,
    enterpriseEmailPassword: ADA_SMTP.password,
    smtpHost: smtp.host,
    smtpPort: smtp.port,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  await documentOf(ada, 'Grace Hopper');
  await finishedBatchOf(ada.client, ada.formatId, 'hires.csv', Buffer.from('client_name,salary,start\nAlan Turing,88000,2027-03-01\nEmmy Noether,93000,\n'));
  const key = await ada.client.post('/api/user/api-keys', { name: 'Payroll system' });
  expect(key.statusCode, key.body).toBe(201);
  apiKey = (key.json() as { key: string }).key;
  const viaApi = await t.app.inject({
    method: 'POST',
    url: '/api/v1/documents',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ formatId: ada.formatId, data: { client_name: 'Katherine Johnson', salary: 97000 } }),
  });
  expect(viaApi.statusCode, viaApi.body).toBe(201);
  apiDocumentId = (viaApi.json() as { id: string }).id;
  // No screen sets this flag; it is carried for installations that had it.
  await rows(`update workspaces set api_enabled = true where id = $1`, [ada.id]);

  // Bob: Enterprise at the plan's limit, paid by the period, so his generations count from its start; a server without TLS.
  const bob = (people.bob = await personOn('enterprise', 'Bob', null));
  // What billing records when a payment starts a period (paying is tested in billing).
  await rows(`update workspaces set quota_period = $2 where id = $1`, [bob.id, new Date(Date.now() - 9 * 86_400_000).toISOString()]);
  bob.formatId = await formatOf(bob, letter('Bob’s offer'));
  const bobMail = await bob.client.request('PUT', '/api/user/email-settings', {
    enterpriseEmail: 'bob@builders.test',
    enterpriseEmailPassword: 'bob-smtp-password',
    smtpHost: '127.0.0.1',
    smtpPort: 2525,
    smtpSecure: false,
  });
  expect(bobMail.statusCode, bobMail.body).toBe(200);
  await documentOf(bob, 'Bea Builder');

  // Cleo: Free, everything as it comes.
  const cleo = (people.cleo = await personOn('free', 'Cleo', null));
  cleo.formatId = await formatOf(cleo, letter('Cleo’s offer'));
  await documentOf(cleo, 'Cid Client');

  before.formats = await ownedRows('formats');
  before.documents = await ownedRows('documents');
  const ownerOf = new Map(Object.values(people).map((person) => [person.id, person]));
  const storedHashes = new Map((await rows<{ id: string; pdf_sha256: string }>(`select id, pdf_sha256 from documents`)).map((r) => [r.id, r.pdf_sha256]));
  for (const document of before.documents) {
    const pdf = await ownerOf.get(document.owner_id)!.client.get(`/api/documents/${document.id}/download`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    // Printed again from its snapshot, a document gives the bytes it was made with.
    expect(createHash('sha256').update(pdf.rawPayload).digest('hex'), `${document.id}\n${logLines.join('')}`).toBe(storedHashes.get(document.id));
    before.pdfs.set(document.id, pdf.rawPayload);
  }
  before.apiPdf = (await t.app.inject({ url: `/api/v1/documents/${apiDocumentId}/pdf`, headers: { authorization: `Bearer ${apiKey}` } })).rawPayload;
  before.settings = await movedSettings();
  before.adminUsers = (await admin.get('/api/admin/users')).json() as TAdminUser[];
  before.views = await views((person, url) => person.client.get(url));

  // The upgrade: the old app stops, the database is as 0019 left it, the new one migrates and starts.
  await t.app.close();
  await rebuildBefore(t.database, '0020_teams', {
    users: { join: (schema) => `join ${schema}.workspaces w on w.personal_user_id = t.id`, columns: Object.fromEntries(MOVED.map((c) => [c, `w.${c}`])) },
  });
  between.workspacesTable = (await rows<{ name: string | null }>(`select to_regclass('public.workspaces')::text as name`))[0]!.name;
  between.adaPlan = (await rows<{ plan: string }>(`select subscription_plan as plan from users where id = $1`, [ada.id]))[0]!.plan;
  await migrateDatabase(t.database);
  // Without the cached files (and a new process remembers none) every PDF is printed again, from
  // the snapshot and the workspace's images.
  rmSync(path.join(t.config.dataDir, 'pdf-cache'), { recursive: true, force: true });
  t.app = await buildApp({ config: t.config, database: t.database, background: { mailTrustedCa: [smtp.ca], passwordHashCost: TEST_PASSWORD_HASH_COST } });
  await t.app.ready();
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** A request as `person` on the new app, with the session cookie they had before the upgrade. */
const asBefore = (person: { client: TestClient }) => {
  const client = new TestClient(t.app);
  const cookie = { cookie: person.client.cookieHeader };
  return { get: (url: string) => client.get(url, cookie), post: (url: string, body?: unknown) => client.post(url, body, cookie) };
};

describe('an installation upgraded across 0020 (teams)', () => {
  it('was on the schema before 0020, plans on the users, until it migrated', async () => {
    expect(between, logLines.join('')).toEqual({ workspacesTable: null, adaPlan: 'enterprise' });
    const applied = await rows<{ n: number }>(`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const journal = (await import('../../../drizzle/meta/_journal.json', { with: { type: 'json' } })).default as { entries: unknown[] };
    expect(applied[0]!.n).toBe(journal.entries.length);
  });

  it('keeps every format and document in its owner’s personal workspace, made by its owner', async () => {
    expect(before.formats.length).toBe(4);
    expect(before.documents.length).toBe(6);
    for (const table of ['formats', 'documents'] as const) {
      const now = await rows<TOwned & { kind: string; personal_user_id: string; created_by: string }>(
        `select r.id, r.owner_id, r.created_by, w.kind, w.personal_user_id from ${table} r join workspaces w on w.id = r.owner_id order by r.id`,
      );
      const expected = (table === 'formats' ? before.formats : before.documents).map((row) => ({
        ...row,
        created_by: row.owner_id,
        kind: 'personal',
        personal_user_id: row.owner_id,
      }));
      expect(now).toEqual(expected);
    }
    for (const table of CREATED_BY) {
      const [counts] = await rows<{ total: number; unfilled: number }>(
        `select count(*)::int as total, count(*) filter (where created_by is distinct from owner_id)::int as unfilled from ${table}`,
      );
      expect(counts, table).toEqual({ total: expect.any(Number), unfilled: 0 });
      expect(counts!.total, table).toBeGreaterThan(0);
    }
    expect(await views((person, url) => asBefore(person).get(url))).toEqual(before.views);
  });

  it('moves each person’s plan, limit, quota period and mail server to their workspace', async () => {
    expect(await movedSettings()).toEqual(before.settings);
    const ada = before.settings.find((row) => row.id === people.ada.id)!;
    expect(ada).toMatchObject({ subscription_plan: 'enterprise', api_enabled: true, api_calls_limit: 2500, smtp_host: smtp.host, smtp_port: smtp.port });
    expect(ada.enterprise_email_password_enc).toEqual(expect.stringMatching(/^v1\./));
    expect(before.settings.find((row) => row.id === people.bob.id)).toMatchObject({ quota_period: expect.any(String), smtp_secure: false, smtp_port: 2525 });
    expect(before.settings.find((row) => row.id === people.cleo.id)).toMatchObject({ subscription_plan: 'free', smtp_host: null, quota_period: null });
    // Usage counts in the paid period only while the quota period came along.
    expect(before.adminUsers.find((user) => user.id === people.bob.id)?.apiCallsUsed).toBe(1);
    expect((await asBefore({ client: admin }).get('/api/admin/users')).json()).toEqual(before.adminUsers);

    // Ada's sealed password still opens her own mail server.
    const sent = await asBefore(people.ada).post('/api/user/email-settings/test', {});
    expect(sent.statusCode, sent.body).toBe(200);
    await smtp.waitFor(1);
    expect(smtp.messages.at(-1)).toMatchObject({ user: ADA_SMTP.address, from: ADA_SMTP.address, secure: true });
  });

  it('prints every document again byte for byte as before', async () => {
    const ownerOf = new Map(Object.values(people).map((person) => [person.id, person]));
    for (const document of before.documents) {
      const pdf = await asBefore(ownerOf.get(document.owner_id)!).get(`/api/documents/${document.id}/download`);
      expect(pdf.statusCode, pdf.body).toBe(200);
      expect(Buffer.compare(pdf.rawPayload, before.pdfs.get(document.id)!), document.id).toBe(0);
    }
    const viaKey = await t.app.inject({ url: `/api/v1/documents/${apiDocumentId}/pdf`, headers: { authorization: `Bearer ${apiKey}` } });
    expect(viaKey.statusCode, viaKey.body).toBe(200);
    expect(Buffer.compare(viaKey.rawPayload, before.apiPdf)).toBe(0);
  });

  it('gives a new sign-up a personal workspace that their formats go in', async () => {
    const client = new TestClient(t.app);
    const { user } = await client.signUp({ firstName: 'Dora' });
    expect(await rows(`select kind, personal_user_id, subscription_plan from workspaces where id = $1`, [user.id])).toEqual([
      { kind: 'personal', personal_user_id: user.id, subscription_plan: 'free' },
    ]);
    const formatId = await formatOf({ id: user.id, client, formatId: '' }, letter('Dora’s offer'));
    expect(await rows(`select owner_id, created_by from formats where id = $1`, [formatId])).toEqual([{ owner_id: user.id, created_by: user.id }]);
  });
});
