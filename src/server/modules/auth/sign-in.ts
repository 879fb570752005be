import { fromNodeHeaders } from 'better-auth/node';
import type { IncomingHttpHeaders } from 'node:http';
import type { TTwoFactorChallenge } from '../../../contract/two-factor.ts';
import type { TSignInBody, TUser } from '../../../contract/user.ts';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { TAuthContext } from './auth-context.ts';
import { codeOf, statusOf } from './library-errors.ts';
import { SUSPENDED_MESSAGE } from './sign-up-policy.ts';
import { TWO_FACTOR_CHALLENGE, type TTwoFactor } from './two-factor.ts';

export type TAuthResult = { user: TUser; setCookies: string[] };
/** A right password for an account with two-factor: no session yet, only the library's two-factor cookie. */
export type TSignInResult = TAuthResult | { challenge: TTwoFactorChallenge; setCookies: string[] };

/** Sign-in with a password, under the throttle; an account with two-factor gets a challenge instead of a session. */
export function createSignIn(ctx: TAuthContext, twoFactor: Pick<TTwoFactor, 'isChallenge'>) {
  const { deps, hasher, throttle } = ctx;
  return async function signIn(body: TSignInBody, ip: string, headers: IncomingHttpHeaders, clientGone?: AbortSignal): Promise<TSignInResult> {
    const attempt = await throttle.admit(body.email, ip);
    let result;
    try {
      result = await hasher.inLane(
        attempt.lane,
        () =>
          ctx.auth().api.signInEmail({
            body: { email: body.email, password: body.password },
            headers: fromNodeHeaders(headers),
            returnHeaders: true,
          }),
        clientGone,
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
        if (tellOwner) ctx.sendGuessingNotice(attempt.email);
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
  };
}
