import { and, desc, eq, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { ownerNotSuspended } from '../../db/owner-standing.ts';
import { shareLinks } from '../../db/schema.ts';

export type TShareLinkRow = typeof shareLinks.$inferSelect;

/**
 * An owner's links are read and changed only through their owner. Opening a link is the one read
 * by token alone: the token is the permission, and it finds nothing but its own link.
 */
export function createShareLinksRepository(db: TDb) {
  const mine = (ownerId: string, id: string) => and(eq(shareLinks.ownerId, ownerId), eq(shareLinks.id, id));
  return {
    async insert(row: typeof shareLinks.$inferInsert): Promise<TShareLinkRow> {
      const [created] = await db.insert(shareLinks).values(row).returning();
      return created!;
    },

    async get(ownerId: string, id: string): Promise<TShareLinkRow | undefined> {
      const [row] = await db.select().from(shareLinks).where(mine(ownerId, id));
      return row;
    },

    async ofDocument(ownerId: string, documentId: string): Promise<TShareLinkRow[]> {
      return db
        .select()
        .from(shareLinks)
        .where(and(eq(shareLinks.ownerId, ownerId), eq(shareLinks.documentId, documentId)))
        .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id))
        .limit(100);
    },

    async revoke(ownerId: string, id: string, at: Date): Promise<TShareLinkRow | undefined> {
      const [row] = await db
        .update(shareLinks)
        .set({ revokedAt: sql`coalesce(${shareLinks.revokedAt}, ${at.toISOString()}::timestamptz)` })
        .where(mine(ownerId, id))
        .returning();
      return row;
    },

    /** The link a token opens, if it is open at `now`: not revoked, not expired, its owner not suspended. */
    async openByHash(tokenHash: string, now: Date): Promise<TShareLinkRow | undefined> {
      const [row] = await db
        .select()
        .from(shareLinks)
        .where(
          and(
            eq(shareLinks.tokenHash, tokenHash),
            sql`${shareLinks.revokedAt} is null`,
            sql`${shareLinks.expiresAt} > ${now.toISOString()}::timestamptz`,
            ownerNotSuspended(shareLinks.ownerId),
          ),
        );
      return row;
    },

    async countView(id: string, at: Date): Promise<void> {
      await db
        .update(shareLinks)
        .set({ views: sql`${shareLinks.views} + 1`, lastViewedAt: at })
        .where(eq(shareLinks.id, id));
    },

    async countDownload(id: string): Promise<void> {
      await db
        .update(shareLinks)
        .set({ downloads: sql`${shareLinks.downloads} + 1` })
        .where(eq(shareLinks.id, id));
    },
  };
}
export type TShareLinksRepository = ReturnType<typeof createShareLinksRepository>;
