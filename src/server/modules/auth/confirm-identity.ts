import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { accounts } from '../../db/schema.ts';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { TUsersRepository } from '../users/users.repository.ts';
import type { TPasswordHasher } from './password-hasher.ts';
import type { TSignInThrottle } from './sign-in-throttle.ts';

/** What the owner gives to prove it is them before something that cannot be undone. */
export type TIdentityProof = { password: string; code?: string | undefined };

/**
 * A second factor's check: true when `code` is right, or when the account has no second factor
 * (then `code` is ignored). Two-factor sign-in provides it; without it only the password counts.
 */
export type TSecondFactorCheck = (userId: string, code: string | undefined) => Promise<boolean>;

const WRONG_PASSWORD = 'This is not your password.';

/**
 * The one check before an account is deleted (and anything else as final): the current password,
 * tried under the sign-in throttle so a stolen session is no way to guess it, then the second
 * factor when the account has one.
 */
export function createIdentityCheck(deps: {
  db: TDb;
  users: TUsersRepository;
  hasher: TPasswordHasher;
  throttle: TSignInThrottle;
  secondFactor?: TSecondFactorCheck;
  /** Told when a wrong password takes the account past the throttle's ceiling (the owner's email). */
  onGuessing?: (email: string) => void;
}) {
  async function passwordHashOf(userId: string): Promise<string | undefined> {
    const [row] = await deps.db
      .select({ password: accounts.password })
      .from(accounts)
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
      .limit(1);
    return row?.password ?? undefined;
  }

  return {
    async confirmIdentity(userId: string, proof: TIdentityProof, ip: string): Promise<void> {
      const user = await deps.users.findById(userId);
      if (!user) throw unauthorized();
      const hash = await passwordHashOf(userId);
      if (!hash) {
        throw new AppError('conflict', 'Your account signs in through single sign-on and has no password here to confirm with. Ask an administrator to delete it.');
      }
      const attempt = await deps.throttle.admit(user.email, ip);
      let right: boolean;
      try {
        right = await deps.hasher.inLane(attempt.lane, () => deps.hasher.password.verify({ hash, password: proof.password }));
      } catch (error) {
        await deps.throttle.abandoned(attempt);
        throw error;
      }
      if (!right) {
        const { tellOwner } = await deps.throttle.failed(attempt);
        if (tellOwner) deps.onGuessing?.(attempt.email);
        throw new AppError('validation_failed', 'Your password is not right.', { password: WRONG_PASSWORD });
      }
      await deps.throttle.succeeded(attempt);
      if (deps.secondFactor && !(await deps.secondFactor(userId, proof.code))) {
        const message = proof.code ? 'This code is not right, or it has expired.' : 'Enter the code from your authenticator app.';
        throw new AppError('validation_failed', message, { code: message });
      }
    },
  };
}
export type TIdentityCheck = ReturnType<typeof createIdentityCheck>;
