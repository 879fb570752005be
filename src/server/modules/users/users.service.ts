import type { TUser, TUserStats } from '../../../contract/user.ts';
import { notFound } from '../../http/app-error.ts';
import { verificationRequired, type TAccountStanding } from './account-standing.ts';
import type { TUserRow, TUsersRepository } from './users.repository.ts';

/**
 * The plan's allowances the account's figures show. The quota module answers (services.ts hands
 * it in); it reads accounts through this module, so this module names what it needs instead of
 * importing quota.
 */
export type TAllowances = {
  generationLimit: (row: TUserRow) => Promise<number>;
  storage: (userId: string) => Promise<{ usedBytes: number; limitBytes: number }>;
};

export function createUsersService(deps: { users: TUsersRepository; quota: TAllowances; standing: TAccountStanding }) {
  const generationLimit = deps.quota.generationLimit;
  return {
    async toUser(row: TUserRow): Promise<TUser> {
      // One round of queries, side by side: this answers every page's first call.
      const [standing, apiCallsUsed, apiCallsLimit] = await Promise.all([
        deps.standing.ofAccount(row),
        deps.users.generationsUsed(row.id),
        generationLimit(row),
      ]);
      return {
        id: row.id,
        email: row.email,
        firstName: row.firstName,
        lastName: row.lastName,
        role: row.role,
        emailVerified: row.emailVerified,
        verificationRequired: verificationRequired(standing),
        subscriptionPlan: row.subscriptionPlan,
        apiEnabled: row.apiEnabled,
        apiKeyLast4: null,
        apiCallsUsed,
        apiCallsLimit,
        enterpriseEmail: row.enterpriseEmail,
        smtpHost: row.smtpHost,
        smtpPort: row.smtpPort,
        smtpSecure: row.smtpSecure,
        twoFactorEnabled: row.twoFactorEnabled,
      };
    },

    async stats(userId: string): Promise<TUserStats> {
      const row = await deps.users.findById(userId);
      if (!row) throw notFound('User');
      const [totalFormats, totalDocuments, apiCallsUsed, apiCallsLimit, storage] = await Promise.all([
        deps.users.countFormats(userId),
        deps.users.countDocuments(userId),
        deps.users.generationsUsed(userId),
        generationLimit(row),
        deps.quota.storage(userId),
      ]);
      return {
        totalFormats,
        totalDocuments,
        apiCallsUsed,
        apiCallsLimit,
        storageUsedBytes: storage.usedBytes,
        storageLimitBytes: storage.limitBytes,
      };
    },
  };
}
export type TUsersService = ReturnType<typeof createUsersService>;
