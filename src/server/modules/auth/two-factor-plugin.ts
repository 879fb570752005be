import type { BetterAuthPlugin } from 'better-auth';
import { createAuthEndpoint } from 'better-auth/api';
import { twoFactor } from 'better-auth/plugins';

/** The auth library's name for the cookie that holds a sign-in waiting for its second factor. */
const TWO_FACTOR_COOKIE = 'two_factor';

/**
 * The auth library's two-factor plugin, as Formwork uses it: TOTP from any authenticator app and
 * ten single-use recovery codes, both stored encrypted with the auth secret (the library's
 * default). Its own account lockout is off: the code step is counted by the same sign-in throttle
 * as passwords (sign-in-throttle.ts), so one set of rules and one 429 cover both steps. Its routes
 * stay closed like the rest of the library's; two-factor.ts calls them through `auth.api`.
 */
export const twoFactorPlugin = () =>
  twoFactor({
    issuer: 'Formwork',
    accountLockout: { enabled: false },
    // Ten minutes from the right password to the code, the library's default.
    twoFactorCookieMaxAge: 10 * 60,
  });

/**
 * Which account a pending sign-in belongs to, read from the library's signed two-factor cookie the
 * way the library reads it: the throttle counts the code step per account, like the password step.
 * Server-only.
 */
export const twoFactorChallengeReader = {
  id: 'formwork-two-factor-challenge',
  endpoints: {
    twoFactorChallenge: createAuthEndpoint('/formwork/two-factor-challenge', { method: 'GET', metadata: { SERVER_ONLY: true } }, async (ctx) => {
      const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE);
      const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
      if (!identifier) return ctx.json({ userId: null as string | null });
      const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
      if (!pending || new Date(pending.expiresAt).getTime() <= Date.now()) return ctx.json({ userId: null as string | null });
      return ctx.json({ userId: pending.value as string | null });
    }),
  },
} satisfies BetterAuthPlugin;
