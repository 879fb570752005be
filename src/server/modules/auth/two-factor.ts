import { fromNodeHeaders } from 'better-auth/node';
import type { IncomingHttpHeaders } from 'node:http';
import { renderSVG } from 'uqr';
import type { TRecoveryCodes, TTwoFactorChallenge, TTwoFactorSetup, TTwoFactorSignInBody } from '../../../contract/two-factor.ts';
import type { TUser } from '../../../contract/user.ts';
import type { TDb } from '../../db/client.ts';
import { AppError, notFound, unauthorized } from '../../http/app-error.ts';
import type { TUserRow, TUsersRepository } from '../users/users.repository.ts';
import type { TUsersService } from '../users/users.service.ts';
import type { TBetterAuth } from './better-auth.ts';
import type { TPasswordHasher } from './password-hasher.ts';
import type { TAdmittedAttempt, TSignInThrottle } from './sign-in-throttle.ts';
import { createTwoFactorRepository } from './two-factor.repository.ts';

export const TWO_FACTOR_CHALLENGE: TTwoFactorChallenge = {
  status: 'two_factor_required',
  message: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
};

const SIGN_IN_EXPIRED = 'This sign-in has expired. Enter your email and password again.';
const TOO_MANY_CODES = 'Too many wrong codes for this sign-in. Enter your email and password again.';
const WRONG_CODE = 'That code is not right. Enter the newest code your authenticator app shows.';
const WRONG_RECOVERY_CODE = 'That recovery code is not right, or it has been used already.';
const WRONG_PASSWORD = 'This is not your password.';
const SINGLE_SIGN_ON =
  'Your account signs in through single sign-on, so two-factor sign-in is up to your sign-in provider, not a password here.';
export const ADMIN_TWO_FACTOR_REQUIRED =
  'This installation asks administrators to use two-factor sign-in. Turn it on under Settings → Profile, then open the Admin Panel again.';

type TAudit = (actorId: string, action: string, targetType: string, targetId: string, details: Record<string, unknown>) => Promise<void>;

const SESSION_COOKIE_RE = /(?:^|;\s*)(?:__Secure-)?formwork\.session_token=[^;]*/g;

/** The code the auth library put on its error, if any. */
function codeOf(error: unknown): string | undefined {
  const candidate = error as { body?: { code?: unknown } };
  return typeof candidate?.body?.code === 'string' ? candidate.body.code : undefined;
}

/** A code of six digits is the app's; anything else is taken for a recovery code. */
const isTotpShaped = (code: string) => /^\d{6}$/.test(code.replace(/\s+/g, ''));

