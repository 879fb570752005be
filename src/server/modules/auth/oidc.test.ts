import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, TestClient, type TTestApp } from '../../test/test-app.ts';
import { followProviderRedirects, freePort, OIDC_TEST_ACCOUNT, startOidcProvider, type TOidcTestProvider } from '../../test/oidc-provider.ts';
import { signInErrorMessage } from '../../../contract/sign-in-errors.ts';

const REDIRECT_URI = `${TEST_ORIGIN}/api/identity/callback/oidc`;

/** Runs the browser's part: our /api/login, the provider's pages, back to our callback. */
async function loginThroughProvider(client: TestClient, provider: TOidcTestProvider, tamper?: (url: URL) => void) {
  const start = await client.get('/api/login');
  expect(start.statusCode).toBe(302);
  const authorizeUrl = String(start.headers.location);
  expect(authorizeUrl.startsWith(provider.issuer)).toBe(true);
  const back = new URL(await followProviderRedirects(authorizeUrl, provider.issuer));
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
  tamper?.(back);
  return client.get(`${back.pathname}${back.search}`);
}

describe('OpenID Connect sign-in against a real provider', () => {
  let provider: TOidcTestProvider;
  let t: TTestApp;

  beforeAll(async () => {
    provider = await startOidcProvider({ port: await freePort(), redirectUri: REDIRECT_URI });
    t = await createTestApp({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      ADMIN_EMAILS: OIDC_TEST_ACCOUNT.email,
    });
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  it('signs a new user in end to end, with names and admin bootstrap from the provider', async () => {
    const client = new TestClient(t.app);
    const callback = await loginThroughProvider(client, provider);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe(`${TEST_ORIGIN}/`);
    const me = await client.get('/api/auth/user');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: OIDC_TEST_ACCOUNT.email,
      firstName: OIDC_TEST_ACCOUNT.given_name,
      lastName: OIDC_TEST_ACCOUNT.family_name,
      role: 'admin',
      emailVerified: true,
    });
  });

  it('sends a tampered state to a clear error page and creates no session', async () => {
    const client = new TestClient(t.app);
    const callback = await loginThroughProvider(client, provider, (url) => url.searchParams.set('state', 'forged'));
    expect(callback.statusCode).toBe(302);
    const errorUrl = new URL(String(callback.headers.location), TEST_ORIGIN);
    expect(errorUrl.pathname).toBe('/api/login/error');
    const errorPage = await client.get(`${errorUrl.pathname}${errorUrl.search}`);
    expect(errorPage.statusCode).toBe(302);
    const location = new URL(String(errorPage.headers.location), TEST_ORIGIN);
    expect(location.pathname).toBe('/login');
    expect(signInErrorMessage(location.searchParams.get('error') ?? '')).toMatch(/sign in again|expired|tampered/i);
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);
  });
});

describe('OpenID Connect and ADMIN_EMAILS when the provider does not vouch for the address', () => {
  it('makes an unverified account that is not an admin, until the provider says the address is verified', async () => {
    const provider = await startOidcProvider({ port: await freePort(), redirectUri: REDIRECT_URI });
    provider.setEmailVerified(false);
    const t = await createTestApp({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      ADMIN_EMAILS: OIDC_TEST_ACCOUNT.email,
    });
    try {
      const client = new TestClient(t.app);
      expect((await loginThroughProvider(client, provider)).statusCode).toBe(302);
      expect((await client.get('/api/auth/user')).json()).toMatchObject({ email: OIDC_TEST_ACCOUNT.email, role: 'user', emailVerified: false });
      expect((await client.get('/api/admin/users')).statusCode).toBe(403);

      // The next sign-in carries the provider's word that the address is verified.
      provider.setEmailVerified(true);
      const again = new TestClient(t.app);
      expect((await loginThroughProvider(again, provider)).statusCode).toBe(302);
      expect((await again.get('/api/auth/user')).json()).toMatchObject({ role: 'admin', emailVerified: true });
      expect((await again.get('/api/admin/users')).statusCode).toBe(200);
    } finally {
      await t.close();
      await provider.close();
    }
  });
});

describe('OpenID Connect when the provider is down', () => {
  it('shows a clear error, then works once the provider is back, without a restart', async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const t = await createTestApp({
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: 'formwork-test',
      OIDC_CLIENT_SECRET: 'formwork-test-secret-which-is-long-enough',
    });
    let provider: TOidcTestProvider | undefined;
    try {
      const client = new TestClient(t.app);
      const down = await client.get('/api/login');
      expect(down.statusCode).toBe(302);
      const location = new URL(String(down.headers.location), TEST_ORIGIN);
      expect(location.pathname).toBe('/login');
      expect(signInErrorMessage(location.searchParams.get('error') ?? '')).toMatch(/not reachable/);

      provider = await startOidcProvider({ port, redirectUri: REDIRECT_URI });
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const callback = await loginThroughProvider(client, provider);
      expect(callback.statusCode).toBe(302);
      expect((await client.get('/api/auth/user')).statusCode).toBe(200);
    } finally {
      await t.close();
      await provider?.close();
    }
  });
});
