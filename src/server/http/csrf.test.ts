import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZApiError } from '../../contract/errors.ts';
import { formats, workspaces } from '../db/schema.ts';
import { createTestApp, TEST_ORIGIN, TestClient, type TTestApp } from '../test/test-app.ts';

/*
 * Writes that carry a cookie must prove they come from our own pages: an Origin that is ours, or
 * `Sec-Fetch-Site: same-origin`. Anything else could be a forged request riding on the cookie.
 */

let t: TTestApp;
let client: TestClient;
let userId = '';
beforeAll(async () => {
  t = await createTestApp();
  client = new TestClient(t.app);
  userId = (await client.signUp()).user.id;
  // Enterprise: more than one format, and API keys.
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, userId));
});
afterAll(async () => {
  await t.close();
});

const FORMAT = { name: 'Letter', content: { elements: [] }, placeholders: [] };

/** A write as a non-browser client or an old browser would send it: the cookie, and only the headers given. */
const write = (method: 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });

const formatCount = async () => (await t.database.db.select({ id: formats.id }).from(formats).where(eq(formats.ownerId, userId))).length;

describe('a write that carries a cookie', () => {
  it('is refused with csrf_rejected when it has neither Origin nor Sec-Fetch-Site: same-origin', async () => {
    const before = await formatCount();
    for (const headers of [{} as Record<string, string>, { 'sec-fetch-site': 'none' }, { 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': 'cross-site' }]) {
      const refused = await write('POST', '/api/formats', { cookie: client.cookieHeader, ...headers }, FORMAT);
      expect(refused.statusCode, JSON.stringify(headers)).toBe(403);
      expect(ZApiError.parse(refused.json()).error.code).toBe('csrf_rejected');
    }
    const created = await client.post('/api/formats', FORMAT);
    const id = (created.json() as { id: string }).id;
    const deleted = await write('DELETE', `/api/formats/${id}`, { cookie: client.cookieHeader });
    expect(ZApiError.parse(deleted.json()).error.code).toBe('csrf_rejected');
    expect(await formatCount()).toBe(before + 1);
  });

  it('is refused with a foreign Origin, whatever else it says', async () => {
    const refused = await write(
      'POST',
      '/api/formats',
      { cookie: client.cookieHeader, origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
      FORMAT,
    );
    expect(ZApiError.parse(refused.json()).error.code).toBe('csrf_rejected');
    for (const site of [undefined, 'cross-site', 'same-site', 'none']) {
      const opaque = await write('POST', '/api/formats', { cookie: client.cookieHeader, origin: 'null', ...(site ? { 'sec-fetch-site': site } : {}) }, FORMAT);
      expect(ZApiError.parse(opaque.json()).error.code, `Origin: null, Sec-Fetch-Site: ${site}`).toBe('csrf_rejected');
    }
  });

  it('is accepted with our Origin, or with Sec-Fetch-Site: same-origin alone', async () => {
    const before = await formatCount();
    expect((await write('POST', '/api/formats', { cookie: client.cookieHeader, origin: TEST_ORIGIN }, FORMAT)).statusCode).toBe(201);
    expect((await write('POST', '/api/formats', { cookie: client.cookieHeader, 'sec-fetch-site': 'same-origin' }, FORMAT)).statusCode).toBe(201);
    expect(await formatCount()).toBe(before + 2);
  });

  it('lets the sign-out page’s own form post through', async () => {
    const leaving = new TestClient(t.app);
    await leaving.signUp();
    const form = await write('POST', '/api/logout', {
      cookie: leaving.cookieHeader,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.statusCode).toBe(302);
    const again = new TestClient(t.app);
    await again.signUp();
    const withOrigin = await write('POST', '/api/logout', {
      cookie: again.cookieHeader,
      origin: TEST_ORIGIN,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(withOrigin.statusCode).toBe(302);
    // What Chromium sends for that form (e2e/sign-out.spec.ts): the page's no-referrer policy
    // hides its origin as "null", and Sec-Fetch-Site says it is our own.
    const third = new TestClient(t.app);
    await third.signUp();
    const asChromium = await write('POST', '/api/logout', {
      cookie: third.cookieHeader,
      origin: 'null',
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(asChromium.statusCode).toBe(302);
  });
});

describe('a write without a cookie', () => {
  it('acts as nobody, so it needs no Origin (a gateway’s webhook, a script signing up)', async () => {
    const signUp = await write(
      'POST',
      '/api/auth/sign-up',
      {},
      { firstName: 'No', lastName: 'Origin', email: 'no-origin@example.com', password: 'longenough' },
    );
    expect(signUp.statusCode).toBe(200);
  });

  it('is still refused when it says it comes from another site', async () => {
    const refused = await write(
      'POST',
      '/api/auth/sign-up',
      { 'sec-fetch-site': 'cross-site' },
      { firstName: 'a', lastName: 'b', email: 'cross@example.com', password: 'longenough' },
    );
    expect(ZApiError.parse(refused.json()).error.code).toBe('csrf_rejected');
  });
});

describe('API-key routes', () => {
  it('never ask for an Origin, even when a cookie comes along', async () => {
    const { key } = (await client.post('/api/user/api-keys', { name: 'Server' })).json() as { key: string };
    const created = await write('POST', '/api/v1/formats', { authorization: `Bearer ${key}`, cookie: client.cookieHeader }, FORMAT);
    expect(created.statusCode, created.body).toBe(201);
  });
});
