import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZApiError } from '../../../contract/errors.ts';
import { ZUser } from '../../../contract/user.ts';
import { createTestApp, TEST_ORIGIN, TestClient, type TTestApp, signUpVerified, TEST_PASSWORD_HASH_COST } from '../../test/test-app.ts';
import { SIGN_IN_THROTTLE } from './sign-in-throttle.ts';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'Boss@Example.com, other@example.com' });
});
afterAll(async () => {
  await t.close();
});

function expectError(response: { statusCode: number; json(): unknown }, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  const body = ZApiError.parse(response.json());
  expect(body.error.code).toBe(code);
  return body.error;
}

/** Posts a sign-up form that is valid except for `changes`. */
function postSignUp(changes: Partial<Record<'firstName' | 'lastName' | 'email' | 'password', string>>, client = new TestClient(t.app)) {
  return client.post('/api/auth/sign-up', { firstName: 'X', lastName: 'Y', email: 'valid@example.com', password: 'long enough', ...changes });
}

describe('sign-up', () => {
  it('creates an account, signs it in and returns the user without secrets', async () => {
    const client = new TestClient(t.app);
    const { user, email } = await client.signUp({ firstName: 'Grace', lastName: 'Hopper' });
    expect(ZUser.parse(user)).toMatchObject({
      email,
      firstName: 'Grace',
      lastName: 'Hopper',
      role: 'user',
      subscriptionPlan: 'free',
    });
    const me = await client.get('/api/auth/user');
    expect(me.statusCode).toBe(200);
    const text = me.body.toLowerCase();
    expect(text).not.toContain('password');
    expect(text).not.toContain('"apikey"');
    expect(text).not.toContain('hash');
    expect(Object.keys(me.json() as object).sort()).toEqual(Object.keys(ZUser.shape).sort());
  });

  it('sets an httpOnly SameSite=Lax session cookie', async () => {
    const response = await postSignUp({ email: 'cookie@example.com' });
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('refuses a duplicate email with a clear 409 while there is no mail server (nothing could tell the owner)', async () => {
    const client = new TestClient(t.app);
    await client.signUp({ email: 'dup@example.com' });
    const again = await postSignUp({ email: 'DUP@example.com', password: 'another password' });
    const error = expectError(again, 409, 'conflict');
    expect(error.message).toMatch(/already exists/);
  });

  it('refuses a password shorter than 10 characters and names the field', async () => {
    const response = await postSignUp({ email: 'short@example.com', password: 'short' });
    const error = expectError(response, 400, 'validation_failed');
    expect(error.fields?.password).toMatch(/at least 10/);
  });

  it('refuses an invalid email and missing names', async () => {
    const response = await postSignUp({ firstName: '', email: 'not-an-email' });
    const error = expectError(response, 400, 'validation_failed');
    expect(Object.keys(error.fields ?? {})).toEqual(expect.arrayContaining(['firstName', 'email']));
  });
});

describe('sign-in and sign-out', () => {
  it('signs in with the right password and out again', async () => {
    const first = new TestClient(t.app);
    const { email, password } = await first.signUp();
    const client = new TestClient(t.app);
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);
    const signIn = await client.post('/api/auth/sign-in', { email: email.toUpperCase(), password });
    expect(signIn.statusCode).toBe(200);
    expect((await client.get('/api/auth/user')).statusCode).toBe(200);

    const logout = await client.get('/api/logout');
    expect(logout.statusCode).toBe(302);
    expect(logout.headers.location).toBe('/');
    expectError(await client.get('/api/auth/user'), 401, 'unauthorized');
  });

  it('ends the session on the server, so a copied cookie stops working', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const stolen = client.cookieHeader;
    await client.get('/api/logout');
    const replay = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: stolen } });
    expect(replay.statusCode).toBe(401);
  });

  it('refuses a wrong password with 401 and a readable message', async () => {
    const { email } = await new TestClient(t.app).signUp();
    const response = await new TestClient(t.app, '10.0.0.9').post('/api/auth/sign-in', {
      email,
      password: 'wrong password',
    });
    const error = expectError(response, 401, 'unauthorized');
    expect(error.message).toBe('Invalid email or password.');
  });

  it('401 for an unknown account and for no session', async () => {
    expectError(await new TestClient(t.app, '10.0.0.8').post('/api/auth/sign-in', { email: 'nobody@example.com', password: 'x' }), 401, 'unauthorized');
    const me = await new TestClient(t.app).get('/api/auth/user');
    expectError(me, 401, 'unauthorized');
    expect(me.body).toContain('Unauthorized');
  });
});

