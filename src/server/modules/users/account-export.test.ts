import { eq } from 'drizzle-orm';
import JSZip from 'jszip';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAccountExport, ZAccountExportStatus, type TAccountExportStatus } from '../../../contract/account-data.ts';
import { ZCreatedApiKey } from '../../../contract/api-keys.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { accountExports, workspaces } from '../../db/schema.ts';
import { createTestAppWithMail, NOTICES_ACCOUNT } from '../../test/mail-test-app.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { signUpVerified, TestClient, type TTestApp } from '../../test/test-app.ts';
import { safeFileBaseName } from '../../http/send-file.ts';
import { ACCOUNT_EXPORT_LIMITS } from './account-export.ts';

/*
 * "Export my data": the ZIP read back entry by entry. Its formats go back in through the public
 * API unchanged, its PDFs are the downloads' bytes, its data files say what the documents hold.
 * A large account's export is built by the job queue (the threshold lowered to two documents
 * here) and announced by email; each user has one export in flight and a few a day.
 */

const ADMIN_EMAIL = 'export-admin@example.com';
let t: TTestApp;
let smtp: TSmtpStandIn;

beforeAll(async () => {
  ({ t, smtp } = await createTestAppWithMail({
    adminEmail: ADMIN_EMAIL,
    mail: { ...NOTICES_ACCOUNT, fromAddress: 'notices@formwork.test', fromName: 'Formwork' },
    background: { accountExportBackgroundAbove: 2 },
  }));
});
afterAll(() => t.close());

const LEASE = {
  name: 'Lease, "short" form',
  description: 'Flat leases',
  content: {
    elements: [
      { id: 'h', type: 'heading', content: 'Lease' },
      { id: 'p', type: 'paragraph', content: 'Lease for {{client_name}} at {{address}}, rent {{rent}}.' },
    ],
  },
  placeholders: [
    { name: 'client_name', type: 'text' },
    { name: 'address', type: 'text' },
    { name: 'rent', type: 'number' },
  ],
};

async function member(name = 'Ada') {
  const client = new TestClient(t.app);
  const { user } = await signUpVerified(t, client, { firstName: name }, smtp);
  return { client, userId: user.id, email: user.email };
}

async function withDocuments(client: TestClient, count: number) {
  const format = await client.post('/api/formats', LEASE);
  expect(format.statusCode, format.body).toBe(201);
  const formatId = (format.json() as { id: string }).id;
  const documents: { id: string; name: string; data: Record<string, string> }[] = [];
  for (let i = 0; i < count; i++) {
    const data = { client_name: `Jane ${i}`, address: `Flat ${i}, "Rose" House\nLeeds`, rent: `-${1200 + i}` };
    const created = await client.post('/api/documents', { formatId, data });
    expect(created.statusCode, created.body).toBe(201);
    documents.push(created.json() as { id: string; name: string; data: Record<string, string> });
  }
  return { formatId, documents };
}

/** A CSV as rows of cells (RFC 4180 quoting), enough for what the export writes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

const errorOf = (body: string) => ZApiError.parse(JSON.parse(body)).error;

async function statusOf(client: TestClient): Promise<TAccountExportStatus> {
  const response = await client.get('/api/user/exports/status');
  expect(response.statusCode, response.body).toBe(200);
  return ZAccountExportStatus.parse(response.json());
}

/** The status once the newest export is no longer running (a direct one is recorded just after its last byte is read). */
async function settled(client: TestClient): Promise<TAccountExportStatus> {
  let status = await statusOf(client);
  for (let i = 0; i < 300 && status.latest?.status === 'running'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = await statusOf(client);
  }
  return status;
}

/** An entry's name as the archive writes it (characters file systems refuse are spaces). */
const entry = (name: string) => safeFileBaseName(name);

