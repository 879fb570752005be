import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { assets, workspaces } from '../../db/schema.ts';

export type TAssetRow = typeof assets.$inferSelect;
export type TNewAsset = Pick<TAssetRow, 'mimeType' | 'bytes' | 'sha256'> & { sourceUrl?: string };

/** Storing an image would take its owner past their allowance; carries what they use now. */
export class StorageFullError extends Error {
  constructor(public readonly usedBytes: number) {
    super('storage allowance reached');
  }
}

const usedBytesOf = async (db: Pick<TDb, 'select'>, ownerId: string): Promise<number> => {
  const [row] = await db
    .select({ used: sql<string | null>`sum(octet_length(${assets.bytes}))` })
    .from(assets)
    .where(eq(assets.ownerId, ownerId));
  return Number(row?.used ?? 0);
};

/** Every query filters by the owner: another user's asset is indistinguishable from a missing one. */
export function createAssetsRepository(db: TDb) {
  return {
    usedBytes: (ownerId: string) => usedBytesOf(db, ownerId),

    /**
     * Stores an image unless it would take the owner past `allowanceBytes`. The owner's row is
     * locked while the sum is read, so parallel uploads cannot overshoot together.
     */
    async create(ownerId: string, asset: TNewAsset, allowanceBytes: number): Promise<TAssetRow> {
      const row = await db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from ${workspaces} where ${workspaces.id} = ${ownerId} for update`);
        const used = await usedBytesOf(tx, ownerId);
        if (used + asset.bytes.length > allowanceBytes) throw new StorageFullError(used);
        const [inserted] = await tx
          .insert(assets)
          .values({ id: randomUUID(), ownerId, ...asset })
          .onConflictDoNothing()
          .returning();
        return inserted;
      });
      if (row) return row;
      // Two renders fetched the same URL at once; the first one stored it.
      const [existing] = await db
        .select()
        .from(assets)
        .where(and(eq(assets.ownerId, ownerId), eq(assets.sourceUrl, asset.sourceUrl ?? '')))
        .limit(1);
      if (!existing) throw new Error('asset insert conflicted but no row was found');
      return existing;
    },

    async get(ownerId: string, id: string): Promise<TAssetRow | undefined> {
      const [row] = await db
        .select()
        .from(assets)
        .where(and(eq(assets.ownerId, ownerId), eq(assets.id, id)))
        .limit(1);
      return row;
    },

    async getMany(ownerId: string, ids: string[]): Promise<TAssetRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(assets)
        .where(and(eq(assets.ownerId, ownerId), inArray(assets.id, ids)));
    },

    async findBySourceUrls(ownerId: string, urls: string[]): Promise<TAssetRow[]> {
      if (urls.length === 0) return [];
      return db
        .select()
        .from(assets)
        .where(and(eq(assets.ownerId, ownerId), inArray(assets.sourceUrl, urls)));
    },
  };
}
export type TAssetsRepository = ReturnType<typeof createAssetsRepository>;