describe('throttling', () => {
  const signIn = (ip: string, email: string, password: string) => new TestClient(t.app, ip).post('/api/auth/sign-in', { email, password });

  it('slows a guessing client down with growing waits, and never locks the owner out', async () => {
    const { email, password } = await new TestClient(t.app).signUp();
    const attacker = '10.1.0.1';
    const answers: number[] = [];
    for (let i = 0; i < 60; i++) answers.push((await signIn(attacker, email, 'wrong password')).statusCode);
    // A few free tries, then every further try is refused until the wait is over.
    expect(answers.slice(0, SIGN_IN_THROTTLE.freeFailuresPerClient + 1)).toEqual(Array(SIGN_IN_THROTTLE.freeFailuresPerClient + 1).fill(401));
    expect(answers.filter((status) => status === 401)).toHaveLength(SIGN_IN_THROTTLE.freeFailuresPerClient + 1);
    expect(answers.slice(SIGN_IN_THROTTLE.freeFailuresPerClient + 1).every((status) => status === 429)).toBe(true);

    const refused = await signIn(attacker, email, password);
    const error = expectError(refused, 429, 'rate_limited');
    expect(error.message).toMatch(/Try again in \d+ (seconds|minutes)/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // The owner, on a client that has not failed, signs in at once.
    expect((await signIn('10.1.0.2', email, password)).statusCode).toBe(200);
  });

  it("goes through the same throttle for the auth library's own sign-in and sign-up routes: they are closed", async () => {
    const { email } = await new TestClient(t.app).signUp();
    const client = new TestClient(t.app, '10.3.0.1');
    for (let i = 0; i < 10; i++) {
      const response = await client.post('/api/identity/sign-in/email', { email, password: 'wrong password' });
      expectError(response, 404, 'not_found');
    }
    const signUp = await client.post('/api/identity/sign-up/email', {
      name: 'x'.repeat(60_000),
      email: 'bypass@example.com',
      password: 'long enough password',
    });
    expectError(signUp, 404, 'not_found');
    expect((await new TestClient(t.app).post('/api/auth/sign-in', { email: 'bypass@example.com', password: 'long enough password' })).statusCode).toBe(401);
    // Only the OIDC callback is served under the library's path.
    for (const path of ['/api/identity/get-session', '/api/identity/list-sessions', '/api/identity/ok']) {
      expectError(await client.get(path), 404, 'not_found');
    }
  });

  it('limits the accounts one IP may create per hour', async () => {
    const ip = '10.4.0.1';
    for (let i = 0; i < t.config.signUpsPerIpPerHour; i++) await new TestClient(t.app, ip).signUp();
    const refused = await postSignUp({ email: 'one-too-many@example.com' }, new TestClient(t.app, ip));
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await new TestClient(t.app, '10.4.0.2').signUp()).user.email).toMatch(/@example.com$/);
  });
});

