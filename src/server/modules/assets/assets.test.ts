import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TFormat } from '../../../contract/formats.ts';
import type { TDocument } from '../../../contract/documents.ts';
import { assets } from '../../db/schema.ts';
import { createTestApp, TEST_ORIGIN, TestClient, type TTestApp } from '../../test/test-app.ts';
import { IMAGE_FETCHES_PER_MINUTE } from './assets.service.ts';
import { createSafeFetcher, ImageFetchError } from './safe-fetch.ts';

const png = await sharp({ create: { width: 40, height: 20, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 0.5 } } })
  .png()
  .toBuffer();
const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00f' } })
  .gif()
  .toBuffer();

function multipart(name: string, filename: string, bytes: Buffer, type = 'application/octet-stream') {
  const boundary = '----formwork-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(t: TTestApp, client: TestClient, filename: string, bytes: Buffer) {
  const { payload, headers } = multipart('image', filename, bytes);
  return t.app.inject({
    method: 'POST',
    url: '/api/upload/image',
    payload,
    headers: { ...headers, cookie: client.cookieHeader, origin: TEST_ORIGIN },
  });
}

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('image upload', () => {
  it('stores a PNG as an asset only its owner can read', async () => {
    const a = new TestClient(t.app);
    await a.signUp();
    const response = await upload(t, a, 'logo.png', png);
    expect(response.statusCode).toBe(200);
    const { url } = response.json() as { url: string };
    expect(url).toMatch(/^\/api\/assets\/[\w-]+$/);
    const read = await a.get(url);
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(read.rawPayload, png)).toBe(0);
    const b = new TestClient(t.app);
    await b.signUp();
    expect((await b.get(url)).statusCode).toBe(404);
    expect((await new TestClient(t.app).get(url)).statusCode).toBe(401);
  });

  it('sniffs the type from the bytes and converts GIF to PNG, whatever the file is called', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const response = await upload(t, client, 'photo.jpg', gif);
    expect(response.statusCode).toBe(200);
    const id = (response.json() as { url: string }).url.split('/').pop()!;
    const [row] = await t.database.db.select().from(assets).where(eq(assets.id, id));
    expect(row!.mimeType).toBe('image/png');
  });

  it('refuses what is not an image, an empty file and a file over 10 MB, with clear errors', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const text = await upload(t, client, 'evil.png', Buffer.from('<?php echo 1; ?>'));
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
    const empty = await upload(t, client, 'empty.png', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    const huge = await upload(t, client, 'huge.png', Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 10)]));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('puts the uploaded image into generated documents', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const { url } = (await upload(t, client, 'logo.png', png)).json() as { url: string };
    const format = (
      await client.post('/api/formats', {
        name: 'With logo',
        content: { elements: [{ id: '1', type: 'image', src: url, width: 120, height: 60 }] },
        placeholders: [],
      })
    ).json() as TFormat;
    const doc = (await client.post('/api/documents', { formatId: format.id, data: {} })).json() as TDocument;
    const pdf = (await client.get(`/api/documents/${doc.id}/download`)).rawPayload;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'formwork-assets-'));
    writeFileSync(path.join(dir, 'doc.pdf'), pdf);
    const list = execFileSync('pdfimages', ['-list', path.join(dir, 'doc.pdf')], { encoding: 'utf8' });
    expect(list).toMatch(/\b40\s+20\b/);
  });
});

