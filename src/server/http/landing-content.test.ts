import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAppConfig } from '../../contract/admin.ts';
import type { TPublicPages } from '../../contract/public-pages.ts';
import { createTestApp, signUpVerified, TEST_ORIGIN, TestClient, type TTestApp } from '../test/test-app.ts';

const webSource = readFileSync(path.resolve(import.meta.dirname, '../../web/index.html'), 'utf8');
const BUILT_LANDING = '<div id="root"><h1>Landing</h1><p>as built</p></div>';

/**
 * A web build as scripts/build-web.ts leaves it: index.html, landing.html (drawn with a new
 * installation's config) and, unless left out, the server-side module that draws the landing
 * page. This one draws what it is given, and counts its drawings.
 */
function webBuild(withRenderer: boolean): string {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'formwork-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), webSource);
  writeFileSync(path.join(dist, 'landing.html'), webSource.replace('<div id="root"></div>', BUILT_LANDING));
  if (withRenderer) {
    mkdirSync(path.join(dist, 'ssr'));
    writeFileSync(
      path.join(dist, 'ssr', 'prerender.js'),
      `export function renderLanding(config) {
        globalThis.landingDrawings = (globalThis.landingDrawings ?? 0) + 1;
        const figures = config.publicPages.figures.map((f) => '<dd>' + f.value + ' ' + f.label + '</dd>').join('');
        const quotes = config.publicPages.testimonials.map((t) => '<blockquote>' + t.name + '</blockquote>').join('');
        return '<h1>Landing</h1>' + figures + quotes + (config.supportEmail ? '<a>' + config.supportEmail + '</a>' : '') + '<code>__PUBLIC_URL__/api/v1</code>';
      }\n`,
    );
  }
  return dist;
}

const drawings = () => (globalThis as { landingDrawings?: number }).landingDrawings ?? 0;

function configIn(html: string): TAppConfig {
  const match = /<script type="application\/json" id="app-config">([^<]*)<\/script>/.exec(html);
  if (!match) throw new Error('the page carries no app config');
  return JSON.parse(match[1]!) as TAppConfig;
}

const CONTENT: TPublicPages = {
  figures: [{ value: '1,204', label: 'documents made last month' }],
  testimonials: [{ quote: 'Same-day offer letters. </script><script>alert(1)</script>', name: 'Ingrid Solberg', role: '', company: '' }],
  team: [],
};

describe("the landing page with the installation's own content", () => {
  let t: TTestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp({ WEB_DIST_DIR: webBuild(true), ADMIN_EMAILS: 'owner@example.com' });
    admin = new TestClient(t.app);
    await signUpVerified(t, admin, { email: 'owner@example.com' });
  });
  afterAll(async () => {
    await t.close();
  });

  it("sends the build's drawing while the settings say nothing, carrying the empty config every page carries", async () => {
    const landing = await t.app.inject({ method: 'GET', url: '/' });
    expect(landing.body).toContain(BUILT_LANDING);
    expect(drawings()).toBe(0);
    const config = configIn(landing.body);
    expect(config).toMatchObject({ supportEmail: null, salesEmail: null, publicPages: { figures: [], testimonials: [], team: [] } });
    const other = await t.app.inject({ method: 'GET', url: '/about' });
    expect(other.body).toContain('<div id="root"></div>');
    expect(configIn(other.body)).toEqual(config);
  });

  it('draws / with what an admin saved, once per change, and every page carries the same config to hydrate with', async () => {
    expect((await admin.request('PUT', '/api/admin/public-pages', CONTENT)).statusCode).toBe(200);
    expect((await admin.post('/api/admin/settings', { key: 'support.email', value: 'help@acme.example' })).statusCode).toBe(200);

    const first = await t.app.inject({ method: 'GET', url: '/' });
    expect(first.body).toContain(
      `<div id="root"><h1>Landing</h1><dd>1,204 documents made last month</dd><blockquote>Ingrid Solberg</blockquote><a>help@acme.example</a><code>${TEST_ORIGIN}/api/v1</code></div>`,
    );
    expect(first.body).not.toContain('as built');
    const config = configIn(first.body);
    expect(config.publicPages).toEqual(CONTENT);
    expect(config.supportEmail).toBe('help@acme.example');
    // Text in the content cannot end the data block and start a script.
    expect(first.body).not.toContain('</script><script>alert(1)');
    expect(first.headers['content-security-policy']).toContain("script-src 'self'");

    const seen = drawings();
    const again = await t.app.inject({ method: 'GET', url: '/?ref=ad' });
    expect(again.body).toBe(first.body);
    expect(drawings()).toBe(seen);

    expect((await admin.request('PUT', '/api/admin/public-pages', { ...CONTENT, figures: [{ value: '15', label: 'teams' }] })).statusCode).toBe(200);
    const changed = await t.app.inject({ method: 'GET', url: '/' });
    expect(changed.body).toContain('<dd>15 teams</dd>');
    expect(changed.body).not.toContain('1,204');
    expect(drawings()).toBe(seen + 1);
  });

  it("goes back to the build's drawing when the content is removed", async () => {
    expect((await admin.request('PUT', '/api/admin/public-pages', { figures: [], testimonials: [], team: [] })).statusCode).toBe(200);
    expect((await admin.request('DELETE', '/api/admin/settings/support.email')).statusCode).toBe(204);
    const landing = await t.app.inject({ method: 'GET', url: '/' });
    expect(landing.body).toContain(BUILT_LANDING);
    expect(configIn(landing.body).supportEmail).toBeNull();
  });

  it('never serves the server-side module to browsers', async () => {
    const module = await t.app.inject({ method: 'GET', url: '/ssr/prerender.js' });
    expect(module.body).not.toContain('renderLanding');
    expect(module.headers['content-type']).not.toMatch(/javascript/);
  });
});

describe("a web build without the landing page's server-side module", () => {
  let t: TTestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp({ WEB_DIST_DIR: webBuild(false), ADMIN_EMAILS: 'owner@example.com' });
    admin = new TestClient(t.app);
    await signUpVerified(t, admin, { email: 'owner@example.com' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('sends / without a drawing once there is content, so the browser draws it rather than hydrate a page that says otherwise', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/' })).body).toContain(BUILT_LANDING);
    expect((await admin.request('PUT', '/api/admin/public-pages', CONTENT)).statusCode).toBe(200);
    const landing = await t.app.inject({ method: 'GET', url: '/' });
    expect(landing.statusCode).toBe(200);
    expect(landing.body).toContain('<div id="root"></div>');
    expect(configIn(landing.body).publicPages).toEqual(CONTENT);
  });
});
