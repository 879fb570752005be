import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZSharedDocument, ZShareLink, type TShareLink } from '../../../contract/delivery.ts';
import { shareLinks } from '../../db/schema.ts';
import { createTestApp, TEST_ORIGIN, TestClient, type TTestApp } from '../../test/test-app.ts';

/*
 * Share links: a document opened by anyone holding the link, with no account and no cookie, and
 * nothing else of its owner's; expired, revoked and unknown links all answer the same 404.
 */

let t: TTestApp;
const webDir = mkdtempSync(path.join(os.tmpdir(), 'formwork-share-web-'));
beforeAll(async () => {
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Formwork</title><div id="root"></div>');
  t = await createTestApp({ WEB_DIST_DIR: webDir });
});
afterAll(async () => {
  await t.close();
  rmSync(webDir, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A visitor with nothing: no cookie, no header but what a browser sends for a link. */
const anonymous = (url: string) => t.app.inject({ method: 'GET', url });
const tokenOf = (link: TShareLink) => link.url.split('/s/')[1]!;

async function ownerWithDocument() {
  const client = new TestClient(t.app);
  await client.signUp();
  const format = (
    await client.post('/api/formats', {
      name: 'Lease',
      content: { elements: [{ id: 'p', type: 'paragraph', content: 'Lease for {{client_name}} at {{address}}.' }] },
      placeholders: [
        { name: 'client_name', type: 'text' },
        { name: 'address', type: 'text' },
      ],
    })
  ).json() as { id: string };
  const document = (await client.post('/api/documents', { formatId: format.id, data: { client_name: 'Jane Doe', address: '1 Secret Lane' } })).json() as {
    id: string;
    name: string;
  };
  return { client, document };
}

async function share(client: TestClient, documentId: string, body: unknown = {}) {
  const created = await client.post(`/api/documents/${documentId}/share`, body);
  expect(created.statusCode, created.body).toBe(201);
  return ZShareLink.parse(created.json());
}

describe('share links', () => {
  it('are unguessable, stored only as a hash and sealed, and expire after the days asked for', async () => {
    const { client, document } = await ownerWithDocument();
    const link = await share(client, document.id, { expiresInDays: 3 });
    expect(link.url).toMatch(new RegExp(`^${TEST_ORIGIN}/s/[A-Za-z0-9_-]{43}$`));
    const days = (Date.parse(link.expiresAt) - Date.parse(link.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(3, 5);
    expect(link).toMatchObject({ active: true, views: 0, downloads: 0, revokedAt: null, origin: 'manual' });
    const token = tokenOf(link);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const [row] = await t.database.db.select().from(shareLinks).where(eq(shareLinks.id, link.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(row!.tokenEnc).not.toContain(token);
    const again = await share(client, document.id);
    expect(tokenOf(again)).not.toBe(token);
    expect((Date.parse(again.expiresAt) - Date.parse(again.createdAt)) / 86_400_000).toBeCloseTo(7, 5);
    for (const expiresInDays of [0, 91, 1.5]) {
      expect((await client.post(`/api/documents/${document.id}/share`, { expiresInDays })).statusCode).toBe(400);
    }
  });

  it('open the PDF with no cookies, the same bytes as the owner’s download, and show nothing else of the owner’s', async () => {
    const { client, document } = await ownerWithDocument();
    const token = tokenOf(await share(client, document.id));

    const page = await anonymous(`/s/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');

    const meta = await anonymous(`/api/share/${token}`);
    expect(meta.statusCode).toBe(200);
    expect(Object.keys(meta.json() as object).sort()).toEqual(['createdAt', 'expiresAt', 'name', 'sizeBytes']);
    const shared = ZSharedDocument.parse(meta.json());
    expect(shared.name).toBe(document.name);
    expect(meta.body).not.toContain(document.id);
    expect(meta.body).not.toContain('1 Secret Lane');
    expect(meta.headers['cache-control']).toBe('private, no-store');

    const inline = await anonymous(`/api/share/${token}/pdf`);
    expect(inline.statusCode).toBe(200);
    expect(inline.headers['content-type']).toBe('application/pdf');
    expect(inline.headers['content-disposition']).toMatch(/^inline/);
    const attachment = await anonymous(`/api/share/${token}/pdf?download=1`);
    expect(attachment.headers['content-disposition']).toMatch(/^attachment/);
    const download = await client.get(`/api/documents/${document.id}/download`);
    expect(sha256(inline.rawPayload)).toBe(sha256(download.rawPayload));
    expect(shared.sizeBytes).toBe(download.rawPayload.byteLength);
  });

  it('count views and downloads', async () => {
    const { client, document } = await ownerWithDocument();
    const link = await share(client, document.id);
    await anonymous(`/api/share/${tokenOf(link)}`);
    await anonymous(`/api/share/${tokenOf(link)}`);
    await anonymous(`/api/share/${tokenOf(link)}/pdf?download=1`);
    const [listed] = (await client.get(`/api/documents/${document.id}/share-links`)).json() as TShareLink[];
    expect(listed).toMatchObject({ id: link.id, views: 2, downloads: 1, url: link.url });
    expect(listed!.lastViewedAt).not.toBeNull();
  });

  it('answer 404 once expired', async () => {
    const { client, document } = await ownerWithDocument();
    const link = await share(client, document.id);
    const token = tokenOf(link);
    await t.database.db
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(shareLinks.id, link.id));
    expect((await anonymous(`/api/share/${token}`)).statusCode).toBe(404);
    expect((await anonymous(`/api/share/${token}/pdf`)).statusCode).toBe(404);
    expect((await anonymous(`/s/${token}`)).statusCode).toBe(404);
    const [listed] = (await client.get(`/api/documents/${document.id}/share-links`)).json() as TShareLink[];
    expect(listed).toMatchObject({ active: false, revokedAt: null });
  });

  it('answer 404 once revoked, and only their owner may revoke them', async () => {
    const { client, document } = await ownerWithDocument();
    const link = await share(client, document.id);
    const token = tokenOf(link);
    const stranger = new TestClient(t.app);
    await stranger.signUp();
    expect((await stranger.request('DELETE', `/api/share-links/${link.id}`)).statusCode).toBe(404);
    expect((await anonymous(`/api/share/${token}`)).statusCode).toBe(200);

    const revoked = await client.request('DELETE', `/api/share-links/${link.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(ZShareLink.parse(revoked.json())).toMatchObject({ active: false, revokedAt: expect.any(String) });
    expect((await anonymous(`/api/share/${token}`)).statusCode).toBe(404);
    expect((await anonymous(`/api/share/${token}/pdf`)).statusCode).toBe(404);
    expect((await anonymous(`/s/${token}`)).statusCode).toBe(404);
  });

  it('cannot be made or listed by another user (404), and go with their document', async () => {
    const { client, document } = await ownerWithDocument();
    const stranger = new TestClient(t.app);
    await stranger.signUp();
    const refused = await stranger.post(`/api/documents/${document.id}/share`, {});
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ error: { code: 'not_found', message: 'Document not found.' } });
    expect((await stranger.get(`/api/documents/${document.id}/share-links`)).statusCode).toBe(404);
    expect((await new TestClient(t.app).post(`/api/documents/${document.id}/share`, {})).statusCode).toBe(401);

    const token = tokenOf(await share(client, document.id));
    await client.request('DELETE', `/api/documents/${document.id}`);
    expect((await anonymous(`/api/share/${token}`)).statusCode).toBe(404);
  });

  it('answer unknown and malformed tokens with the same 404', async () => {
    for (const token of ['A'.repeat(43), 'short', '../../etc/passwd', '%00']) {
      const answer = await anonymous(`/api/share/${encodeURIComponent(token)}`);
      expect(answer.statusCode, token).toBe(404);
      expect(answer.json()).toMatchObject({ error: { code: 'not_found', message: 'Link not found.' } });
    }
    expect((await anonymous(`/s/${'A'.repeat(43)}`)).statusCode).toBe(404);
  });
});
