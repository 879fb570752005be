import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { apiKeys } from '../../db/schema.ts';

export type TApiKeyRow = typeof apiKeys.$inferSelect;

/** Every query but the lookup by hash filters by the owner. */
export function createApiKeysRepository(db: TDb) {
  return {
    async list(ownerId: string): Promise<TApiKeyRow[]> {
      return db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.ownerId, ownerId), isNull(apiKeys.revokedAt)))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    },

    /** Every key the owner ever made, revoked ones included, for usage history. */
    async listAll(ownerId: string): Promise<TApiKeyRow[]> {
      return db.select().from(apiKeys).where(eq(apiKeys.ownerId, ownerId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    },

    async countActive(ownerId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(apiKeys)
        .where(and(eq(apiKeys.ownerId, ownerId), isNull(apiKeys.revokedAt)));
      return row?.n ?? 0;
    },

    async insert(row: typeof apiKeys.$inferInsert): Promise<TApiKeyRow> {
      const [created] = await db.insert(apiKeys).values(row).returning();
      return created!;
    },

    /** True when the owner had that key and it was active. */
    async revoke(ownerId: string, id: string): Promise<boolean> {
      const revoked = await db
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.ownerId, ownerId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      return revoked.length > 0;
    },

    /** Marks a key as used now. */
    async touch(id: string, now: Date): Promise<void> {
      await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id));
    },
  };
}
export type TApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