/** The QR code an authenticator app scans, as an SVG data URL an <img> can show. */
function qrCodeOf(totpURI: string): string {
  const svg = renderSVG(totpURI, { border: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

function signInRemovedNotice(firstName: string | null): { subject: string; text: string } {
  return {
    subject: 'Two-factor sign-in was turned off for your Formwork account',
    text: [
      `Hello ${firstName?.trim() || 'there'},`,
      '',
      'An administrator of this Formwork installation removed two-factor sign-in from your account, so signing in now asks only for your password.',
      '',
      'If you asked for this (a lost phone, say), turn it on again under Settings → Profile with your new device. If you did not, change your password and tell the administrator.',
      '',
      '— Formwork',
    ].join('\n'),
  };
}

/**
 * Two-factor sign-in, built on the auth library's plugin (two-factor-plugin.ts): our routes call
 * `auth.api.*`; the library makes and checks the TOTP secret and the recovery codes and keeps
 * them encrypted. Every password and code it checks here is counted by the sign-in throttle, the
 * same way a sign-in's password is.
 */
export function createTwoFactor(deps: {
  db: TDb;
  auth: () => TBetterAuth;
  users: TUsersRepository;
  usersService: TUsersService;
  throttle: TSignInThrottle;
  hasher: TPasswordHasher;
  /** The library replaced the user's session (turning two-factor on or off): forget the old one. */
  forgetSessions: (userId: string) => void;
  /** An account went past its ceiling of failures: its owner is told. */
  onGuessing: (email: string) => void;
  /** Tells a user something through the installation's mail server, after the answer. */
  notify?: (userId: string, notice: { subject: string; text: string }) => void;
}) {
  const repository = createTwoFactorRepository(deps.db);
  const { throttle } = deps;

  async function failed(attempt: TAdmittedAttempt) {
    const { tellOwner } = await throttle.failed(attempt);
    if (tellOwner) deps.onGuessing(attempt.email);
  }

  async function passwordUser(userId: string): Promise<TUserRow> {
    const row = await deps.users.findById(userId);
    if (!row) throw unauthorized();
    if (!(await repository.hasPassword(userId))) throw new AppError('conflict', SINGLE_SIGN_ON);
    return row;
  }

  /**
   * Runs a library call that checks the user's password, under the sign-in throttle: a stolen
   * session is no way to guess the password.
   */
  async function withPassword<T>(row: TUserRow, ip: string, call: () => Promise<T>): Promise<T> {
    const attempt = await throttle.admit(row.email, ip);
    let result: T;
    try {
      result = await deps.hasher.inLane(attempt.lane, call);
    } catch (error) {
      if (codeOf(error) === 'INVALID_PASSWORD') {
        await failed(attempt);
        throw new AppError('validation_failed', WRONG_PASSWORD, { password: WRONG_PASSWORD });
      }
      await throttle.abandoned(attempt);
      throw error;
    }
    await throttle.succeeded(attempt);
    return result;
  }

  /**
   * Checks a code from the app or a recovery code with the library, counted by the throttle like a
   * password: a wrong one is a failure, a right one clears this client's record.
   */
  async function withCode<T>(email: string, ip: string, recovery: boolean, call: () => Promise<T>): Promise<T> {
    const attempt = await throttle.admit(email, ip);
    let result: T;
    try {
      result = await call();
    } catch (error) {
      const code = codeOf(error);
      if (code === 'INVALID_CODE' || code === 'INVALID_BACKUP_CODE') {
        await failed(attempt);
        throw recovery
          ? new AppError('validation_failed', WRONG_RECOVERY_CODE, { recoveryCode: WRONG_RECOVERY_CODE })
          : new AppError('validation_failed', WRONG_CODE, { code: WRONG_CODE });
      }
      await throttle.abandoned(attempt);
      if (code === 'INVALID_TWO_FACTOR_COOKIE' || code === 'TOTP_NOT_ENABLED' || code === 'BACKUP_CODES_NOT_ENABLED') {
        throw new AppError('unauthorized', SIGN_IN_EXPIRED);
      }
      if (code === 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE') throw new AppError('unauthorized', TOO_MANY_CODES);
      throw error;
    }
    await throttle.succeeded(attempt);
    return result;
  }

  const withoutSession = (headers: IncomingHttpHeaders): Headers => {
    // The code step finishes the pending sign-in the two-factor cookie names; a session cookie
    // left from another account would make the library check that account instead.
    const nodeHeaders = fromNodeHeaders(headers);
    const cookie = nodeHeaders.get('cookie');
    if (cookie) nodeHeaders.set('cookie', cookie.replace(SESSION_COOKIE_RE, '').replace(/^[;\s]+/, ''));
    return nodeHeaders;
  };

  return {
    /** Whether the library answered a right password with a pending second step instead of a session. */
    isChallenge(response: unknown): boolean {
      return typeof response === 'object' && response !== null && (response as { twoFactorRedirect?: unknown }).twoFactorRedirect === true;
    },

    /**
     * Starts setting up an authenticator app: checks the password, and has the library make a new
     * secret, kept unconfirmed until a code from the app proves it was scanned.
     */
    async enable(userId: string, password: string, ip: string, headers: IncomingHttpHeaders): Promise<TTwoFactorSetup> {
      const row = await passwordUser(userId);
      if (row.twoFactorEnabled) throw new AppError('conflict', 'Two-factor sign-in is already on. Turn it off first to move it to another app.');
      const result = await withPassword(row, ip, () =>
        deps.auth().api.enableTwoFactor({ body: { password, method: 'totp' }, headers: fromNodeHeaders(headers) }),
      );
      if (result.method !== 'totp') throw new Error('the auth library answered without a TOTP address');
      const secret = new URL(result.totpURI).searchParams.get('secret') ?? '';
      return { totpURI: result.totpURI, secret, qrCode: qrCodeOf(result.totpURI) };
    },

    /**
     * Confirms the app with its first code: two-factor is on from here, the library starts a new
     * session for this browser (its cookies are returned), and the recovery codes made with the
     * secret are handed out, this once.
     */
    async confirm(userId: string, code: string, ip: string, headers: IncomingHttpHeaders): Promise<TRecoveryCodes & { setCookies: string[] }> {
      const row = await passwordUser(userId);
      if (row.twoFactorEnabled) throw new AppError('conflict', 'Two-factor sign-in is already on.');
      const stored = await repository.stored(userId);
      if (!stored) throw new AppError('conflict', 'Start again: enter your password to get a new QR code.');
      const result = await withCode(row.email, ip, false, () =>
        deps.auth().api.verifyTOTP({ body: { code }, headers: fromNodeHeaders(headers), returnHeaders: true }),
      );
      deps.forgetSessions(userId);
      const codes = await deps.auth().api.viewBackupCodes({ body: { userId } });
      return { recoveryCodes: codes.backupCodes, setCookies: result.headers.getSetCookie() };
    },

    /** Turns two-factor off with the password; the library starts a new session for this browser. */
    async disable(userId: string, password: string, ip: string, headers: IncomingHttpHeaders): Promise<string[]> {
      const row = await passwordUser(userId);
      if (!row.twoFactorEnabled && !(await repository.stored(userId))) {
        throw new AppError('conflict', 'Two-factor sign-in is not on.');
      }
      const result = await withPassword(row, ip, () =>
        deps.auth().api.disableTwoFactor({ body: { password }, headers: fromNodeHeaders(headers), returnHeaders: true }),
      );
      deps.forgetSessions(userId);
      return result.headers.getSetCookie();
    },

    /** Ten new recovery codes with the password; the old ones stop working. */
    async regenerateRecoveryCodes(userId: string, password: string, ip: string, headers: IncomingHttpHeaders): Promise<TRecoveryCodes> {
      const row = await passwordUser(userId);
      if (!row.twoFactorEnabled) throw new AppError('conflict', 'Two-factor sign-in is not on, so there are no recovery codes to replace.');
      const result = await withPassword(row, ip, () =>
        deps.auth().api.generateBackupCodes({ body: { password }, headers: fromNodeHeaders(headers) }),
      );
      return { recoveryCodes: result.backupCodes };
    },

    /**
     * The second step of a sign-in: the pending sign-in in the library's two-factor cookie is
     * finished with a code from the app or one recovery code (used up by it). Counted by the
     * sign-in throttle against the account, like its password.
     */
    async completeSignIn(body: TTwoFactorSignInBody, ip: string, headers: IncomingHttpHeaders): Promise<{ user: TUser; setCookies: string[] }> {
      const nodeHeaders = withoutSession(headers);
      const { userId } = await deps.auth().api.twoFactorChallenge({ headers: nodeHeaders });
      const row = userId ? await deps.users.findById(userId) : undefined;
      if (!row) throw new AppError('unauthorized', SIGN_IN_EXPIRED);
      const result =
        body.recoveryCode !== undefined
          ? await withCode(row.email, ip, true, () =>
              deps.auth().api.verifyBackupCode({ body: { code: body.recoveryCode! }, headers: nodeHeaders, returnHeaders: true }),
            )
          : await withCode(row.email, ip, false, () =>
              deps.auth().api.verifyTOTP({ body: { code: body.code ?? '' }, headers: nodeHeaders, returnHeaders: true }),
            );
      const fresh = await deps.users.findById(row.id);
      if (!fresh) throw unauthorized();
      return { user: await deps.usersService.toUser(fresh), setCookies: result.headers.getSetCookie() };
    },

    /**
     * Checks the signed-in user's current code from the app, or one of their recovery codes (used
     * up by it), for a step that must prove the second factor again, such as deleting the account.
     * Resolves when it is right, or at once when the user has no two-factor; otherwise throws a
     * 400 `validation_failed` naming the field `code`, or the sign-in throttle's 429. `headers`
     * are the request's: they carry the user's session.
     */
    async verifySecondFactor(input: { userId: string; code: string | undefined; ip: string; headers: IncomingHttpHeaders }): Promise<void> {
      const row = await deps.users.findById(input.userId);
      if (!row) throw unauthorized();
      if (!row.twoFactorEnabled) return;
      const code = input.code?.trim() ?? '';
      if (!code) {
        const ask = 'Enter the code from your authenticator app, or one of your recovery codes.';
        throw new AppError('validation_failed', ask, { code: ask });
      }
      const nodeHeaders = fromNodeHeaders(input.headers);
      const session = await deps.auth().api.getSession({ headers: nodeHeaders });
      if (session?.user.id !== row.id) throw unauthorized();
      try {
        if (isTotpShaped(code)) {
          await withCode(row.email, input.ip, false, () =>
            deps.auth().api.verifyTOTP({ body: { code: code.replace(/\s+/g, '') }, headers: nodeHeaders }),
          );
        } else {
          await withCode(row.email, input.ip, true, () => deps.auth().api.verifyBackupCode({ body: { code }, headers: nodeHeaders }));
        }
      } catch (error) {
        // One field for both kinds of code: the form that asks has one box.
        if (error instanceof AppError && error.code === 'validation_failed') {
          throw new AppError('validation_failed', error.message, { code: error.message });
        }
        throw error;
      }
    },

    /**
     * An admin removes a user's second factor (a lost phone and no recovery codes): the user signs
     * in with the password alone until they set it up again, and is told by email.
     */
    async resetByAdmin(actorId: string, userId: string, audit: TAudit): Promise<void> {
      const row = await deps.users.findById(userId);
      if (!row) throw notFound('User');
      if (!(await repository.remove(userId))) throw new AppError('conflict', 'This user has no two-factor sign-in to reset.');
      await audit(actorId, 'user.two_factor_reset', 'user', userId, { email: row.email });
      deps.notify?.(userId, signInRemovedNotice(row.firstName));
    },
  };
}
export type TTwoFactor = ReturnType<typeof createTwoFactor>;

/**
 * The admin scope's second check, after the role: while `security.admin_two_factor` is on, an
 * admin who signs in with a password here must have two-factor on. Accounts that only sign in
 * through single sign-on are left to their provider, which this server cannot ask for a code.
 */
export function createAdminSecondFactorGate(deps: { db: TDb; required: () => Promise<boolean> }) {
  const repository = createTwoFactorRepository(deps.db);
  return async (admin: TUserRow): Promise<void> => {
    if (admin.twoFactorEnabled || !(await deps.required())) return;
    if (!(await repository.hasPassword(admin.id))) return;
    throw new AppError('two_factor_required', ADMIN_TWO_FACTOR_REQUIRED);
  };
}
