import type { TUser, TUserStats } from '../../../contract/user.ts';
import { notFound } from '../../http/app-error.ts';
import { verificationRequired, type TAccountStanding } from './account-standing.ts';
import { type TWorkspaceRow, type TWorkspacesRepository } from '../workspaces/index.ts';
import type { TUserRow, TUsersRepository } from './users.repository.ts';

/**
 * The plan's allowances the account's figures show. The quota module answers (services.ts hands
 * it in); it reads accounts through this module, so this module names what it needs instead of
 * importing quota.
 */
export type TAllowances = {
  generationLimit: (row: TWorkspaceRow) => Promise<number>;
  storage: (userId: string) => Promise<{ usedBytes: number; limitBytes: number }>;
};

export function createUsersService(deps: { users: TUsersRepository; workspaces: TWorkspacesRepository; quota: TAllowances; standing: TAccountStanding }) {
  /** The person's own workspace: their plan and mail settings. */
  async function personalWorkspace(userId: string): Promise<TWorkspaceRow> {
    const workspace = await deps.workspaces.findById(userId);
    if (!workspace) throw notFound('User');
    return workspace;
  }
  const generationLimit = deps.quota.generationLimit;
  return {
    async toUser(row: TUserRow): Promise<TUser> {
      // One round of queries, side by side: this answers every page's first call.
      const workspace = await personalWorkspace(row.id);
      const [standing, apiCallsUsed, apiCallsLimit] = await Promise.all([
        deps.standing.ofAccount(row),
        deps.workspaces.generationsUsed(row.id),
        generationLimit(workspace),
      ]);
      return {
        id: row.id,
        email: row.email,
        firstName: row.firstName,
        lastName: row.lastName,
        role: row.role,
        emailVerified: row.emailVerified,
        verificationRequired: verificationRequired(standing),
        subscriptionPlan: workspace.subscriptionPlan,
        apiEnabled: workspace.apiEnabled,
        apiKeyLast4: null,
        apiCallsUsed,
        apiCallsLimit,
        enterpriseEmail: workspace.enterpriseEmail,
        smtpHost: workspace.smtpHost,
        smtpPort: workspace.smtpPort,
        smtpSecure: workspace.smtpSecure,
        twoFactorEnabled: row.twoFactorEnabled,
      };
    },

    async stats(userId: string): Promise<TUserStats> {
      const workspace = await personalWorkspace(userId);
      const [totalFormats, totalDocuments, apiCallsUsed, apiCallsLimit, storage] = await Promise.all([
        deps.users.countFormats(userId),
        deps.users.countDocuments(userId),
        deps.workspaces.generationsUsed(userId),
        generationLimit(workspace),
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
