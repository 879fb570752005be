import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export type TOidcTestProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the provider says of the account's address from now on (true at the start). */
  setEmailVerified(verified: boolean): void;
  close(): Promise<void>;
};

export const OIDC_TEST_ACCOUNT = {
  sub: 'oidc-user-1',
  email: 'oidc.user@example.com',
  given_name: 'Olive',
  family_name: 'Idris',
};

/** A free loopback port: listen on 0, read it, close. */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A real OpenID Provider on loopback. Its login/consent interaction completes on its own for one
 * fixed account, so a test can walk the whole redirect dance without a browser.
 */
export async function startOidcProvider(opts: { port: number; redirectUri: string }): Promise<TOidcTestProvider> {
  const issuer = `http://127.0.0.1:${opts.port}`;
  const clientId = 'formwork-test';
  const clientSecret = 'formwork-test-secret-which-is-long-enough';
  let emailVerified = true;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ ...OIDC_TEST_ACCOUNT, sub: id, email_verified: emailVerified, name: 'Olive Idris' }),
    }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['test-cookie-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'] },
    pkce: { required: () => false },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
  });
  const callback = provider.callback();
  const server = http.createServer(async (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      try {
        const details = await provider.interactionDetails(req, res);
        const grant = new provider.Grant({ accountId: OIDC_TEST_ACCOUNT.sub, clientId });
        grant.addOIDCScope(String(details.params.scope ?? 'openid'));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: OIDC_TEST_ACCOUNT.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
      } catch (error) {
        res.statusCode = 500;
        res.end(String(error));
      }
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(opts.port, '127.0.0.1', resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    setEmailVerified: (verified) => {
      emailVerified = verified;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Follows redirects on the provider's side with its own cookie jar, until one leaves the provider. */
export async function followProviderRedirects(startUrl: string, issuer: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = startUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (!url.startsWith(issuer)) return url;
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`provider stopped at ${url} with ${response.status}: ${await response.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects at the provider');
}
