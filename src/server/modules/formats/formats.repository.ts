import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { keysetAfter, keysetOrder, type TPageCursor } from '../../http/page-cursor.ts';
import type { TFormatInputParsed } from '../../../contract/formats.ts';
import type { TDb } from '../../db/client.ts';
import { formats, formatSnapshots, workspaces } from '../../db/schema.ts';

export type TFormatRow = typeof formats.$inferSelect;
export type TSnapshotRow = typeof formatSnapshots.$inferSelect;

type TTx = Parameters<Parameters<TDb['transaction']>[0]>[0];

async function insertSnapshot(tx: TTx, row: typeof formats.$inferSelect) {
  await tx.insert(formatSnapshots).values({
    id: randomUUID(),
    ownerId: row.ownerId,
    formatId: row.id,
    version: row.version,
    name: row.name,
    content: row.content,
    placeholders: row.placeholders,
  });
}

/** Every query filters by the owner: another user's format is indistinguishable from a missing one. */
export function createFormatsRepository(db: TDb) {
  // Every generation asks this: prepared once, it is neither built again here nor planned again by the database.
  const current = db
    .select({ format: { id: formats.id, name: formats.name, version: formats.version }, snapshot: formatSnapshots })
    .from(formats)
    .innerJoin(
      formatSnapshots,
      and(eq(formatSnapshots.formatId, formats.id), eq(formatSnapshots.version, formats.version), eq(formatSnapshots.ownerId, sql.placeholder('ownerId'))),
    )
    .where(and(eq(formats.ownerId, sql.placeholder('ownerId')), eq(formats.id, sql.placeholder('formatId'))))
    .limit(1)
    .prepare('format_current_snapshot');
  return {
    async list(ownerId: string): Promise<TFormatRow[]> {
      return await db.select().from(formats).where(eq(formats.ownerId, ownerId)).orderBy(desc(formats.updatedAt), desc(formats.id));
    },

    /** Newest first, after `after` when given (keyset paging). */
    async page(ownerId: string, query: { limit: number; after?: TPageCursor }): Promise<TFormatRow[]> {
      return db
        .select()
        .from(formats)
        .where(and(eq(formats.ownerId, ownerId), keysetAfter(formats.createdAt, formats.id, query.after)))
        .orderBy(...keysetOrder(formats.createdAt, formats.id))
        .limit(query.limit);
    },

    async get(ownerId: string, id: string): Promise<TFormatRow | undefined> {
      const [row] = await db
        .select()
        .from(formats)
        .where(and(eq(formats.ownerId, ownerId), eq(formats.id, id)))
        .limit(1);
      return row;
    },

    /**
     * Creates a format and its first snapshot. `allowed` runs inside the transaction with the
     * owner's row locked, so two parallel creates cannot both slip under a plan's format limit.
     */
    async create(
      ownerId: string,
      input: TFormatInputParsed,
      allowed: (existing: number) => void | Promise<void>,
      createdBy: string | null = null,
    ): Promise<TFormatRow> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from ${workspaces} where ${workspaces.id} = ${ownerId} for update`);
        const [existing] = await tx.select({ n: count() }).from(formats).where(eq(formats.ownerId, ownerId));
        await allowed(existing?.n ?? 0);
        const [row] = await tx
          .insert(formats)
          .values({ id: randomUUID(), ownerId, createdBy, ...input, version: 1 })
          .returning();
        await insertSnapshot(tx, row!);
        return row!;
      });
    },

    async update(ownerId: string, id: string, input: TFormatInputParsed): Promise<TFormatRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(formats)
          .set({ ...input, version: sql`${formats.version} + 1`, updatedAt: new Date() })
          .where(and(eq(formats.ownerId, ownerId), eq(formats.id, id)))
          .returning();
        if (!row) return undefined;
        await insertSnapshot(tx, row);
        return row;
      });
    },

    async delete(ownerId: string, id: string): Promise<boolean> {
      const deleted = await db
        .delete(formats)
        .where(and(eq(formats.ownerId, ownerId), eq(formats.id, id)))
        .returning({ id: formats.id });
      return deleted.length > 0;
    },

    /** A format's name and version with the snapshot of that version, in one read: what a new document is made from. */
    async currentSnapshot(
      ownerId: string,
      formatId: string,
    ): Promise<{ format: Pick<TFormatRow, 'id' | 'name' | 'version'>; snapshot: TSnapshotRow } | undefined> {
      const [row] = await current.execute({ ownerId, formatId });
      return row;
    },

    async snapshot(ownerId: string, formatId: string, version: number): Promise<TSnapshotRow | undefined> {
      const [row] = await db
        .select()
        .from(formatSnapshots)
        .where(and(eq(formatSnapshots.ownerId, ownerId), eq(formatSnapshots.formatId, formatId), eq(formatSnapshots.version, version)))
        .limit(1);
      return row;
    },
  };
}
export type TFormatsRepository = ReturnType<typeof createFormatsRepository>;
