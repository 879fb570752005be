import { fromNodeHeaders } from 'better-auth/node';
import type { IncomingHttpHeaders } from 'node:http';
import type { TDb } from '../../db/client.ts';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { TUserAccounts, TUserRow, TUsersService } from '../users/index.ts';
import type { TBetterAuth } from './better-auth.ts';
import { codeOf } from './library-errors.ts';
import type { TPasswordHasher } from './password-hasher.ts';
import type { TAdmittedAttempt, TSignInThrottle } from './sign-in-throttle.ts';
import { createTwoFactorRepository } from './two-factor.repository.ts';

export const SIGN_IN_EXPIRED = 'This sign-in has expired. Enter your email and password again.';
const TOO_MANY_CODES = 'Too many wrong codes for this sign-in. Enter your email and password again.';
const WRONG_CODE = 'That code is not right. Enter the newest code your authenticator app shows.';
const WRONG_RECOVERY_CODE = 'That recovery code is not right, or it has been used already.';
const WRONG_PASSWORD = 'This is not your password.';
const SINGLE_SIGN_ON = 'Your account signs in through single sign-on, so two-factor sign-in is up to your sign-in provider, not a password here.';

const SESSION_COOKIE_RE = /(?:^|;\s*)(?:__Secure-)?formwork\.session_token=[^;]*/g;

export type TTwoFactorDeps = {
  db: TDb;
  auth: () => TBetterAuth;
  users: Pick<TUserAccounts, 'findById'>;
  usersService: TUsersService;
  throttle: TSignInThrottle;
  hasher: TPasswordHasher;
  /** The library replaced the user's session (turning two-factor on or off): forget the old one. */
  forgetSessions: (userId: string) => void;
  /** An account went past its ceiling of failures: its owner is told. */
  onGuessing: (email: string) => void;
  /** Tells a user something through the installation's mail server, after the answer. */
  notify?: (userId: string, notice: { subject: string; text: string }) => void;
};

/** The checks every two-factor step makes: the password or the code, each counted by the sign-in throttle. */
export function createTwoFactorChecks(deps: TTwoFactorDeps) {
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

  return { repository, passwordUser, withPassword, withCode, withoutSession };
}
export type TTwoFactorChecks = ReturnType<typeof createTwoFactorChecks>;
