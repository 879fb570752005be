import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents.ts';
import { MAX_IMAGE_ADDRESSES } from '../../../contract/format-content.ts';
import type { TFormat, TFormatInput } from '../../../contract/formats.ts';
import { DEFAULT_PLAN_CATALOGUE, DEFAULT_STORAGE_MB } from '../../../contract/plan-catalogue.ts';
import type { TUserStats } from '../../../contract/user.ts';
import { assets, workspaces } from '../../db/schema.ts';
import { PLAN_CATALOGUE_SETTING } from '../system/index.ts';
import { errorOf, createTestApp, TestClient, type TTestApp, signUpVerified } from '../../test/test-app.ts';
import { IMAGE_FETCHES_PER_MINUTE } from './assets.service.ts';

/*
 * Images given by address are fetched when a format is saved (or previewed before saving), kept
 * as the owner's assets, and never fetched by a render. One budget a minute covers every fetch,
 * failures are remembered, and what a user keeps is bounded by their plan's storage allowance.
 */

const png = await sharp({ create: { width: 30, height: 10, channels: 3, background: '#c33' } })
  .png()
  .toBuffer();

let t: TTestApp;
let host: http.Server;
let port = 0;
const hits = new Map<string, number>();
const hitsOn = (prefix: string) => [...hits].filter(([url]) => url.startsWith(prefix)).reduce((sum, [, n]) => sum + n, 0);

beforeAll(async () => {
  host = http.createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    if (req.url!.startsWith('/dead')) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.2', resolve));
  port = (host.address() as AddressInfo).port;
  t = await createTestApp({ IMAGE_FETCH_ALLOWED_IPS: '127.0.0.2', ADMIN_EMAILS: 'budget-admin@example.com' });
});
afterAll(async () => {
  host.close();
  await t.close();
});

const address = (path: string) => `http://127.0.0.2:${port}${path}`;
function withImages(srcs: string[]): TFormatInput {
  return {
    name: 'Pictures',
    content: {
      elements: [
        { id: 'p', type: 'paragraph', content: 'Hello {{name}}' },
        ...srcs.map((src, i) => ({ id: `i${i}`, type: 'image' as const, src, width: 30, height: 10 })),
      ],
    },
    placeholders: [{ name: 'name', type: 'text', required: false }],
  };
}
async function basicUser() {
  const client = new TestClient(t.app);
  const { user } = await client.signUp();
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'basic' }).where(eq(workspaces.id, user.id));
  return { client, user };
}

