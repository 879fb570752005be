import { APIError, betterAuth, type BetterAuthPlugin } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { createAuthEndpoint } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { genericOAuth } from 'better-auth/plugins';
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../contract/user.ts';
import type { TConfig } from '../../config.ts';
import type { TDb } from '../../db/client.ts';
import { accounts, sessions, twoFactors, users, verifications } from '../../db/schema.ts';
import type { TPasswordHasher } from './password-hasher.ts';
import { twoFactorChallengeReader, twoFactorPlugin } from './two-factor-plugin.ts';

export const OIDC_PROVIDER_ID = 'oidc';
export const AUTH_BASE_PATH = '/api/identity';
/** How long a verification link works. */
export const VERIFY_EMAIL_SECONDS = 24 * 60 * 60;

/**
 * Sign-up never signs in by itself (a cookie would tell a new address from a taken one); when
 * nothing is held back we start the session here instead. Server-only: the library's own routes
 * are closed anyway (auth.routes.ts).
 */
const sessionStarter = {
  id: 'formwork-session-starter',
  endpoints: {
    startSession: createAuthEndpoint(
      '/formwork/start-session',
      { method: 'POST', body: z.object({ userId: z.string() }), metadata: { SERVER_ONLY: true } },
      async (ctx) => {
        const user = await ctx.context.internalAdapter.findUserById(ctx.body.userId);
        if (!user) throw new APIError('NOT_FOUND');
        const session = await ctx.context.internalAdapter.createSession(user.id);
        if (!session) throw new APIError('INTERNAL_SERVER_ERROR');
        await setSessionCookie(ctx, { session, user });
        return ctx.json({ status: true });
      },
    ),
  },
} satisfies BetterAuthPlugin;

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
  /** Runs after every sign-in, whatever the method: the place for the ADMIN_EMAILS bootstrap. */
  onSessionCreated: (userId: string) => Promise<void>;
  /** The library's proof for `email` (a signed, expiring token) is ready: make and send the link. */
  sendVerificationEmail: (user: { id: string; email: string }, proof: string) => Promise<void>;
  /** Someone signed up with an address that already has an account. */
  onExistingUserSignUp: (userId: string) => Promise<void>;
  /** An address was just verified. */
  onEmailVerified: (userId: string) => Promise<void>;
  /** Our hasher (password-hasher.ts): the library's format, with a limit on hashes at once. */
  password: TPasswordHasher['password'];
  /** Mails a password-reset link; must not wait for the mail server (the answer's time would tell). */
  sendResetPassword: (reset: { userId: string; token: string }) => void;
  /** Mails the link that confirms an email change to the new address. */
  sendEmailChangeLink: (change: { userId: string; newEmail: string; token: string }) => Promise<void>;
  /** A first sign-in through single sign-on is about to make an account: throws the refusal (sign-up-policy.ts). */
  admitSingleSignOn?: (email: string, providerVerified: boolean) => Promise<void>;
  /** A session is about to start for this user, by any method: throws while the account is suspended. */
  admitSession?: (userId: string) => Promise<void>;
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
      schema: { user: users, session: sessions, account: accounts, verification: verifications, twoFactor: twoFactors },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: false,
      password: deps.password,
      onExistingUserSignUp: async ({ user }) => deps.onExistingUserSignUp(user.id),
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => deps.sendResetPassword({ userId: user.id, token }),
    },
    // A reset token in the table would be as good as the link: only its digest is kept.
    verification: { storeIdentifier: { default: 'plain', overrides: { 'reset-password:': 'hashed' } } },
    emailVerification: {
      sendOnSignUp: true,
      // A link signs nobody in: a link someone else sent would otherwise sign the reader into the
      // sender's account.
      autoSignInAfterVerification: false,
      expiresIn: VERIFY_EMAIL_SECONDS,
      // The library's email change sends its link through this hook too; those tokens go to the
      // new address with the email-change wording.
      sendVerificationEmail: async ({ user, token }) => {
        if (isEmailChangeToken(token)) return deps.sendEmailChangeLink({ userId: user.id, newEmail: user.email, token });
        return deps.sendVerificationEmail(user, token);
      },
      afterEmailVerification: async (user) => deps.onEmailVerified(user.id),
    },
    user: {
      // The new address gets a link and the change applies when it is opened (email-change.ts).
      changeEmail: { enabled: true },
      additionalFields: {
        firstName: { type: 'string', required: false },
        lastName: { type: 'string', required: false },
        role: { type: 'string', required: false, input: false, defaultValue: 'user' },
        // Read with every session, so a suspended account's cookie is refused where it is resolved.
        suspendedAt: { type: 'date', required: false, input: false },
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
          before: async (session) => {
            await deps.admitSession?.(session.userId);
          },
          after: async (session) => {
            await deps.onSessionCreated(session.userId);
          },
        },
      },
      // Nobody is an admin at sign-up: ADMIN_EMAILS counts only once the address is verified.
      // Password sign-ups were admitted by our route (with their invitation); any other way an
      // account is made here is a first sign-in through single sign-on.
      user: {
        create: {
          before: async (user, ctx) => {
            if (ctx?.path !== '/sign-up/email') await deps.admitSingleSignOn?.(user.email, user.emailVerified === true);
            return { data: { ...user, role: 'user' } };
          },
        },
      },
    },
    plugins: config.oidc
      ? [
          sessionStarter,
          twoFactorPlugin(),
          twoFactorChallengeReader,
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
      : [sessionStarter, twoFactorPlugin(), twoFactorChallengeReader],
  });
}
export type TBetterAuth = ReturnType<typeof createBetterAuth>;