describe('export my data', () => {
  it('gives a ZIP whose formats re-import through the API, whose PDFs are the downloads, and whose data matches', async () => {
    const { client, userId } = await member();
    await t.database.db
      .update(workspaces)
      .set({ subscriptionPlan: 'enterprise', smtpHost: 'smtp.example.com', enterpriseEmail: 'ada@example.com' })
      .where(eq(workspaces.id, userId));
    const key = ZCreatedApiKey.parse((await client.post('/api/user/api-keys', { name: 'Server', mode: 'live' })).json());
    const { formatId, documents } = await withDocuments(client, 2);
    const link = await client.post(`/api/documents/${documents[0]!.id}/share`, {});
    expect(link.statusCode, link.body).toBe(201);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 10, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    const uploaded = await client.upload('/api/upload/image', 'image', 'logo.png', png);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const imageUrl = (uploaded.json() as { url: string }).url;
    const assetId = imageUrl.split('/').at(-1)!;

    const response = await client.get('/api/user/export');
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="formwork-data-\d{4}-\d{2}-\d{2}\.zip"/);
    const zip = await JSZip.loadAsync(response.rawPayload);
    const names = Object.keys(zip.files)
      .filter((n) => !zip.files[n]!.dir)
      .sort();
    expect(names).toEqual(
      [
        'README.txt',
        'account/api-keys.json',
        'account/email-settings.json',
        'account/profile.json',
        'account/share-links.json',
        'account/subscription.json',
        'account/webhooks.json',
        `assets/${assetId}.png`,
        'formats/Lease, short form.json',
        'invoices/invoices.json',
        ...documents.flatMap((d) => [`documents/${entry(d.name)}.csv`, `documents/${entry(d.name)}.json`, `documents/${entry(d.name)}.pdf`]),
      ].sort(),
    );
    const text = (name: string) => zip.file(name)!.async('string');

    // The format, as the API takes it: created again through POST /api/v1/formats, it is the same.
    const exported = JSON.parse(await text('formats/Lease, short form.json')) as Record<string, unknown>;
    expect(Object.keys(exported).sort()).toEqual(['content', 'description', 'name', 'placeholders']);
    const reimported = await t.app.inject({
      method: 'POST',
      url: '/api/v1/formats',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify(exported),
    });
    expect(reimported.statusCode, reimported.body).toBe(201);
    const original = (await client.get(`/api/formats/${formatId}`)).json() as Record<string, unknown>;
    const copy = (await client.get(`/api/formats/${(reimported.json() as { id: string }).id}`)).json() as Record<string, unknown>;
    for (const field of ['name', 'description', 'content', 'placeholders']) expect(copy[field]).toEqual(original[field]);

    for (const document of documents) {
      const download = await client.get(`/api/documents/${document.id}/download`);
      expect(download.statusCode).toBe(200);
      const pdf = await zip.file(`documents/${entry(document.name)}.pdf`)!.async('nodebuffer');
      expect(pdf.equals(download.rawPayload)).toBe(true);

      const json = JSON.parse(await text(`documents/${entry(document.name)}.json`)) as { id: string; data: unknown };
      const listed = ((await client.get('/api/documents')).json() as { id: string }[]).find((d) => d.id === document.id);
      expect(json).toEqual(listed);
      expect(json.data).toEqual(document.data);

      const [header, values, ...rest] = parseCsv(await text(`documents/${entry(document.name)}.csv`));
      expect(rest).toEqual([]);
      const row = Object.fromEntries(header!.map((name, i) => [name, values![i]]));
      // A value a spreadsheet would run as a formula keeps a ' in front (the rent is negative).
      expect(row).toEqual({ ...document.data, rent: `'${document.data.rent}` });
    }

    const image = await zip.file(`assets/${assetId}.png`)!.async('nodebuffer');
    expect(image.equals((await client.get(imageUrl)).rawPayload)).toBe(true);

    const keys = JSON.parse(await text('account/api-keys.json')) as { name: string; prefix: string }[];
    expect(keys).toEqual([expect.objectContaining({ name: 'Server', prefix: `fw_live_…${key.last4}` })]);
    const everything = (await Promise.all(names.filter((n) => !n.endsWith('.pdf')).map(text))).join('\n');
    expect(everything).not.toContain(key.key);
    for (const secret of ['keyHash', 'tokenHash', 'tokenEnc', 'secretEnc', 'PasswordEnc']) expect(everything).not.toContain(secret);
    expect(JSON.parse(await text('account/email-settings.json'))).toEqual({
      fromAddress: 'ada@example.com',
      smtpHost: 'smtp.example.com',
      smtpPort: null,
      smtpSecure: true,
    });
    expect(JSON.parse(await text('account/share-links.json'))).toEqual([expect.objectContaining({ documentId: documents[0]!.id, origin: 'manual' })]);
    expect(JSON.parse(await text('account/profile.json'))).toMatchObject({ id: userId, plan: 'enterprise', firstName: 'Ada' });
    expect(await text('README.txt')).toContain('POST /api/v1/formats');

    const status = await settled(client);
    expect(status.latest).toMatchObject({ kind: 'direct', status: 'ready', documentsTotal: 2 });
    expect(status.remainingToday).toBe(ACCOUNT_EXPORT_LIMITS.perDay - 1);
  });

  it('builds a large account’s export in the background, emails the link, and only its owner downloads it', async () => {
    const { client, email } = await member('Bea');
    const { documents } = await withDocuments(client, 3);
    const started = await client.get('/api/user/export');
    expect(started.statusCode, started.body).toBe(202);
    const job = ZAccountExport.parse(started.json());
    expect(job).toMatchObject({ kind: 'background', status: 'running', documentsTotal: 3, downloadUrl: null });

    // One export in flight: a second one waits for it.
    const again = await client.get('/api/user/export');
    expect(again.statusCode).toBe(429);
    expect(errorOf(again.body).message).toMatch(/being prepared already/);

    const status = await settled(client);
    expect(status.latest).toMatchObject({ id: job.id, status: 'ready', documentsDone: 3, downloadUrl: `/api/user/exports/${job.id}/download` });
    expect(new Date(status.latest!.expiresAt!).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 60 * 60_000);

    const download = await client.get(status.latest!.downloadUrl!);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.byteLength).toBe(status.latest!.bytes);
    const zip = await JSZip.loadAsync(download.rawPayload);
    for (const document of documents) {
      const pdf = await zip.file(`documents/${entry(document.name)}.pdf`)!.async('nodebuffer');
      expect(pdf.equals((await client.get(`/api/documents/${document.id}/download`)).rawPayload)).toBe(true);
    }

    const deadline = Date.now() + 10_000;
    let notice: string | undefined;
    while (!notice && Date.now() < deadline) {
      for (const message of smtp.messages.filter((m) => m.to.includes(email))) {
        const mail = await smtp.parse(message);
        if (mail.subject === 'Your Formwork data export is ready') notice = mail.text ?? '';
      }
      if (!notice) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(notice).toContain(`http://localhost:5000/api/user/exports/${job.id}/download`);

    // Nobody else's session opens it, and past its date neither does the owner's.
    const stranger = (await member('Cy')).client;
    expect((await stranger.get(status.latest!.downloadUrl!)).statusCode).toBe(404);
    await t.database.db
      .update(accountExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountExports.id, job.id));
    expect((await client.get(status.latest!.downloadUrl!)).statusCode).toBe(404);
    expect((await statusOf(client)).latest).toMatchObject({ status: 'expired', downloadUrl: null });
  });

  it(`allows ${ACCOUNT_EXPORT_LIMITS.perDay} exports a day, then answers 429 with when to come back`, async () => {
    const { client } = await member('Dee');
    for (let i = 0; i < ACCOUNT_EXPORT_LIMITS.perDay; i++) {
      expect((await client.get('/api/user/export')).statusCode).toBe(200);
      expect((await settled(client)).latest?.status).toBe('ready');
    }
    const refused = await client.get('/api/user/export');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(errorOf(refused.body).message).toMatch(/3 times in 24 hours/);
    expect((await statusOf(client)).remainingToday).toBe(0);
  });

  it('needs a session', async () => {
    expect((await new TestClient(t.app).get('/api/user/export')).statusCode).toBe(401);
  });
});
