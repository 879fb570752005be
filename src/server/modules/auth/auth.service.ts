import { APIError } from 'better-auth';
import { fromNodeHeaders } from 'better-auth/node';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  FORGOT_PASSWORD_MESSAGE,
  type TAccountSessions,
  type TChangePasswordBody,
  type TProfileBody,
  type TResendVerificationResult,
  type TResetPasswordBody,
  type TSignInBody,
  type TSignUpBody,
  type TSignUpPending,
  type TUser,
} from '../../../contract/user.ts';
import type { TConfig } from '../../config.ts';
import type { TDb } from '../../db/client.ts';
import { createEmailVerificationToken } from 'better-auth/api';
import { AppError, notFound, unauthorized } from '../../http/app-error.ts';
import type { TUsersRepository } from '../users/users.repository.ts';
import type { TUsersService } from '../users/users.service.ts';
import { createAuthRepository } from './auth.repository.ts';
import { createBetterAuth, isEmailChangeToken, OIDC_PROVIDER_ID, VERIFY_EMAIL_SECONDS, type TBetterAuth } from './better-auth.ts';
import { commonPasswordReason } from './common-passwords.ts';
import { createIdentityCheck } from './confirm-identity.ts';
import { createEmailVerificationRepository } from './email-verification.repository.ts';
import { createPasswordHasher, type THashGateLimits } from './password-hasher.ts';
import { SUSPENDED_MESSAGE, type TSignUpPolicyGate } from './sign-up-policy.ts';
import { createRecoveryLimiter, createSignInThrottle, createSignUpLimiter, describeWait, SIGN_IN_THROTTLE } from './sign-in-throttle.ts';
import { createTwoFactor, TWO_FACTOR_CHALLENGE } from './two-factor.ts';
import type { TTwoFactorChallenge } from '../../../contract/two-factor.ts';

export type TAuthResult = { user: TUser; setCookies: string[] };
/** A right password for an account with two-factor: no session yet, only the library's two-factor cookie. */
export type TSignInResult = TAuthResult | { challenge: TTwoFactorChallenge; setCookies: string[] };
/** Sign-up's outcome: signed in at once (no mail server), or the same "check your email" for everyone. */
export type TSignUpResult = ({ kind: 'signed_in' } & TAuthResult) | ({ kind: 'pending' } & TSignUpPending);

const SIGN_UP_PENDING: TSignUpPending = {
  status: 'check_email',
  message: 'Check your email: we sent a message to this address. Open its link to verify the address.',
};

/** Verification links asked for again, per account and hour. */
const RESENDS_PER_HOUR = 5;
const VERIFY_TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const invalidLink = () =>
  new AppError('bad_request', 'This verification link is not valid any more: it was used, replaced by a newer one, or it expired. Sign in and ask for a new one.', {
    token: 'The link is not valid any more.',
  });

const greeting = (firstName: string | null | undefined) => `Hello ${firstName?.trim() || 'there'},`;

function verificationNotice(firstName: string | null | undefined, email: string, link: string): { subject: string; text: string } {
  return {
    subject: 'Verify your email address for Formwork',
    text: [
      greeting(firstName),
      '',
      `Someone, probably you, created a Formwork account with this address (${email}). Open this link to verify that the address is yours:`,
      '',
      link,
      '',
      `The link works once, within ${VERIFY_EMAIL_SECONDS / 3600} hours. Until the address is verified, the account can build formats and generate documents, but cannot send email, share links or create API keys.`,
      '',
      'If you did not create this account, ignore this message: nothing is sent in your name until the link is opened.',
      '',
      '— Formwork',
    ].join('\n'),
  };
}

function takenAddressNotice(firstName: string | null, email: string, publicUrl: string): { subject: string; text: string } {
  return {
    subject: 'Someone tried to create a Formwork account with your address',
    text: [
      greeting(firstName),
      '',
      `Someone tried to create a new Formwork account with your address (${email}), which already has an account. Nothing was changed, and nobody was signed in to your account.`,
      '',
      `If it was you, sign in instead: ${publicUrl}/login`,
      '',
      'If it was not you, there is nothing to do.',
      '',
      '— Formwork',
    ].join('\n'),
  };
}

