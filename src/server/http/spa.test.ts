import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TTestApp } from '../test/test-app.ts';

const webSource = readFileSync(path.resolve(import.meta.dirname, '../../web/index.html'), 'utf8');

let t: TTestApp;
beforeAll(async () => {
  // The real index.html, as a build would copy it, so the SEO tags under test are the shipped ones.
  const dist = mkdtempSync(path.join(os.tmpdir(), 'formwork-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), webSource);
  // As scripts/build-web.ts writes it: the landing page rendered into the root element.
  writeFileSync(
    path.join(dist, 'landing.html'),
    webSource.replace('<div id="root"></div>', '<div id="root"><h1>Landing</h1><code>__PUBLIC_URL__/api/v1</code></div>'),
  );
  writeFileSync(path.join(dist, 'docs-api.html'), webSource.replace('<div id="root"></div>', '<div id="root"><h1>API reference</h1></div>'));
  // As scripts/build-web.ts writes it: the app shell's skeleton, for a signed-in person's `/`.
  writeFileSync(path.join(dist, 'app.html'), webSource.replace('<div id="root"></div>', '<div id="root"><div data-app-frame=""></div></div>'));
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  t = await createTestApp({ WEB_DIST_DIR: dist, PUBLIC_URL: 'https://docs.example.org' });
});
afterAll(async () => {
  await t.close();
});

/** A new person signed in on a client, as the browser on this installation's own address would. */
async function signedInClient(): Promise<TestClient> {
  const client = new TestClient(t.app);
  const origin = { origin: 'https://docs.example.org' };
  const email = `spa-${Math.random().toString(36).slice(2)}@example.com`;
  const response = await client.request(
    'POST',
    '/api/auth/sign-up',
    { firstName: 'Ada', lastName: 'Lovelace', email, password: 'correct horse battery' },
    origin,
  );
  expect(response.statusCode, response.body).toBe(200);
  return client;
}

describe('serving the web app', () => {
  it("serves robots.txt and sitemap.xml as what they are, with this installation's address", async () => {
    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body).toContain('User-agent: *');
    expect(robots.body).toContain('Disallow: /api/');
    expect(robots.body).toContain('Sitemap: https://docs.example.org/sitemap.xml');
    expect(robots.body).not.toContain('<html');

    const sitemap = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers['content-type']).toMatch(/^application\/xml/);
    expect(sitemap.body).toMatch(/^<\?xml version="1.0"/);
    expect(sitemap.body).toContain('<loc>https://docs.example.org/</loc>');
    expect(sitemap.body).toContain('<loc>https://docs.example.org/about</loc>');
  });

  it('sends the SEO tags in the HTML for /, with the canonical address of this installation', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toMatch(/<title>[^<]*Formwork[^<]*<\/title>/);
    expect(html).toMatch(/<meta\s+name="description"\s+content="[^"]{50,}"/);
    expect(html).toMatch(/<meta\s+name="keywords"/);
    expect(html).toMatch(/<meta\s+property="og:title"/);
    expect(html).toMatch(/<meta\s+name="twitter:card"/);
    expect(html).toContain('<link rel="canonical" href="https://docs.example.org/"');
    expect(html).not.toContain('__PUBLIC_URL__');
    // No inline script runs (the CSP allows none); the app config travels as a data block browsers never run.
    expect(html).not.toMatch(/<script(?![^>]*\b(?:src=|type="application\/json"))[^>]*>/);
    expect(html).toContain('<script type="application/json" id="app-config">');
  });

  it('answers unknown pages with the app (which draws its 404) and unknown API paths with JSON', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/no/such/page' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const api = await t.app.inject({ method: 'GET', url: '/api/no/such' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it("sends the pre-rendered landing page for / only, with this installation's address in it", async () => {
    for (const url of ['/', '/?ref=ad']) {
      const landing = await t.app.inject({ method: 'GET', url });
      expect(landing.body).toContain('<div id="root"><h1>Landing</h1><code>https://docs.example.org/api/v1</code></div>');
      expect(landing.headers['cache-control']).toBe('no-cache');
    }
    for (const url of ['/builder', '/formats?x=1', '/no-such-page']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.body).toContain('<div id="root"></div>');
      expect(page.body).not.toContain('Landing');
    }
  });

  it('sends the API reference drawn ahead of time for /docs/api, to everyone', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/api?x=1' });
    expect(page.body).toContain('<div id="root"><h1>API reference</h1></div>');
    expect(page.headers['cache-control']).toBe('no-cache');
    const signedIn = await (await signedInClient()).get('/docs/api');
    expect(signedIn.body).toContain('<div id="root"><h1>API reference</h1></div>');
  });

  it('sends a signed-in person the app at /, not the landing page, and no cache hands one to the other', async () => {
    const client = await signedInClient();
    for (const url of ['/', '/?ref=ad']) {
      const page = await client.get(url);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<div id="root"><div data-app-frame=""></div></div>');
      expect(page.body).not.toContain('Landing');
      expect(page.body).toContain('<script type="application/json" id="app-config">');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['vary']).toMatch(/cookie/i);
    }
    // Signed out again, the same browser gets the landing page.
    await client.request('POST', '/api/logout', undefined, { origin: 'https://docs.example.org' });
    const after = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: client.cookieHeader } });
    expect(after.body).toContain('<h1>Landing</h1>');
  });

  it('sends the landing page for / with a stale, forged or malformed session cookie, never an error', async () => {
    const client = await signedInClient();
    const cookie = client.cookieHeader;
    await client.request('POST', '/api/logout', undefined, { origin: 'https://docs.example.org' });
    const cookies = [
      cookie, // its session ended
      'formwork.session_token=nope.nothing',
      '__Secure-formwork.session_token=%E0%A4%A; theme=dark',
      'formwork.session_token=',
      `formwork.session_token=${'x'.repeat(5000)}`,
      'other=1',
    ];
    for (const header of cookies) {
      const page = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: header } });
      expect(page.statusCode, header.slice(0, 60)).toBe(200);
      expect(page.body).toContain('<h1>Landing</h1>');
      expect(page.headers['vary']).toMatch(/cookie/i);
    }
  });

  it('caches hashed assets for a year and never caches index.html', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    const index = await t.app.inject({ method: 'GET', url: '/settings' });
    expect(index.headers['cache-control']).toBe('no-cache');
  });

  it('compresses the HTML for browsers that accept it', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers['content-encoding']).toBe('gzip');
  });
});
