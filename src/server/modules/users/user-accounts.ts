import type { TUserRow, TUsersRepository } from './users.repository.ts';

/**
 * The account reads and writes other modules need (sign-in, admin, quota, formats, the API).
 * They take these functions, never the users repository, so the users table's queries stay in
 * this module and another module's needs are named here.
 */
export function createUserAccounts(users: TUsersRepository) {
  return {
    findById: (id: string): Promise<TUserRow | undefined> => users.findById(id),
    findByEmail: (email: string): Promise<TUserRow | undefined> => users.findByEmail(email),
    setName: (id: string, firstName: string, lastName: string): Promise<void> => users.setName(id, firstName, lastName),
    setRole: (id: string, role: 'user' | 'admin'): Promise<void> => users.setRole(id, role),
    /** The user with this period's generations, in one read: what every quota check needs. */
    findWithUsage: (id: string): Promise<{ user: TUserRow; generations: number } | undefined> => users.findWithUsage(id),
    /** The plan the account is on; undefined when there is no such account. */
    async planOf(userId: string): Promise<TUserRow['subscriptionPlan'] | undefined> {
      return (await users.findById(userId))?.subscriptionPlan;
    },
  };
}
export type TUserAccounts = ReturnType<typeof createUserAccounts>;