describe('images by URL (SSRF guard)', () => {
  let hitsOnLoopback = 0;
  let trustedHits = 0;
  let loopback: http.Server;
  let trusted: http.Server;
  let loopbackPort = 0;
  let trustedPort = 0;

  beforeAll(async () => {
    loopback = http.createServer((_req, res) => {
      hitsOnLoopback++;
      res.end(png);
    });
    await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', resolve));
    loopbackPort = (loopback.address() as AddressInfo).port;
    // A server the operator trusts, which serves one image and one redirect into the private range.
    trusted = http.createServer((req, res) => {
      trustedHits++;
      if (req.url === '/missing') {
        res.writeHead(404).end();
      } else if (req.url === '/to-private') {
        res.writeHead(302, { location: `http://127.0.0.1:${loopbackPort}/secret` }).end();
      } else if (req.url === '/to-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else {
        res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      }
    });
    await new Promise<void>((resolve) => trusted.listen(0, '127.0.0.2', resolve));
    trustedPort = (trusted.address() as AddressInfo).port;
  });
  afterAll(() => {
    loopback.close();
    trusted.close();
  });

  const fetcher = () => createSafeFetcher({ timeoutMs: 2_000, maxBytes: 1024 * 1024, maxRedirects: 3, allowIps: ['127.0.0.2'] });

  it.each([
    ['loopback IPv4', () => `http://127.0.0.1:${loopbackPort}/x.png`],
    ['loopback by name', () => `http://localhost:${loopbackPort}/x.png`],
    ['loopback IPv6', () => `http://[::1]:${loopbackPort}/x.png`],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['private range', () => 'http://10.0.0.1/x.png'],
    ['a redirect to a private address', () => `http://127.0.0.2:${trustedPort}/to-private`],
    ['a redirect to the metadata address', () => `http://127.0.0.2:${trustedPort}/to-metadata`],
    ['a non-http scheme', () => 'file:///etc/passwd'],
  ])('refuses %s', async (_name, url) => {
    await expect(fetcher()(url())).rejects.toBeInstanceOf(ImageFetchError);
    expect(hitsOnLoopback).toBe(0);
  });

  it('fetches from an allowed address, with a size cap', async () => {
    const bytes = await fetcher()(`http://127.0.0.2:${trustedPort}/logo.png`);
    expect(Buffer.compare(bytes, png)).toBe(0);
    const tiny = createSafeFetcher({ timeoutMs: 2_000, maxBytes: 10, maxRedirects: 3, allowIps: ['127.0.0.2'] });
    await expect(tiny(`http://127.0.0.2:${trustedPort}/logo.png`)).rejects.toThrow(/larger than/);
  });

  it("keeps an image given by address as the owner's asset, fetched once, with clear errors", async () => {
    const allowed = await createTestApp({ IMAGE_FETCH_ALLOWED_IPS: '127.0.0.2' });
    try {
      const client = new TestClient(allowed.app);
      await client.signUp();
      const address = `http://127.0.0.2:${trustedPort}/logo.png?v=1`;
      const first = await client.post('/api/assets/from-url', { url: address });
      expect(first.statusCode, first.body).toBe(200);
      const { url } = first.json() as { url: string };
      expect(url).toMatch(/^\/api\/assets\/[\w-]+$/);
      const read = await client.get(url);
      expect(read.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(read.rawPayload, png)).toBe(0);
      const servedBefore = trustedHits;
      expect((await client.post('/api/assets/from-url', { url: address })).json()).toEqual({ url });
      expect(trustedHits).toBe(servedBefore);

      const other = new TestClient(allowed.app);
      await other.signUp();
      expect((await other.get(url)).statusCode).toBe(404);

      const refused = await client.post('/api/assets/from-url', { url: `http://127.0.0.1:${loopbackPort}/secret.png` });
      expect(refused.statusCode).toBe(422);
      expect((refused.json() as { error: { message: string } }).error.message).toMatch(/^The image at this address could not be loaded\./);
      expect(hitsOnLoopback).toBe(0);
      const missing = await client.post('/api/assets/from-url', { url: `http://127.0.0.2:${trustedPort}/missing` });
      expect(missing.statusCode).toBe(422);
      expect((missing.json() as { error: { message: string } }).error.message).toContain('answered 404');
      expect((await client.post('/api/assets/from-url', { url: 'ftp://example.com/x.png' })).statusCode).toBe(400);

      // A few fetches a minute per user; an address already kept costs nothing.
      const statuses: number[] = [];
      for (let i = 0; i < IMAGE_FETCHES_PER_MINUTE; i++) {
        statuses.push((await client.post('/api/assets/from-url', { url: `http://127.0.0.2:${trustedPort}/logo.png?n=${i}` })).statusCode);
      }
      expect(statuses.at(-1)).toBe(429);
      const limited = await client.post('/api/assets/from-url', { url: `http://127.0.0.2:${trustedPort}/logo.png?n=x` });
      expect(limited.statusCode).toBe(429);
      expect((limited.json() as { error: { message: string } }).error.message).toMatch(/^Too many images fetched by address/);
      expect((await client.post('/api/assets/from-url', { url: address })).statusCode).toBe(200);
    } finally {
      await allowed.close();
    }
  });

  it('refuses private addresses without telling what they resolve to', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    for (const url of [
      `http://localhost:${loopbackPort}/x.png`,
      `http://127.0.0.1:${loopbackPort}/x.png`,
      `http://[::1]:${loopbackPort}/x.png`,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const refused = await client.post('/api/assets/from-url', { url });
      expect(refused.statusCode).toBe(422);
      const { message, fields } = (refused.json() as { error: { message: string; fields: Record<string, string> } }).error;
      expect(message).toBe('The image at this address could not be loaded. This address is not allowed: it points to a private or local network.');
      expect(JSON.stringify(fields)).not.toMatch(/\d+\.\d+\.\d+\.\d+|::1|localhost|DNS|family/);
    }
    expect(hitsOnLoopback).toBe(0);
  });

  it('renders a document whose image URL is private with an empty box, never fetching it', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const format = (
      await client.post('/api/formats', {
        name: 'Sneaky',
        content: {
          elements: [
            { id: '1', type: 'paragraph', content: 'Hello' },
            { id: '2', type: 'image', src: `http://127.0.0.1:${loopbackPort}/secret.png` },
          ],
        },
        placeholders: [],
      })
    ).json() as TFormat;
    const preview = await client.get(`/api/formats/${format.id}/preview`);
    expect(preview.statusCode).toBe(200);
    expect(hitsOnLoopback).toBe(0);
  });
});