describe('signing out from another site', () => {
  it('asks first when the sign-out link comes from another site, and signs out on the confirming post', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const crossSite = await client.get('/api/logout', { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(200);
    expect(crossSite.headers['content-type']).toMatch(/text\/html/);
    expect(crossSite.body).toContain('Sign out of Formwork?');
    expect(crossSite.headers['set-cookie']).toBeUndefined();
    expect((await client.get('/api/auth/user')).statusCode).toBe(200);

    // The page's form: a url-encoded POST from our own origin.
    const confirmed = await client.request('POST', '/api/logout', undefined, {
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'same-origin',
    });
    expect(confirmed.statusCode).toBe(302);
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);
  });

  it('refuses the confirming post from another site', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const forged = await client.request('POST', '/api/logout', undefined, {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://evil.example',
    });
    expectError(forged, 403, 'csrf_rejected');
    expect((await client.get('/api/auth/user')).statusCode).toBe(200);
  });

  it('signs out at once from our own pages', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    expect((await client.get('/api/logout', { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(302);
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);
  });
});

describe('CSRF', () => {
  it('refuses a cross-site POST that carries the session cookie', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const attack = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: { cookie: client.cookieHeader, origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@example.com', password: 'whatever1' }),
    });
    expectError(attack, 403, 'csrf_rejected');
    const noOriginButCrossSite = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      payload: JSON.stringify({ firstName: 'a', lastName: 'b', email: 'csrf@example.com', password: 'longenough' }),
    });
    expectError(noOriginButCrossSite, 403, 'csrf_rejected');
  });

  it('is not switched off by a bearer header on a request the session cookie authenticates', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const created = await client.post('/api/formats', { name: 'Kept', content: { elements: [] }, placeholders: [] });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: string }).id;
    const attack = await t.app.inject({
      method: 'DELETE',
      url: `/api/formats/${id}`,
      headers: { cookie: client.cookieHeader, origin: 'https://evil.example', authorization: 'Bearer anything' },
    });
    expectError(attack, 403, 'csrf_rejected');
    expect((await client.get(`/api/formats/${id}`)).statusCode).toBe(200);
  });

  it('accepts the same POST from our own origin', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ firstName: 'a', lastName: 'b', email: 'samesite@example.com', password: 'longenough' }),
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('admin bootstrap', () => {
  it('gives the admin role to ADMIN_EMAILS only once the address is verified, case-insensitively', async () => {
    const client = new TestClient(t.app);
    const { user } = await client.signUp({ email: 'boss@example.com' });
    expect(user.role).toBe('user');
    expect((await client.get('/api/admin/users')).statusCode).toBe(403);
    const verified = await signUpVerified(t, new TestClient(t.app), { email: 'Other@Example.com' });
    expect(verified.user.role).toBe('admin');
  });

  it('promotes an existing verified account at its next sign-in', async () => {
    const { email, password, user } = await signUpVerified(t, new TestClient(t.app), { email: 'later@example.com' });
    expect(user.role).toBe('user');
    const t2 = await createTestApp({ ADMIN_EMAILS: 'later@example.com' });
    try {
      // The same database seen by an app configured with a new ADMIN_EMAILS.
      const { buildApp } = await import('../../app.ts');
      const app2 = await buildApp({ config: t2.config, database: t.database, background: { passwordHashCost: TEST_PASSWORD_HASH_COST } });
      const client = new TestClient(app2);
      const signIn = await client.post('/api/auth/sign-in', { email, password });
      expect(signIn.statusCode).toBe(200);
      expect((await client.get('/api/auth/user')).json()).toMatchObject({ role: 'admin' });
      await app2.close();
    } finally {
      await t2.close();
    }
  });
});

describe('server baseline', () => {
  it('reports liveness without the database, and readiness with it', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', database: t.databaseUrl ? 'postgres' : 'pglite' });
  });

  it('answers unknown API routes with the JSON error shape', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/api/nope' }), 404, 'not_found');
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expectError(response, 400, 'bad_request');
  });

  it('sends security headers with a CSP', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('returns stats with zeros for a new user and 401 without a session', async () => {
    const client = new TestClient(t.app);
    await client.signUp();
    const stats = await client.get('/api/user/stats');
    expect(stats.json()).toEqual({
      totalFormats: 0,
      totalDocuments: 0,
      apiCallsUsed: 0,
      apiCallsLimit: 30,
      storageUsedBytes: 0,
      storageLimitBytes: 50 * 1024 * 1024,
    });
    expectError(await new TestClient(t.app).get('/api/user/stats'), 401, 'unauthorized');
  });

  it('redirects /api/login to the built-in page when no provider is configured', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/login' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login');
  });

  it('opens Create account for Get Started, and refuses an unknown mode', async () => {
    const signUp = await t.app.inject({ method: 'GET', url: '/api/login?mode=signup' });
    expect(signUp.statusCode).toBe(302);
    expect(signUp.headers.location).toBe('/login?mode=signup');
    const odd = await t.app.inject({ method: 'GET', url: '/api/login?mode=admin' });
    expect(odd.statusCode).toBe(400);
    expect(odd.json()).toMatchObject({ error: { code: 'validation_failed' } });
  });
});

describe('session probe', () => {
  it('answers 200 with the user, or with null when signed out', async () => {
    const anonymous = await new TestClient(t.app).get('/api/auth/session');
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ user: null });
    const client = new TestClient(t.app);
    const { email } = await client.signUp();
    expect((await client.get('/api/auth/session')).json()).toMatchObject({ user: { email } });
  });
});
