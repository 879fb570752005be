import { fromNodeHeaders } from 'better-auth/node';
import type { IncomingHttpHeaders } from 'node:http';
import type { TSignUpBody, TSignUpPending } from '../../../contract/user.ts';
import { AppError } from '../../http/app-error.ts';
import type { TAuthContext } from './auth-context.ts';
import { takenAddressNotice } from './auth-notices.ts';
import { assertNotCommon } from './common-passwords.ts';
import type { TAuthResult } from './sign-in.ts';

/** Sign-up's outcome: signed in at once (no mail server), or the same "check your email" for everyone. */
export type TSignUpResult = ({ kind: 'signed_in' } & TAuthResult) | ({ kind: 'pending' } & TSignUpPending);

const SIGN_UP_PENDING: TSignUpPending = {
  status: 'check_email',
  message: 'Check your email: we sent a message to this address. Open its link to verify the address.',
};

export function createSignUp(ctx: TAuthContext) {
  const { deps, config, now, mailServer, hasher, throttle, signUps } = ctx;

  async function onExistingUserSignUp(userId: string) {
    const notify = deps.notify;
    if (!notify || !(await mailServer())) return;
    // One notice an hour at most: sign-ups with someone's address must not become a way to flood them.
    if (!(await ctx.counters.take(`taken-address:${userId}`, now(), 60 * 60, 1))) return;
    ctx.inBackground('taken-address notice', async () => {
      const owner = await deps.users.findById(userId);
      if (owner) await notify(owner.id, takenAddressNotice(owner.firstName, owner.email, config.publicUrl));
    });
  }

  return {
    onExistingUserSignUp,

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
          ctx.auth().api.signUpEmail({
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
      const started = await ctx.auth().api.startSession({ body: { userId: row.id }, headers: fromNodeHeaders(headers), returnHeaders: true });
      return { kind: 'signed_in', user: await deps.usersService.toUser(row), setCookies: started.headers.getSetCookie() };
    },
  };
}