describe('images by address', () => {
  it(`refuses a format with more than ${MAX_IMAGE_ADDRESSES} different image addresses`, async () => {
    const { client } = await basicUser();
    const srcs = Array.from({ length: MAX_IMAGE_ADDRESSES + 1 }, (_, i) => address(`/too-many/${i}.png`));
    const saved = await client.post('/api/formats', withImages(srcs));
    expect(saved.statusCode).toBe(400);
    expect(errorOf(saved).message).toMatch(/at most 50 different images by address/);
    const preview = await client.post('/api/formats/preview', withImages(srcs));
    expect(preview.statusCode).toBe(400);
    expect(hitsOn('/too-many/')).toBe(0);
  });

  it('fetches each image once, when the format is saved; previews, documents and downloads never fetch', async () => {
    const { client } = await basicUser();
    const srcs = Array.from({ length: 5 }, (_, i) => address(`/once/${i}.png`));
    const format = (await client.post('/api/formats', withImages([...srcs, srcs[0]!]))).json() as TFormat;
    expect(hitsOn('/once/')).toBe(5);

    expect((await client.get(`/api/formats/${format.id}/preview`)).statusCode).toBe(200);
    const document = (await client.post('/api/documents', { formatId: format.id, data: { name: 'Ann' } })).json() as TDocument;
    expect((await client.get(`/api/documents/${document.id}/download`)).statusCode).toBe(200);
    expect((await client.request('PUT', `/api/formats/${format.id}`, withImages(srcs))).statusCode).toBe(200);
    expect(hitsOn('/once/')).toBe(5);
  });

  it('remembers an address that failed instead of fetching it on every save and preview', async () => {
    const { client } = await basicUser();
    const body = withImages([address('/dead/logo.png')]);
    const format = (await client.post('/api/formats', body)).json() as TFormat;
    expect(hitsOn('/dead/')).toBe(1);
    expect((await client.request('PUT', `/api/formats/${format.id}`, body)).statusCode).toBe(200);
    expect((await client.post('/api/formats/preview', body)).statusCode).toBe(200);
    const explicit = await client.post('/api/assets/from-url', { url: address('/dead/logo.png') });
    expect(explicit.statusCode).toBe(422);
    expect(errorOf(explicit).message).toContain('answered 404');
    expect(hitsOn('/dead/')).toBe(1);
  });

  it('counts saves, previews and Use URL against one fetch budget per user', async () => {
    const { client } = await basicUser();
    const first = Array.from({ length: MAX_IMAGE_ADDRESSES }, (_, i) => address(`/budget/a${i}.png`));
    const second = Array.from({ length: MAX_IMAGE_ADDRESSES }, (_, i) => address(`/budget/b${i}.png`));
    expect((await client.post('/api/formats', withImages(first))).statusCode).toBe(201);
    expect((await client.post('/api/formats/preview', withImages(second))).statusCode).toBe(200);
    expect(hitsOn('/budget/')).toBe(IMAGE_FETCHES_PER_MINUTE);
    const useUrl = await client.post('/api/assets/from-url', { url: address('/budget/c.png') });
    expect(useUrl.statusCode).toBe(429);
    expect(errorOf(useUrl).message).toMatch(/^Too many images fetched by address/);
    expect(hitsOn('/budget/')).toBe(IMAGE_FETCHES_PER_MINUTE);
  });
});

describe('storage allowance', () => {
  it('refuses an image that would pass the plan allowance with a clear 413, and shows the usage', async () => {
    // A catalogue whose free plan keeps 1 MB, set by an admin.
    const catalogue = DEFAULT_PLAN_CATALOGUE.map((plan) => (plan.id === 'free' ? { ...plan, storageMb: 1 } : plan));
    const admin = new TestClient(t.app);
    await signUpVerified(t, admin, { email: 'budget-admin@example.com' });
    const saved = await admin.request('PUT', `/api/admin/settings/${PLAN_CATALOGUE_SETTING}`, { value: JSON.stringify(catalogue) });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      const client = new TestClient(t.app);
      const { user } = await client.signUp();
      const limitBytes = 1024 * 1024;
      // Fill all but a few bytes of the allowance.
      await t.database.db.insert(assets).values({
        id: `filler-${user.id}`,
        ownerId: user.id,
        mimeType: 'image/png',
        bytes: Buffer.alloc(limitBytes - 100),
        sha256: 'filler',
      });
      const stats = (await client.get('/api/user/stats')).json() as TUserStats;
      expect(stats.storageLimitBytes).toBe(limitBytes);
      expect(stats.storageUsedBytes).toBe(limitBytes - 100);

      const refused = await client.upload('/api/upload/image', 'image', 'logo.png', png, 'image/png');
      expect(refused.statusCode).toBe(413);
      const error = errorOf(refused);
      expect(error.code).toBe('storage_limit');
      expect(error.message).toMatch(/your images use 1 MB of the 1 MB your Free plan includes/);

      const byAddress = await client.post('/api/assets/from-url', { url: address('/storage/logo.png') });
      expect(byAddress.statusCode).toBe(413);

      // A larger plan has room: basic keeps its default allowance.
      await t.database.db.update(workspaces).set({ subscriptionPlan: 'basic' }).where(eq(workspaces.id, user.id));
      expect(((await client.get('/api/user/stats')).json() as TUserStats).storageLimitBytes).toBe(DEFAULT_STORAGE_MB.basic * 1024 * 1024);
      expect((await client.upload('/api/upload/image', 'image', 'logo.png', png, 'image/png')).statusCode).toBe(200);
    } finally {
      expect((await admin.request('DELETE', `/api/admin/settings/${PLAN_CATALOGUE_SETTING}`)).statusCode).toBe(204);
    }
  });
});
