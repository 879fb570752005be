import type { TWorkspaceRow, TWorkspacesRepository } from '../workspaces/index.ts';
import type { TUserRow, TUsersRepository } from './users.repository.ts';

/**
 * The account reads and writes other modules need (sign-in, admin, quota, formats, the API).
 * They take these functions, never the users repository, so the users table's queries stay in
 * this module and another module's needs are named here.
 */
export function createUserAccounts(users: TUsersRepository, workspaces: TWorkspacesRepository) {
  return {
    findById: (id: string): Promise<TUserRow | undefined> => users.findById(id),
    findByEmail: (email: string): Promise<TUserRow | undefined> => users.findByEmail(email),
    setName: (id: string, firstName: string, lastName: string): Promise<void> => users.setName(id, firstName, lastName),
    setRole: (id: string, role: 'user' | 'admin'): Promise<void> => users.setRole(id, role),
    /** A workspace's plan and settings (a person's own has their id). */
    workspaceOf: (id: string): Promise<TWorkspaceRow | undefined> => workspaces.findById(id),
    /** The workspace with this period's generations, in one read: what every quota check needs. */
    findWithUsage: (id: string): Promise<{ workspace: TWorkspaceRow; generations: number } | undefined> => workspaces.findWithUsage(id),
    generationsUsed: (ownerId: string): Promise<number> => workspaces.generationsUsed(ownerId),
    /** The plan the workspace is on; undefined when there is no such workspace. */
    async planOf(ownerId: string): Promise<TWorkspaceRow['subscriptionPlan'] | undefined> {
      return (await workspaces.findById(ownerId))?.subscriptionPlan;
    },
  };
}
export type TUserAccounts = ReturnType<typeof createUserAccounts>;
