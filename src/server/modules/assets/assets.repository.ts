import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { assets } from '../../db/schema.ts';

export type TAssetRow = typeof assets.$inferSelect;
export type TNewAsset = Pick<TAssetRow, 'mimeType' | 'bytes' | 'sha256'> & { sourceUrl?: string };

/** Every query filters by the owner: another user's asset is indistinguishable from a missing one. */
export function createAssetsRepository(db: TDb) {
  return {
    async create(ownerId: string, asset: TNewAsset): Promise<TAssetRow> {
      const [row] = await db
        .insert(assets)
        .values({ id: randomUUID(), ownerId, ...asset })
        .onConflictDoNothing()
        .returning();
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