const SESSION_COOKIE_RE = /(?:^|;\s*)(?:__Secure-)?formwork\.session_token=([^;]+)/;
/** The signed session cookie's value, the key a session is remembered by. */
const sessionCookieOf = (headers: IncomingHttpHeaders) => SESSION_COOKIE_RE.exec(headers.cookie ?? '')?.[1];

/**
 * The sign-in session a request carries, as a key that can be stored: a SHA-256 of its session
 * cookie (the cookie itself is a credential). A new sign-in gives a new key.
 */
export function sessionKeyOf(headers: IncomingHttpHeaders): string {
  const cookie = sessionCookieOf(headers);
  if (!cookie) throw unauthorized();
  return createHash('sha256').update(cookie, 'utf8').digest('hex');
}

/** How long a session is taken as valid without reading it: the library refreshes sessions as they are read. */
const SESSION_MEMO_MS = 5 * 60_000;
const SESSION_MEMO_ENTRIES = 10_000;

function createSessionMemo() {
  const entries = new Map<string, { userId: string; until: number }>();
  return {
    userOf(cookie: string): string | undefined {
      const entry = entries.get(cookie);
      if (entry && entry.until > Date.now()) return entry.userId;
      if (entry) entries.delete(cookie);
      return undefined;
    },
    remember(cookie: string, userId: string, expiresAt: number) {
      if (entries.size >= SESSION_MEMO_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(cookie, { userId, until: Math.min(expiresAt, Date.now() + SESSION_MEMO_MS) });
    },
    forget(cookie: string | undefined) {
      if (cookie) entries.delete(cookie);
    },
    /** After the library ended a user's sessions itself (a reset, a password change). */
    forgetAll() {
      entries.clear();
    },
    forgetUser(userId: string) {
      for (const [cookie, entry] of entries) if (entry.userId === userId) entries.delete(cookie);
    },
  };
}

/** The HTTP status the auth library put on its error, if any. */
function statusOf(error: unknown): number | undefined {
  const candidate = error as { statusCode?: unknown };
  return typeof candidate?.statusCode === 'number' ? candidate.statusCode : undefined;
}

/** The code the auth library put on its error, if any. */
function codeOf(error: unknown): string | undefined {
  const candidate = error as { body?: { code?: unknown } };
  return typeof candidate?.body?.code === 'string' ? candidate.body.code : undefined;
}

/** A new password the server refuses, with the reason for the form's field. */
function assertNotCommon(password: string, field: string): void {
  const reason = commonPasswordReason(password);
  if (reason) throw new AppError('validation_failed', reason, { [field]: reason });
}

const INVALID_RESET_LINK = 'This password reset link is not valid any more: it was used, it expired, or it is incomplete. Ask for a new one.';
const INVALID_EMAIL_LINK = 'This confirmation link is not valid any more: it was used, it expired, or it belongs to another account. Ask for a new one from Settings.';

function resetNotice(firstName: string | null, link: string): { subject: string; text: string } {
  return {
    subject: 'Choose a new Formwork password',
    text: [
      greeting(firstName),
      '',
      'Someone (we hope you) asked to reset the password of your Formwork account. Choose a new one here:',
      '',
      link,
      '',
      'The link works once, within an hour. Using it signs you out everywhere else.',
      '',
      'If you did not ask for this, ignore this email: your password stays as it is.',
      '',
      '— Formwork',
    ].join('\n'),
  };
}

function emailChangeLinkNotice(firstName: string | null, newEmail: string, link: string): { subject: string; text: string } {
  return {
    subject: 'Confirm your new Formwork email address',
    text: [
      greeting(firstName),
      '',
      `To make ${newEmail} the address of your Formwork account, open this link while signed in:`,
      '',
      link,
      '',
      'The link works within an hour. Until it is opened, the account keeps its current address.',
      '',
      'If you did not ask for this, ignore this email.',
      '',
      '— Formwork',
    ].join('\n'),
  };
}

function emailChangeRequestedNotice(firstName: string | null, newEmail: string, publicUrl: string): { subject: string; text: string } {
  return {
    subject: 'Your Formwork email address is being changed',
    text: [
      greeting(firstName),
      '',
      `Someone signed in to your Formwork account asked to change its email address to ${newEmail}. The change happens only if the link we sent to that address is opened.`,
      '',
      `If this was not you, sign in, change your password and sign out everywhere else from Settings → Profile: ${publicUrl}/settings`,
      '',
      '— Formwork',
    ].join('\n'),
  };
}

/** The email an account's owner gets when its sign-ins go past the ceiling. */
function guessingNotice(firstName: string | null, email: string, publicUrl: string): { subject: string; text: string } {
  const limits = SIGN_IN_THROTTLE;
  return {
    subject: 'Someone is trying to sign in to your Formwork account',
    text: [
      `Hello ${firstName?.trim() || 'there'},`,
      '',
      `Someone has entered a wrong password for your Formwork account (${email}) at least ${limits.accountCeiling} times within an hour.`,
      '',
      `To protect the account, every sign-in to it now waits a moment after each wrong password, up to ${describeWait(limits.maxAccountDelaySeconds * 1000)}. If the sign-in page asks you to wait, try again after the time it shows.`,
      '',
      'If this was you, there is nothing to do. If not, the attempts fail as long as your password is not easy to guess; a long password that you use nowhere else is the best protection.',
      '',
      `Sign in: ${publicUrl}/login`,
      '',
      '— Formwork',
    ].join('\n'),
  };
}

export function createAuthService(deps: {
  db: TDb;
  config: TConfig;
  users: TUsersRepository;
  usersService: TUsersService;
  log: { warn: (obj: object, msg: string) => void };
  /** Sends a notice through the installation's mail server; false when none is set up. */
  notify?: (userId: string, notice: { subject: string; text: string }) => Promise<boolean>;
  /** Whether the installation has a mail server: verification is only asked for when a link can arrive. */
  mailServer?: () => Promise<boolean>;
  /** The same, to an address that is no account's yet (the new address of an email change). */
  mailTo?: (address: string, notice: { subject: string; text: string }) => Promise<boolean>;
  /** The throttle's clock; tests move it past the waits. */
  clock?: () => Date;
  hashLimits?: THashGateLimits;
  /** Who may create an account (sign-up-policy.ts); without it, anyone may. */
  signUpPolicy?: TSignUpPolicyGate;
}) {
  const { config } = deps;
  const hasher = createPasswordHasher(deps.hashLimits);
  const isAdminEmail = (email: string) => config.adminEmails.has(email.toLowerCase());
  const mailServer = deps.mailServer ?? (async () => false);
  const links = createEmailVerificationRepository(deps.db);
  const counters = createAuthRepository(deps.db);
  const now = deps.clock ?? (() => new Date());

  /** ADMIN_EMAILS makes an admin only of an address its owner has verified. */
  async function promoteIfAdmin(userId: string) {
    const row = await deps.users.findById(userId);
    if (row && row.emailVerified && row.role !== 'admin' && isAdminEmail(row.email)) await deps.users.setRole(userId, 'admin');
  }

  // Emails go out after the answer, so a caller learns nothing from the time they take; shutting
  // down waits for those on their way.
  const noticesInFlight = new Set<Promise<void>>();
  function inBackground(what: string, work: () => Promise<unknown>) {
    const sending = work()
      .then(() => undefined)
      .catch((error: unknown) => deps.log.warn({ err: error }, `could not send the ${what}`))
      .finally(() => noticesInFlight.delete(sending));
    noticesInFlight.add(sending);
  }

  /**
   * Makes a verification link around the library's proof (a signed, expiring token it checks
   * again when the link is used). The link's own token is 256 random bits, kept only as a hash,
   * and works once. It goes by email; with no mail server, only an ADMIN_EMAILS address gets one,
   * in the log.
   */
  async function issueLink(user: { id: string; email: string }, proof: string): Promise<'sent' | 'logged' | 'none'> {
    const hasServer = await mailServer();
    if (!hasServer && !isAdminEmail(user.email)) return 'none';
    const token = randomBytes(32).toString('base64url');
    await links.issue(user.id, sha256(token), proof, new Date(now().getTime() + VERIFY_EMAIL_SECONDS * 1000));
    const link = `${config.publicUrl}/verify-email?token=${token}`;
    if (!hasServer) {
      // The one credential this server writes to its log, on purpose: with no mail server this is
      // the only way an ADMIN_EMAILS address can prove itself, and whoever can read the log already
      // owns the machine (and its data directory). Everywhere else tokens are masked (log-tokens.ts).
      deps.log.warn(
        { email: user.email },
        `No mail server is set up, so here is the verification link for ${user.email}, an ADMIN_EMAILS address. Open it to verify the address and become an admin: ${link}`,
      );
      return 'logged';
    }
    const row = await deps.users.findById(user.id);
    const notify = deps.notify;
    if (notify) inBackground('verification email', () => notify(user.id, verificationNotice(row?.firstName, user.email, link)));
    return 'sent';
  }

  /** Without a mail server, an unverified ADMIN_EMAILS address gets a new link in the log when it signs in and has none. */
  async function onSessionCreated(userId: string) {
    await promoteIfAdmin(userId);
    const row = await deps.users.findById(userId);
    if (!row || row.emailVerified || !isAdminEmail(row.email) || (await mailServer()) || (await links.hasLive(userId, now()))) return;
    await issueLink(row, await createEmailVerificationToken(config.sessionSecret, row.email, undefined, VERIFY_EMAIL_SECONDS));
  }

  async function onExistingUserSignUp(userId: string) {
    const notify = deps.notify;
    if (!notify || !(await mailServer())) return;
    // One notice an hour at most: sign-ups with someone's address must not become a way to flood them.
    if (!(await counters.take(`taken-address:${userId}`, now(), 60 * 60, 1))) return;
    inBackground('taken-address notice', async () => {
      const owner = await deps.users.findById(userId);
      if (owner) await notify(owner.id, takenAddressNotice(owner.firstName, owner.email, config.publicUrl));
    });
  }

  async function onEmailVerified(userId: string) {
    await links.dropAll(userId);
    await promoteIfAdmin(userId);
  }

  function sendResetPassword({ userId, token }: { userId: string; token: string }) {
    const notify = deps.notify;
    if (!notify) return;
    inBackground('password reset email', async () => {
      const owner = await deps.users.findById(userId);
      if (owner) await notify(owner.id, resetNotice(owner.firstName, `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`));
    });
  }

  async function sendEmailChangeLink({ userId, newEmail, token }: { userId: string; newEmail: string; token: string }) {
    const mailTo = deps.mailTo;
    if (!mailTo) return;
    inBackground('email change link', async () => {
      const owner = await deps.users.findById(userId);
      await mailTo(newEmail, emailChangeLinkNotice(owner?.firstName ?? null, newEmail, `${config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`));
    });
  }

  /** No session starts for a suspended account, whatever the way in. */
  async function admitSession(userId: string) {
    const row = await deps.users.findById(userId);
    if (row?.suspendedAt) throw new APIError('FORBIDDEN', { code: 'account_suspended', message: SUSPENDED_MESSAGE });
  }

  const build = () =>
    createBetterAuth({
      db: deps.db,
      config,
      onSessionCreated,
      sendVerificationEmail: async (user, proof) => {
        await issueLink(user, proof);
      },
      onExistingUserSignUp,
      onEmailVerified,
      password: hasher.password,
      sendResetPassword,
      sendEmailChangeLink,
      admitSingleSignOn: deps.signUpPolicy?.admitSingleSignOn,
      admitSession,
    });

  // OIDC discovery happens once per instance; if the provider was down then, a later login
  // rebuilds the instance instead of staying broken until a restart.
  let auth: TBetterAuth = build();
  let lastRebuild = 0;
  async function authWithProvider(): Promise<TBetterAuth | undefined> {
    const hasProvider = async (instance: TBetterAuth) =>
      (await instance.$context).socialProviders.some((p) => p.id === OIDC_PROVIDER_ID);
    if (await hasProvider(auth)) return auth;
    if (Date.now() - lastRebuild < 2_000) return undefined;
    lastRebuild = Date.now();
    const fresh = build();
    if (!(await hasProvider(fresh))) return undefined;
    auth = fresh;
    return auth;
  }

  // On the embedded database this is the only process that can end a session (the data directory
  // is locked to it), so remembering which user a session cookie belongs to stays exact as long
  // as sign-out forgets it here; that saves two reads on every request. Several processes on
  // PostgreSQL read the session every time, so a sign-out anywhere takes effect at once.
  const knownSessions = config.databaseUrl ? undefined : createSessionMemo();

  const throttle = createSignInThrottle({ counters, now });
  const signUps = createSignUpLimiter({ counters, now, perHour: config.signUpsPerIpPerHour });
  const recovery = createRecoveryLimiter({ counters, now });

  function sendGuessingNotice(email: string) {
    const notify = deps.notify;
    if (!notify) return;
    inBackground('sign-in attempts notice', async () => {
      const owner = await deps.users.findByEmail(email);
      if (owner) await notify(owner.id, guessingNotice(owner.firstName, owner.email, config.publicUrl));
    });
  }
  let sweeper: NodeJS.Timeout | undefined;
  const twoFactor = createTwoFactor({
    db: deps.db,
    auth: () => auth,
    users: deps.users,
    usersService: deps.usersService,
    throttle,
    hasher,
    forgetSessions: (userId) => knownSessions?.forgetUser(userId),
    onGuessing: sendGuessingNotice,
    notify: deps.notify ? (userId, notice) => inBackground('two-factor notice', () => deps.notify!(userId, notice)) : undefined,
  });
  const identity = createIdentityCheck({
    db: deps.db,
    users: deps.users,
    hasher,
    throttle,
    secondFactor: (input) => twoFactor.verifySecondFactor(input),
    onGuessing: sendGuessingNotice,
  });

  async function userFromHeaders(headers: Headers): Promise<TUser> {
    const session = await auth.api.getSession({ headers });
    if (!session) throw unauthorized();
    const row = await deps.users.findById(session.user.id);
    if (!row || row.suspendedAt) throw unauthorized();
    return deps.usersService.toUser(row);
  }

  return {
    get auth() {
      return auth;
    },
    authWithProvider,
    twoFactor,
    confirmIdentity: identity.confirmIdentity,
    /** After an account is deleted: its session cookies stop working in this process at once. */
    forgetSessionsOf(userId: string) {
      knownSessions?.forgetUser(userId);
    },

    /** Sweeps counters that hold nothing any more, hourly. */
    start() {
      const sweep = () => {
        void throttle.sweep().catch((error: unknown) => deps.log.warn({ err: error }, 'could not sweep the sign-in counters'));
        void links.sweep(now()).catch((error: unknown) => deps.log.warn({ err: error }, 'could not sweep the verification links'));
      };
      sweep();
      sweeper = setInterval(sweep, 60 * 60_000);
      sweeper.unref();
    },
    async stop() {
      clearInterval(sweeper);
      await Promise.all(noticesInFlight);
    },

    /**
     * With a mail server, the answer is the same "check your email" whether the address is new or
     * taken, and nobody is signed in by it (a cookie would tell the two apart); the owner of a
     * taken address is told by email. Without one, nothing could be verified or told, so a new
     * account is signed in at once and a taken address is a 409, as before (docs/decisions.md).
     */
    async signUp(body: TSignUpBody, ip: string, headers: IncomingHttpHeaders): Promise<TSignUpResult> {
      assertNotCommon(body.password, 'password');
      const invitation = await deps.signUpPolicy?.admitPassword(body.email, body.invitation);
      const counted = await signUps.consume(ip).catch(async (error: unknown) => {
        if (invitation) await deps.signUpPolicy?.release(invitation);
        throw error;
      });
      const lane = await throttle.laneOf(ip);
      const holding = await mailServer();
      const taken = () =>
        new AppError('conflict', 'An account with this email already exists. Sign in instead.', {
          email: 'An account with this email already exists.',
        });
      let created;
      try {
        created = await hasher.inLane(lane, () =>
          auth.api.signUpEmail({
            body: {
              name: `${body.firstName} ${body.lastName}`,
              email: body.email,
              password: body.password,
              firstName: body.firstName,
              lastName: body.lastName,
            },
            headers: fromNodeHeaders(headers),
          }),
        );
      } catch (error) {
        const existing = await deps.users.findByEmail(body.email);
        if (existing) {
          // Two sign-ups with one address at once: the second is answered like any taken address.
          if (!holding) throw taken();
          await onExistingUserSignUp(existing.id);
          return { kind: 'pending', ...SIGN_UP_PENDING };
        }
        // Turned away before the account was made (sign-in was busy, or our own failure): not counted.
        await signUps.refund(counted);
        if (invitation) await deps.signUpPolicy?.release(invitation);
        throw error;
      }
      // For a taken address the library answers with a made-up user that was never stored.
      const row = await deps.users.findById(created.user.id);
      if (!row) {
        if (!holding) throw taken();
        return { kind: 'pending', ...SIGN_UP_PENDING };
      }
      if (holding) return { kind: 'pending', ...SIGN_UP_PENDING };
      const started = await auth.api.startSession({ body: { userId: row.id }, headers: fromNodeHeaders(headers), returnHeaders: true });
      return { kind: 'signed_in', user: await deps.usersService.toUser(row), setCookies: started.headers.getSetCookie() };
    },

    /** Uses a verification link's token: once, before it expires; one answer for every token that does not work. */
    async verifyEmail(token: string): Promise<void> {
      const link = VERIFY_TOKEN_RE.test(token) ? await links.take(sha256(token)) : undefined;
      if (!link || link.expiresAt <= now()) throw invalidLink();
      try {
        await auth.api.verifyEmail({ query: { token: link.proof } });
      } catch {
        // The library's proof failed (the address changed since, or the proof expired).
        throw invalidLink();
      }
    },

    /** A new verification link for the signed-in account, by email (or, for an ADMIN_EMAILS address without a mail server, in the log). */
    async resendVerification(userId: string, headers: IncomingHttpHeaders): Promise<TResendVerificationResult> {
      const row = await deps.users.findById(userId);
      if (!row) throw unauthorized();
      if (row.emailVerified) return { status: 'already_verified', message: 'Your email address is already verified.' };
      const hasServer = await mailServer();
      if (!hasServer && !isAdminEmail(row.email)) {
        throw new AppError('unprocessable', 'This installation has no mail server, so no verification email can be sent. Nothing is held back until it has one.');
      }
      if (!(await counters.take(`verify-resend:${userId}`, now(), 60 * 60, RESENDS_PER_HOUR))) {
        throw new AppError('rate_limited', `You can ask for ${RESENDS_PER_HOUR} verification emails an hour. Use the newest one, or try again later.`, undefined, {
          'retry-after': '3600',
        });
      }
      await auth.api.sendVerificationEmail({ body: { email: row.email }, headers: fromNodeHeaders(headers) });
      return hasServer
        ? { status: 'sent', message: `We sent a new verification link to ${row.email}. It works once, within ${VERIFY_EMAIL_SECONDS / 3600} hours.` }
        : { status: 'logged', message: 'No mail server is set up, so the verification link was written to the server’s log.' };
    },

    /** An admin's word that the address is its owner's (Admin Panel → Users, or admin:create). */
    async markVerified(userId: string): Promise<void> {
      if (!(await links.markVerified(userId))) throw notFound('User');
      await onEmailVerified(userId);
    },

    async signIn(body: TSignInBody, ip: string, headers: IncomingHttpHeaders): Promise<TSignInResult> {
      const attempt = await throttle.admit(body.email, ip);
      let result;
      try {
        result = await hasher.inLane(attempt.lane, () =>
          auth.api.signInEmail({
            body: { email: body.email, password: body.password },
            headers: fromNodeHeaders(headers),
            returnHeaders: true,
          }),
        );
      } catch (error) {
        if (codeOf(error) === 'account_suspended') {
          // The password was right; only its owner learns that the account is suspended.
          await throttle.succeeded(attempt);
          throw new AppError('forbidden', SUSPENDED_MESSAGE);
        }
        const status = statusOf(error);
        if (status === 401 || status === 403 || status === 400) {
          const { tellOwner } = await throttle.failed(attempt);
          if (tellOwner) sendGuessingNotice(attempt.email);
          deps.log.warn({ ip }, 'failed sign-in');
          throw new AppError('unauthorized', 'Invalid email or password.');
        }
        await throttle.abandoned(attempt);
        throw error;
      }
      if (twoFactor.isChallenge(result.response)) {
        // The password was right, so it is no failure; but only a right code clears this client's
        // earlier failures, or a known password would reset the wait between code guesses.
        await throttle.abandoned(attempt);
        return { challenge: TWO_FACTOR_CHALLENGE, setCookies: result.headers.getSetCookie() };
      }
      await throttle.succeeded(attempt);
      const row = await deps.users.findById((result.response as { user: { id: string } }).user.id);
      if (!row) throw unauthorized();
      return { user: await deps.usersService.toUser(row), setCookies: result.headers.getSetCookie() };
    },

    async signOut(headers: IncomingHttpHeaders): Promise<string[]> {
      knownSessions?.forget(sessionCookieOf(headers));
      try {
        const result = await auth.api.signOut({ headers: fromNodeHeaders(headers), returnHeaders: true });
        return result.headers.getSetCookie();
      } catch {
        // No session to end: signing out is still a success for the visitor.
        return [];
      }
    },

    /**
     * Mails a reset link when the address has an account. The answer is the same, and takes the
     * same time, either way: the library does the same reads for an unknown address and the mail
     * goes out after the answer.
     */
    async forgotPassword(email: string, ip: string, headers: IncomingHttpHeaders): Promise<{ message: string }> {
      await recovery.resetRequested(email, ip);
      await auth.api.requestPasswordReset({ body: { email }, headers: fromNodeHeaders(headers) });
      return { message: FORGOT_PASSWORD_MESSAGE };
    },

    /** Sets a new password with a reset link's token, once, and ends every session of the account. */
    async resetPassword(body: TResetPasswordBody, ip: string): Promise<void> {
      assertNotCommon(body.newPassword, 'newPassword');
      await recovery.resetTried(ip);
      const lane = await throttle.laneOf(ip);
      try {
        await hasher.inLane(lane, () => auth.api.resetPassword({ body: { token: body.token, newPassword: body.newPassword } }));
      } catch (error) {
        if (statusOf(error) === 400) throw new AppError('bad_request', INVALID_RESET_LINK, { token: INVALID_RESET_LINK });
        throw error;
      }
      // The library ended the sessions in the database; which user they were is not known here.
      knownSessions?.forgetAll();
    },

    /**
     * Checks the current password under the sign-in throttle (a stolen session must not become a
     * way to guess it), sets the new one and signs out every other session. The answer's cookies
     * carry the new session of this browser.
     */
    async changePassword(body: TChangePasswordBody, userId: string, ip: string, headers: IncomingHttpHeaders): Promise<string[]> {
      assertNotCommon(body.newPassword, 'newPassword');
      const row = await deps.users.findById(userId);
      if (!row) throw unauthorized();
      const attempt = await throttle.admit(row.email, ip);
      let result;
      try {
        result = await hasher.inLane(attempt.lane, () =>
          auth.api.changePassword({
            body: { currentPassword: body.currentPassword, newPassword: body.newPassword, revokeOtherSessions: true },
            headers: fromNodeHeaders(headers),
            returnHeaders: true,
          }),
        );
      } catch (error) {
        const code = codeOf(error);
        if (code === 'INVALID_PASSWORD') {
          const { tellOwner } = await throttle.failed(attempt);
          if (tellOwner) sendGuessingNotice(attempt.email);
          throw new AppError('validation_failed', 'Your current password is not right.', { currentPassword: 'This is not your current password.' });
        }
        await throttle.abandoned(attempt);
        if (code === 'CREDENTIAL_ACCOUNT_NOT_FOUND') {
          throw new AppError('conflict', 'Your account signs in through single sign-on and has no password here to change.');
        }
        throw error;
      }
      await throttle.succeeded(attempt);
      knownSessions?.forgetUser(userId);
      return result.headers.getSetCookie();
    },

    async updateProfile(userId: string, body: TProfileBody): Promise<TUser> {
      await deps.users.setName(userId, body.firstName, body.lastName);
      const row = await deps.users.findById(userId);
      if (!row) throw unauthorized();
      return deps.usersService.toUser(row);
    },

    /**
     * Sends a confirmation link to the new address and a notice to the current one; the address
     * changes only when the link is opened. A new address that another account already uses gets
     * nothing, and the answer is the same.
     */
    async changeEmail(userId: string, newEmail: string, headers: IncomingHttpHeaders): Promise<void> {
      const row = await deps.users.findById(userId);
      if (!row) throw unauthorized();
      if (row.email === newEmail) throw new AppError('validation_failed', 'This is already your address.', { newEmail: 'This is already your address.' });
      if (!deps.mailTo || !(await (deps.mailServer?.() ?? Promise.resolve(false)))) {
        throw new AppError('conflict', 'This installation has no mail server, so a new address cannot be confirmed. Ask an administrator to set one up.');
      }
      await auth.api.changeEmail({ body: { newEmail }, headers: fromNodeHeaders(headers) });
      const notify = deps.notify;
      if (notify) inBackground('email change notice', () => notify(row.id, emailChangeRequestedNotice(row.firstName, newEmail, config.publicUrl)));
    },

    /** Applies an email change from its link's token, for the signed-in owner of the account. */
    async confirmEmailChange(token: string, headers: IncomingHttpHeaders): Promise<string[]> {
      if (!isEmailChangeToken(token)) throw new AppError('bad_request', INVALID_EMAIL_LINK);
      try {
        const result = await auth.api.verifyEmail({ query: { token }, headers: fromNodeHeaders(headers), returnHeaders: true });
        return result.headers.getSetCookie();
      } catch (error) {
        const status = statusOf(error);
        if (status !== undefined && status < 500) throw new AppError('bad_request', INVALID_EMAIL_LINK);
        throw error;
      }
    },

    async listSessions(headers: IncomingHttpHeaders): Promise<TAccountSessions> {
      const nodeHeaders = fromNodeHeaders(headers);
      const [current, sessions] = await Promise.all([auth.api.getSession({ headers: nodeHeaders }), auth.api.listSessions({ headers: nodeHeaders })]);
      if (!current) throw unauthorized();
      const iso = (value: Date | string) => new Date(value).toISOString();
      return {
        sessions: sessions
          .map((session) => ({
            id: session.id,
            userAgent: session.userAgent ?? null,
            ipAddress: session.ipAddress ?? null,
            createdAt: iso(session.createdAt),
            lastActiveAt: iso(session.updatedAt),
            current: session.id === current.session.id,
          }))
          .sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt)),
      };
    },

    async signOutOthers(userId: string, headers: IncomingHttpHeaders): Promise<void> {
      await auth.api.revokeOtherSessions({ headers: fromNodeHeaders(headers) });
      knownSessions?.forgetUser(userId);
    },

    /** Ends every session of an account at once (an admin's sign-out everywhere, a suspension). */
    async endSessionsOf(userId: string): Promise<void> {
      await (await auth.$context).internalAdapter.deleteUserSessions(userId);
      knownSessions?.forgetUser(userId);
    },

    /** Sends the account the reset email the forgot-password page sends (an admin asked for it). */
    async sendResetLink(email: string): Promise<void> {
      await auth.api.requestPasswordReset({ body: { email } });
    },

    /** The signed-in user, or a 401 AppError. */
    currentUser(headers: IncomingHttpHeaders): Promise<TUser> {
      return userFromHeaders(fromNodeHeaders(headers));
    },

    async currentUserId(headers: IncomingHttpHeaders): Promise<string> {
      const cookie = sessionCookieOf(headers);
      if (!cookie) throw unauthorized();
      const known = knownSessions?.userOf(cookie);
      if (known) return known;
      const session = await auth.api.getSession({ headers: fromNodeHeaders(headers) });
      if (!session || session.user.suspendedAt) throw unauthorized();
      knownSessions?.remember(cookie, session.user.id, new Date(session.session.expiresAt).getTime());
      return session.user.id;
    },
  };
}
export type TAuthService = ReturnType<typeof createAuthService>;
