import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { keyJoins, keyMaker, keyMakerAway, keySuspended } from './key-standing.ts';
import type { TDb } from '../../db/client.ts';
import { apiKeys } from '../../db/schema.ts';

export type TApiKeyRow = typeof apiKeys.$inferSelect;

/** A key as its workspace lists it: who made it, and whether their standing stops it now (key-standing.ts). */
export type TListedApiKey = Pick<TApiKeyRow, 'id' | 'name' | 'mode' | 'last4' | 'createdAt' | 'lastUsedAt'> & {
  madeBy: string | null;
  suspended: boolean;
  makerAway: boolean;
};

/** Every query filters by the owner (the API admits a key in public-api.repository.ts). */
export function createApiKeysRepository(db: TDb) {
  return {
    /** The owner's active keys (or the one with `id`), each with its maker's name and standing. */
    async list(ownerId: string, id?: string): Promise<TListedApiKey[]> {
      const result = await db.execute(sql`
        select ${apiKeys.id} as id, ${apiKeys.name} as name, ${apiKeys.mode} as mode, ${apiKeys.last4} as last4,
               ${apiKeys.createdAt} as "createdAt", ${apiKeys.lastUsedAt} as "lastUsedAt",
               coalesce(nullif(trim(concat_ws(' ', ${keyMaker.firstName}, ${keyMaker.lastName})), ''), nullif(${keyMaker.name}, ''), ${keyMaker.email}) as "madeBy",
               ${keySuspended} as suspended, ${keyMakerAway} as "makerAway"
        from ${apiKeys} ${keyJoins}
        where ${apiKeys.ownerId} = ${ownerId} and ${apiKeys.revokedAt} is null ${id === undefined ? sql`` : sql`and ${apiKeys.id} = ${id}`}
        order by ${apiKeys.createdAt} desc, ${apiKeys.id} desc`);
      const rows = ((result as { rows?: unknown[] }).rows ?? result) as (Omit<TListedApiKey, 'createdAt' | 'lastUsedAt'> & {
        createdAt: Date | string;
        lastUsedAt: Date | string | null;
      })[];
      return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt), lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt) }));
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
