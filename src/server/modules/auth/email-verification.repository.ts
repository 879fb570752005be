import { randomUUID } from 'node:crypto';
import { and, eq, gt, like, lte, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { users, verifications } from '../../db/schema.ts';

/**
 * Verification links, one row each in the auth library's `verifications` table: the identifier is
 * a SHA-256 of the link's token (the token itself is never stored), the value names the account
 * and holds the library's proof for its address.
 */
const PREFIX = 'verify-email:';
const v = verifications;

export function createEmailVerificationRepository(db: TDb) {
  return {
    /** Stores a new link for `userId`; the account's earlier links stop working. */
    async issue(userId: string, tokenHash: string, proof: string, expiresAt: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(v).where(and(like(v.identifier, `${PREFIX}%`), like(v.value, `${userId} %`)));
        await tx.insert(v).values({ id: randomUUID(), identifier: `${PREFIX}${tokenHash}`, value: `${userId} ${proof}`, expiresAt });
      });
    },

    /** Takes a link out (it works once), whether or not it is still valid: its user and proof, and when it expired. */
    async take(tokenHash: string): Promise<{ userId: string; proof: string; expiresAt: Date } | undefined> {
      const [row] = await db
        .delete(v)
        .where(eq(v.identifier, `${PREFIX}${tokenHash}`))
        .returning({ value: v.value, expiresAt: v.expiresAt });
      if (!row) return undefined;
      const space = row.value.indexOf(' ');
      return { userId: row.value.slice(0, space), proof: row.value.slice(space + 1), expiresAt: row.expiresAt };
    },

    /** Whether the account has a link that still works. */
    async hasLive(userId: string, now: Date): Promise<boolean> {
      const [row] = await db
        .select({ id: v.id })
        .from(v)
        .where(and(like(v.identifier, `${PREFIX}%`), like(v.value, `${userId} %`), gt(v.expiresAt, now)))
        .limit(1);
      return row !== undefined;
    },

    async dropAll(userId: string): Promise<void> {
      await db.delete(v).where(and(like(v.identifier, `${PREFIX}%`), like(v.value, `${userId} %`)));
    },

    async sweep(now: Date): Promise<void> {
      await db.delete(v).where(and(like(v.identifier, `${PREFIX}%`), lte(v.expiresAt, now)));
    },

    /** Marks the address verified (an admin's word, or admin:create). */
    async markVerified(userId: string): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ emailVerified: true, updatedAt: sql`now()` })
        .where(eq(users.id, userId))
        .returning({ id: users.id });
      return rows.length > 0;
    },
  };
}
