import { createAuthContext, type TAuthServiceDeps } from './auth-context.ts';
import { createBetterAuth, OIDC_PROVIDER_ID, type TBetterAuth } from './better-auth.ts';
import { createChangePassword } from './change-password.ts';
import { createIdentityCheck } from './confirm-identity.ts';
import { createEmailChange } from './email-change.ts';
import { createEmailVerification } from './email-verification.ts';
import { createPasswordRecovery } from './password-recovery.ts';
import { createSessions } from './sessions.ts';
import { createSignIn } from './sign-in.ts';
import { createSignUp } from './sign-up.ts';
import { createTwoFactor } from './two-factor.ts';
import { createUpdateProfile } from './update-profile.ts';

export type { TAuthServiceDeps } from './auth-context.ts';
export { sessionKeyOf } from './session-cookie.ts';

/**
 * The accounts' use cases (one file each beside this one) around one auth library instance and
 * one shared context, so every way in shares the same throttle, hasher and session memo.
 */
export function createAuthService(deps: TAuthServiceDeps) {
  const ctx = createAuthContext(deps, () => auth);
  const verification = createEmailVerification(ctx);
  const signUp = createSignUp(ctx);
  const recovery = createPasswordRecovery(ctx);
  const emailChange = createEmailChange(ctx);
  const sessions = createSessions(ctx);

  const build = () =>
    createBetterAuth({
      db: deps.db,
      config: deps.config,
      onSessionCreated: verification.onSessionCreated,
      sendVerificationEmail: async (user, proof) => {
        await verification.issueLink(user, proof);
      },
      onExistingUserSignUp: signUp.onExistingUserSignUp,
      onEmailVerified: verification.onEmailVerified,
      password: ctx.hasher.password,
      sendResetPassword: recovery.sendResetPassword,
      sendEmailChangeLink: emailChange.sendEmailChangeLink,
      admitSingleSignOn: deps.signUpPolicy?.admitSingleSignOn,
      admitSession: sessions.admitSession,
    });

  // OIDC discovery happens once per instance; if the provider was down then, a later login
  // rebuilds the instance instead of staying broken until a restart.
  let auth: TBetterAuth = build();
  let lastRebuild = 0;
  async function authWithProvider(): Promise<TBetterAuth | undefined> {
    const hasProvider = async (instance: TBetterAuth) => (await instance.$context).socialProviders.some((p) => p.id === OIDC_PROVIDER_ID);
    if (await hasProvider(auth)) return auth;
    if (Date.now() - lastRebuild < 2_000) return undefined;
    lastRebuild = Date.now();
    const fresh = build();
    if (!(await hasProvider(fresh))) return undefined;
    auth = fresh;
    return auth;
  }

  const twoFactor = createTwoFactor({
    db: deps.db,
    auth: () => auth,
    users: deps.users,
    usersService: deps.usersService,
    throttle: ctx.throttle,
    hasher: ctx.hasher,
    forgetSessions: (userId) => ctx.knownSessions.forgetUser(userId),
    onGuessing: ctx.sendGuessingNotice,
    notify: deps.notify ? (userId, notice) => ctx.inBackground('two-factor notice', () => deps.notify!(userId, notice)) : undefined,
  });
  const identity = createIdentityCheck({
    db: deps.db,
    users: deps.users,
    hasher: ctx.hasher,
    throttle: ctx.throttle,
    secondFactor: (input) => twoFactor.verifySecondFactor(input),
    onGuessing: ctx.sendGuessingNotice,
  });

  let sweeper: NodeJS.Timeout | undefined;
  return {
    get auth() {
      return auth;
    },
    authWithProvider,
    twoFactor,
    confirmIdentity: identity.confirmIdentity,
    forgetSessionsOf: sessions.forgetSessionsOf,

    /** Sweeps counters that hold nothing any more, hourly. */
    start() {
      const sweep = () => {
        void ctx.throttle.sweep().catch((error: unknown) => deps.log.warn({ err: error }, 'could not sweep the sign-in counters'));
        void ctx.links.sweep(ctx.now()).catch((error: unknown) => deps.log.warn({ err: error }, 'could not sweep the verification links'));
      };
      sweep();
      sweeper = setInterval(sweep, 60 * 60_000);
      sweeper.unref();
    },
    async stop() {
      clearInterval(sweeper);
      // A notice's work may start another (the reset link's, then its mail).
      while (ctx.noticesInFlight.size > 0) await Promise.all(ctx.noticesInFlight);
    },

    signUp: signUp.signUp,
    verifyEmail: verification.verifyEmail,
    resendVerification: verification.resendVerification,
    markVerified: verification.markVerified,
    signIn: createSignIn(ctx, twoFactor),
    signOut: sessions.signOut,
    forgotPassword: recovery.forgotPassword,
    resetPassword: recovery.resetPassword,
    changePassword: createChangePassword(ctx),
    updateProfile: createUpdateProfile(ctx),
    changeEmail: emailChange.changeEmail,
    confirmEmailChange: emailChange.confirmEmailChange,
    listSessions: sessions.listSessions,
    signOutOthers: sessions.signOutOthers,
    endSessionsOf: sessions.endSessionsOf,
    sendResetLink: recovery.sendResetLink,
    currentUser: sessions.currentUser,
    currentUserId: sessions.currentUserId,
  };
}
export type TAuthService = ReturnType<typeof createAuthService>;
