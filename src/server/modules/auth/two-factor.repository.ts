import { and, eq, isNotNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { accounts, twoFactors, users } from '../../db/schema.ts';

/** The queries two-factor needs beyond the auth library's own: each names the one user it is about. */
export function createTwoFactorRepository(db: TDb) {
  return {
    /** Whether the user signs in with a password here (not only through single sign-on). */
    async hasPassword(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential'), isNotNull(accounts.password)))
        .limit(1);
      return row !== undefined;
    },

    /** Removes the user's second factor (its secret and recovery codes) in one transaction; false when there was none. */
    async remove(userId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const removed = await tx.delete(twoFactors).where(eq(twoFactors.userId, userId)).returning({ id: twoFactors.id });
        const updated = await tx
          .update(users)
          .set({ twoFactorEnabled: false })
          .where(and(eq(users.id, userId), eq(users.twoFactorEnabled, true)))
          .returning({ id: users.id });
        return removed.length > 0 || updated.length > 0;
      });
    },

    /** The row the library keeps (secret and codes encrypted), or none: whether a setup was started. */
    async stored(userId: string): Promise<{ secret: string; backupCodes: string; verified: boolean } | undefined> {
      const [row] = await db
        .select({ secret: twoFactors.secret, backupCodes: twoFactors.backupCodes, verified: twoFactors.verified })
        .from(twoFactors)
        .where(eq(twoFactors.userId, userId));
      return row;
    },
  };
}
