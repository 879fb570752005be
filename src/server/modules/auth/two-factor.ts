import type { TTwoFactorChallenge } from '../../../contract/two-factor.ts';
import type { TDb } from '../../db/client.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TUserRow } from '../users/index.ts';
import { signInRemovedNotice } from './auth-notices.ts';
import { createTwoFactorChecks, type TTwoFactorDeps } from './two-factor-checks.ts';
import { createTwoFactorRepository } from './two-factor.repository.ts';
import { createTwoFactorSetup } from './two-factor-setup.ts';
import { createTwoFactorSignIn } from './two-factor-sign-in.ts';

export const TWO_FACTOR_CHALLENGE: TTwoFactorChallenge = {
  status: 'two_factor_required',
  message: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
};

export const ADMIN_TWO_FACTOR_REQUIRED =
  'This installation asks administrators to use two-factor sign-in. Turn it on under Settings → Profile, then open the Admin Panel again.';

type TAudit = (actorId: string, action: string, targetType: string, targetId: string, details: Record<string, unknown>) => Promise<void>;

/**
 * Two-factor sign-in, built on the auth library's plugin (two-factor-plugin.ts): our routes call
 * `auth.api.*`; the library makes and checks the TOTP secret and the recovery codes and keeps
 * them encrypted. Every password and code it checks here is counted by the sign-in throttle, the
 * same way a sign-in's password is.
 */
export function createTwoFactor(deps: TTwoFactorDeps) {
  const checks = createTwoFactorChecks(deps);
  const { repository } = checks;
  return {
    ...createTwoFactorSignIn(deps, checks),
    ...createTwoFactorSetup(deps, checks),

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
