import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAppConfig } from '../../../contract/admin.ts';
import { ZApiError } from '../../../contract/errors.ts';
import { users } from '../../db/schema.ts';
import { followProviderRedirects, freePort, OIDC_TEST_ACCOUNT, startOidcProvider, type TOidcTestProvider } from '../../test/oidc-provider.ts';
import { createTestAppWithMail, NOTICES_ACCOUNT } from '../../test/mail-test-app.ts';
import { TEST_ORIGIN, TestClient, type TTestApp } from '../../test/test-app.ts';
import { signInErrorMessage, SIGN_UP_REFUSALS } from '../../../contract/sign-in-errors.ts';

const REDIRECT_URI = `${TEST_ORIGIN}/api/identity/callback/oidc`;
const ADMIN_EMAIL = 'sso-policy-admin@example.com';

let provider: TOidcTestProvider;
let t: TTestApp;
let admin: TestClient;

beforeAll(async () => {
  provider = await startOidcProvider({ port: await freePort(), redirectUri: REDIRECT_URI });
  ({ t, admin } = await createTestAppWithMail({
    adminEmail: ADMIN_EMAIL,
    mail: { ...NOTICES_ACCOUNT, fromAddress: 'accounts@formwork.test', fromName: 'Formwork' },
    env: {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_PROVIDER_NAME: 'Acme ID',
    },
  }));
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

async function setPolicy(mode: 'open' | 'invitation' | 'sso', allowedDomains: string[] = []) {
  const saved = await admin.request('PUT', '/api/admin/sign-up-policy', { mode, allowedDomains });
  expect(saved.statusCode, saved.body).toBe(200);
}

/** The browser's whole trip: /api/login, the provider, our callback, and on failure our error page. */
async function signInThroughProvider(client: TestClient): Promise<{ signedIn: boolean; error: string | null }> {
  const start = await client.get('/api/login');
  const back = new URL(await followProviderRedirects(String(start.headers.location), provider.issuer));
  const callback = await client.get(`${back.pathname}${back.search}`);
  expect(callback.statusCode).toBe(302);
  const next = new URL(String(callback.headers.location), TEST_ORIGIN);
  if (next.pathname !== '/api/login/error') return { signedIn: (await client.get('/api/auth/user')).statusCode === 200, error: null };
  const page = await client.get(`${next.pathname}${next.search}`);
  const login = new URL(String(page.headers.location), TEST_ORIGIN);
  expect(login.pathname).toBe('/login');
  // The page is sent a code, and shows its words.
  return { signedIn: (await client.get('/api/auth/user')).statusCode === 200, error: signInErrorMessage(login.searchParams.get('error') ?? '') };
}

const oidcAccount = async () => (await t.database.db.select().from(users).where(eq(users.email, OIDC_TEST_ACCOUNT.email)))[0];

describe('the sign-up policy for first sign-ins through single sign-on', () => {
  it('refuses an address outside the allowed domains on our error page, and makes no account', async () => {
    await setPolicy('open', ['corp.example']);
    const refused = await signInThroughProvider(new TestClient(t.app));
    expect(refused).toEqual({ signedIn: false, error: SIGN_UP_REFUSALS.sign_up_domain });
    expect(await oidcAccount()).toBeUndefined();
  });

  it('admits no address the provider does not vouch for while sign-ups are limited, not even an invited one', async () => {
    provider.setEmailVerified(false);
    try {
      await setPolicy('open', ['example.com']);
      expect(await signInThroughProvider(new TestClient(t.app))).toEqual({ signedIn: false, error: SIGN_UP_REFUSALS.sign_up_unverified_email });
      await setPolicy('invitation');
      const invited = await admin.post('/api/admin/invitations', { email: OIDC_TEST_ACCOUNT.email });
      expect(invited.statusCode, invited.body).toBe(201);
      expect(await signInThroughProvider(new TestClient(t.app))).toEqual({ signedIn: false, error: SIGN_UP_REFUSALS.sign_up_unverified_email });
      expect(await oidcAccount()).toBeUndefined();
      expect((await admin.request('DELETE', `/api/admin/invitations/${(invited.json() as { id: string }).id}`)).statusCode).toBe(204);
    } finally {
      provider.setEmailVerified(true);
    }
  });

  it('refuses an address without an invitation when sign-ups are by invitation, and admits it once invited', async () => {
    await setPolicy('invitation');
    const refused = await signInThroughProvider(new TestClient(t.app));
    expect(refused).toEqual({ signedIn: false, error: SIGN_UP_REFUSALS.sign_up_invitation_only });
    expect(await oidcAccount()).toBeUndefined();

    const invited = await admin.post('/api/admin/invitations', { email: OIDC_TEST_ACCOUNT.email });
    expect(invited.statusCode, invited.body).toBe(201);
    const admitted = await signInThroughProvider(new TestClient(t.app));
    expect(admitted).toEqual({ signedIn: true, error: null });
    expect((await admin.get('/api/admin/invitations')).json()).toEqual([]);
  });

  it('keeps an existing account signing in whatever the policy, unless it is suspended', async () => {
    await setPolicy('invitation', ['corp.example']);
    expect(await signInThroughProvider(new TestClient(t.app))).toEqual({ signedIn: true, error: null });

    const account = (await oidcAccount())!;
    expect((await admin.post(`/api/admin/users/${account.id}/suspend`)).statusCode).toBe(200);
    expect(await signInThroughProvider(new TestClient(t.app))).toEqual({ signedIn: false, error: SIGN_UP_REFUSALS.account_suspended });
    expect((await admin.post(`/api/admin/users/${account.id}/restore`)).statusCode).toBe(200);
    expect(await signInThroughProvider(new TestClient(t.app))).toEqual({ signedIn: true, error: null });
  });

  it('in single sign-on only mode refuses password sign-ups, naming the button, and tells the page', async () => {
    await setPolicy('sso');
    const refused = await new TestClient(t.app).post('/api/auth/sign-up', {
      firstName: 'Pat',
      lastName: 'Password',
      email: 'pat.password@example.com',
      password: 'correct horse battery',
    });
    expect(refused.statusCode).toBe(403);
    const error = ZApiError.parse(refused.json()).error;
    expect(error.message).toContain('“Continue with Acme ID”');
    expect(error.fields?.email).toBeTruthy();
    const config = (await new TestClient(t.app).get('/api/app-config')).json() as TAppConfig;
    expect(config.signUps).toEqual({ mode: 'sso', singleSignOn: 'Acme ID' });
    // Existing password accounts keep signing in.
    await new TestClient(t.app).signIn(ADMIN_EMAIL, 'correct horse battery');
  });
});
