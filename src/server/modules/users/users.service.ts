import type { TUser, TUserStats } from '../../../contract/user.ts';
import { notFound } from '../../http/app-error.ts';
import type { TQuotaService } from '../quota/index.ts';
import { verificationRequired, type TAccountStanding } from './account-standing.ts';
import type { TUserRow, TUsersRepository } from './users.repository.ts';

export function createUsersService(deps: { users: TUsersRepository; quota: TQuotaService; standing: TAccountStanding }) {
  const generationLimit = deps.quota.generationLimit;
  return {
    async toUser(row: TUserRow): Promise<TUser> {
      const standing = await deps.standing.of(row.id);
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
        apiCallsUsed: await deps.users.generationsUsed(row.id),
        apiCallsLimit: await generationLimit(row),
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
