import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { genericOAuth } from 'better-auth/plugins';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../contract/user.ts';
import type { TConfig } from '../../config.ts';
import type { TDb } from '../../db/client.ts';
import { accounts, sessions, users, verifications } from '../../db/schema.ts';
import type { TPasswordHasher } from './password-hasher.ts';

export const OIDC_PROVIDER_ID = 'oidc';
export const AUTH_BASE_PATH = '/api/identity';
/** Set by the server on every request, over whatever the client sent under that name. */
export const CLIENT_IP_HEADER = 'x-formwork-client-ip';

type TProfile = Record<string, unknown>;
const str = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

function splitName(profile: TProfile): { firstName?: string; lastName?: string } {
  const firstName = str(profile.given_name);
  const lastName = str(profile.family_name);
  if (firstName || lastName) return { firstName, lastName };
  const full = str(profile.name);
  if (!full) return {};
  const [first, ...rest] = full.split(/\s+/);
  return { firstName: first, lastName: rest.join(' ') || undefined };
}

/** One hour: the life of a password-reset link. */
export const RESET_TOKEN_SECONDS = 60 * 60;

/**
 * Whether a token the library hands to `sendVerificationEmail` confirms an email change (its
 * payload names the new address) rather than verifying a new account's address.
 */
export function isEmailChangeToken(token: string): boolean {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { requestType?: unknown };
    return payload.requestType === 'change-email-verification';
  } catch {
    return false;
  }
}

export function createBetterAuth(deps: {
  db: TDb;
  config: TConfig;
  isAdminEmail: (email: string) => boolean;
  /** Runs after every sign-in, whatever the method: the place for the ADMIN_EMAILS bootstrap. */
  onSessionCreated: (userId: string) => Promise<void>;
  /** Our hasher (password-hasher.ts): the library's format, with a limit on hashes at once. */
  password: TPasswordHasher['password'];
  /** Mails a password-reset link; must not wait for the mail server (the answer's time would tell). */
  sendResetPassword: (reset: { userId: string; token: string }) => void;
  /** Mails the link that confirms an email change to the new address. */
  sendEmailChangeLink: (change: { userId: string; newEmail: string; token: string }) => Promise<void>;
}) {
  const { config } = deps;
  return betterAuth({
    appName: 'Formwork',
    baseURL: config.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: config.sessionSecret,
    trustedOrigins: [config.publicUrl],
    database: drizzleAdapter(deps.db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: true,
      password: deps.password,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => deps.sendResetPassword({ userId: user.id, token }),
    },
    // A reset token in the table would be as good as the link: only its digest is kept.
    verification: { storeIdentifier: { default: 'plain', overrides: { 'reset-password:': 'hashed' } } },
    emailVerification: {
      sendVerificationEmail: async ({ user, token }) => {
        if (isEmailChangeToken(token)) await deps.sendEmailChangeLink({ userId: user.id, newEmail: user.email, token });
      },
    },
    user: {
      // The new address gets a link and the change applies when it is opened (auth.service.ts).
      changeEmail: { enabled: true },
      additionalFields: {
        firstName: { type: 'string', required: false },
        lastName: { type: 'string', required: false },
        role: { type: 'string', required: false, input: false, defaultValue: 'user' },
      },
    },
    session: {
      // Off on purpose: every request reads the session row, so sign-out and role changes apply at once.
      cookieCache: { enabled: false },
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    // Sign-in throttling is ours (sign-in-throttle.ts), with counters in the database.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: 'formwork',
      useSecureCookies: config.publicUrl.startsWith('https://'),
      // The address Fastify resolved (TRUST_PROXY decides whether proxies are believed), set on every
      // request by app.ts: what a session records and Settings → Profile shows.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    logger: { disabled: config.env === 'test' },
    // A callback the library cannot tie to a sign-in (a forged or stale state) lands on our page too.
    onAPIError: { errorURL: `${config.publicUrl}/api/login/error` },
    databaseHooks: {
      session: {
        create: {
          after: async (session) => {
            await deps.onSessionCreated(session.userId);
          },
        },
      },
      user: {
        create: {
          before: async (user) => ({
            data: { ...user, role: deps.isAdminEmail(user.email) ? 'admin' : 'user' },
          }),
        },
      },
    },
    plugins: config.oidc
      ? [
          genericOAuth({
            config: [
              {
                providerId: OIDC_PROVIDER_ID,
                name: config.oidc.name,
                discoveryUrl: `${config.oidc.issuer}/.well-known/openid-configuration`,
                clientId: config.oidc.clientId,
                clientSecret: config.oidc.clientSecret,
                scopes: ['openid', 'email', 'profile'],
                pkce: true,
                mapProfileToUser: (profile: TProfile) => {
                  const { firstName, lastName } = splitName(profile);
                  const email = str(profile.email) ?? '';
                  return {
                    name: str(profile.name) ?? ([firstName, lastName].filter(Boolean).join(' ') || email),
                    firstName,
                    lastName,
                  };
                },
              },
            ],
          }),
        ]
      : [],
  });
}
export type TBetterAuth = ReturnType<typeof createBetterAuth>;
