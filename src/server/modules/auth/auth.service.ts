import { fromNodeHeaders } from 'better-auth/node';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { TSignInBody, TSignUpBody, TUser } from '../../../contract/user.ts';
import type { TConfig } from '../../config.ts';
import type { TDb } from '../../db/client.ts';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { TUsersRepository } from '../users/users.repository.ts';
import type { TUsersService } from '../users/users.service.ts';
import { createAuthRepository } from './auth.repository.ts';
import { createBetterAuth, OIDC_PROVIDER_ID, type TBetterAuth } from './better-auth.ts';
import { createPasswordHasher, type THashGateLimits } from './password-hasher.ts';
import { createSignInThrottle, createSignUpLimiter, describeWait, SIGN_IN_THROTTLE } from './sign-in-throttle.ts';

export type TAuthResult = { user: TUser; setCookies: string[] };

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
  };
}

/** The HTTP status the auth library put on its error, if any. */
function statusOf(error: unknown): number | undefined {
  const candidate = error as { statusCode?: unknown };
  return typeof candidate?.statusCode === 'number' ? candidate.statusCode : undefined;
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
  /** The throttle's clock; tests move it past the waits. */
  clock?: () => Date;
  hashLimits?: THashGateLimits;
}) {
  const { config } = deps;
  const hasher = createPasswordHasher(deps.hashLimits);
  const isAdminEmail = (email: string) => config.adminEmails.has(email.toLowerCase());

  async function promoteIfAdmin(userId: string) {
    const row = await deps.users.findById(userId);
    if (row && row.role !== 'admin' && isAdminEmail(row.email)) await deps.users.setRole(userId, 'admin');
  }

  const build = () =>
    createBetterAuth({ db: deps.db, config, isAdminEmail, onSessionCreated: promoteIfAdmin, password: hasher.password });

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

  const counters = createAuthRepository(deps.db);
  const now = deps.clock ?? (() => new Date());
  const throttle = createSignInThrottle({ counters, now });
  const signUps = createSignUpLimiter({ counters, now, perHour: config.signUpsPerIpPerHour });

  // Notices go out after the answer, so a guesser learns nothing from the time it takes; shutting
  // down waits for those on their way.
  const noticesInFlight = new Set<Promise<void>>();
  function sendGuessingNotice(email: string) {
    const notify = deps.notify;
    if (!notify) return;
    const sending = (async () => {
      const owner = await deps.users.findByEmail(email);
      if (owner) await notify(owner.id, guessingNotice(owner.firstName, owner.email, config.publicUrl));
    })()
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not send the sign-in attempts notice'))
      .finally(() => noticesInFlight.delete(sending));
    noticesInFlight.add(sending);
  }
  let sweeper: NodeJS.Timeout | undefined;

  async function userFromHeaders(headers: Headers): Promise<TUser> {
    const session = await auth.api.getSession({ headers });
    if (!session) throw unauthorized();
    const row = await deps.users.findById(session.user.id);
    if (!row) throw unauthorized();
    return deps.usersService.toUser(row);
  }

  return {
    get auth() {
      return auth;
    },
    authWithProvider,

    /** Sweeps counters that hold nothing any more, hourly. */
    start() {
      const sweep = () => void throttle.sweep().catch((error: unknown) => deps.log.warn({ err: error }, 'could not sweep the sign-in counters'));
      sweep();
      sweeper = setInterval(sweep, 60 * 60_000);
      sweeper.unref();
    },
    async stop() {
      clearInterval(sweeper);
      await Promise.all(noticesInFlight);
    },

    async signUp(body: TSignUpBody, ip: string, headers: IncomingHttpHeaders): Promise<TAuthResult> {
      const counted = await signUps.consume(ip);
      const lane = await throttle.laneOf(ip);
      try {
        const result = await hasher.inLane(lane, () => auth.api.signUpEmail({
          body: {
            name: `${body.firstName} ${body.lastName}`,
            email: body.email,
            password: body.password,
            firstName: body.firstName,
            lastName: body.lastName,
          },
          headers: fromNodeHeaders(headers),
          returnHeaders: true,
        }));
        const setCookies = result.headers.getSetCookie();
        const row = await deps.users.findById(result.response.user.id);
        if (!row) throw new Error('signed-up user vanished');
        return { user: await deps.usersService.toUser(row), setCookies };
      } catch (error) {
        const status = statusOf(error);
        if (status === 422 || status === 409 || (await deps.users.findByEmail(body.email))) {
          throw new AppError('conflict', 'An account with this email already exists. Sign in instead.', {
            email: 'An account with this email already exists.',
          });
        }
        // Turned away before the account was made (sign-in was busy, or our own failure): not counted.
        await signUps.refund(counted);
        throw error;
      }
    },

    async signIn(body: TSignInBody, ip: string, headers: IncomingHttpHeaders): Promise<TAuthResult> {
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
      await throttle.succeeded(attempt);
      const row = await deps.users.findById(result.response.user.id);
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
      if (!session) throw unauthorized();
      knownSessions?.remember(cookie, session.user.id, new Date(session.session.expiresAt).getTime());
      return session.user.id;
    },
  };
}
export type TAuthService = ReturnType<typeof createAuthService>;
