import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { accounts } from '../../db/schema.ts';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { TIdentityProof, TProofOrigin, TUserAccounts } from '../users/index.ts';
import type { TPasswordHasher } from './password-hasher.ts';
import type { TSignInThrottle } from './sign-in-throttle.ts';

/**
 * A second factor's check (two-factor sign-in's `verifySecondFactor`): resolves when `code` is
 * right or the account has no second factor, and otherwise throws the refusal naming `code`.
 */
export type TSecondFactorCheck = (input: { userId: string; code: string | undefined } & TProofOrigin) => Promise<void>;

const WRONG_PASSWORD = 'This is not your password.';

/**
 * The one check before an account is deleted (and anything else as final): the current password,
 * tried under the sign-in throttle so a stolen session is no way to guess it, then the second
 * factor when the account has one.
 */
export function createIdentityCheck(deps: {
  db: TDb;
  users: Pick<TUserAccounts, 'findById'>;
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
    async confirmIdentity(userId: string, proof: TIdentityProof, origin: TProofOrigin): Promise<void> {
      const user = await deps.users.findById(userId);
      if (!user) throw unauthorized();
      const hash = await passwordHashOf(userId);
      if (!hash) {
        throw new AppError(
          'conflict',
          'Your account signs in through single sign-on and has no password here to confirm with. Ask an administrator to delete it.',
        );
      }
      const attempt = await deps.throttle.admit(user.email, origin.ip);
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
      await deps.secondFactor?.({ userId, code: proof.code, ...origin });
    },
  };
}
