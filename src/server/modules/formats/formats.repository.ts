import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { keysetAfter, keysetOrder, type TPageCursor } from '../../http/page-cursor.ts';
import type { TFormatInputParsed } from '../../../contract/formats.ts';
import type { TDb } from '../../db/client.ts';
import { formats, formatSnapshots, workspaces } from '../../db/schema.ts';
import { createBoundedLru } from '../../jobs/bounded-lru.ts';

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

type TCurrentFormat = Pick<TFormatRow, 'id' | 'name' | 'version'>;

/** Snapshots read, kept by owner, format and version: a snapshot never changes once written. */
const SNAPSHOTS_KEPT = { maxEntries: 512, maxSize: 32 * 1024 * 1024 };
/** Formats whose current version is remembered. */
const CURRENT_VERSIONS_KEPT = 10_000;

/**
 * Every query filters by the owner: another user's format is indistinguishable from a missing one.
 *
 * Every document made asks for its format's current snapshot. The snapshot itself is kept once
 * read, since it never changes. Which version is current does change: it is remembered, and
 * forgotten at each change this process makes. Another process's save is caught where it matters,
 * by the statement that stores the document (it stores nothing made from a version no longer
 * current as that statement starts, and the caller forgets that format and makes the document
 * again), so a remembered version costs no read per document, and a save that finished before a
 * document's request is never overtaken by it.
 */
export function createFormatsRepository(db: TDb) {
  // Every generation asks these: prepared once, they are neither built again here nor planned again by the database.
  const currentVersion = db
    .select({ id: formats.id, name: formats.name, version: formats.version })
    .from(formats)
    .where(and(eq(formats.ownerId, sql.placeholder('ownerId')), eq(formats.id, sql.placeholder('formatId'))))
    .limit(1)
    .prepare('format_current_version');
  const snapshotOfVersion = db
    .select()
    .from(formatSnapshots)
    .where(
      and(
        eq(formatSnapshots.ownerId, sql.placeholder('ownerId')),
        eq(formatSnapshots.formatId, sql.placeholder('formatId')),
        eq(formatSnapshots.version, sql.placeholder('version')),
      ),
    )
    .limit(1)
    .prepare('format_snapshot_of_version');
  const snapshots = createBoundedLru<string, TSnapshotRow>(SNAPSHOTS_KEPT);
  const currentVersions = new Map<string, TCurrentFormat>();
  // Bumped by every change: a read that started before one may have seen the old version, and is not kept.
  let changes = 0;
  const changed = <T>(result: T): T => {
    changes++;
    currentVersions.clear();
    return result;
  };
  const readCurrent = async (ownerId: string, formatId: string): Promise<{ format: TCurrentFormat; remembered: boolean } | undefined> => {
    const key = `${ownerId}/${formatId}`;
    const known = currentVersions.get(key);
    if (known) return { format: known, remembered: true };
    const changesBefore = changes;
    const [row] = await currentVersion.execute({ ownerId, formatId });
    if (!row) return undefined;
    if (changes === changesBefore) {
      if (currentVersions.size >= CURRENT_VERSIONS_KEPT) currentVersions.delete(currentVersions.keys().next().value!);
      currentVersions.set(key, row);
    }
    return { format: row, remembered: false };
  };
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
      return db
        .transaction(async (tx) => {
          const [row] = await tx
            .update(formats)
            .set({ ...input, version: sql`${formats.version} + 1`, updatedAt: new Date() })
            .where(and(eq(formats.ownerId, ownerId), eq(formats.id, id)))
            .returning();
          if (!row) return undefined;
          await insertSnapshot(tx, row);
          return row;
        })
        .then(changed);
    },

    async delete(ownerId: string, id: string): Promise<boolean> {
      const deleted = await db
        .delete(formats)
        .where(and(eq(formats.ownerId, ownerId), eq(formats.id, id)))
        .returning({ id: formats.id });
      return changed(deleted.length > 0);
    },

    /** Forgets the version remembered as `formatId`'s current one: a document made from it was refused as stale. */
    forgetCurrent(ownerId: string, formatId: string): void {
      changes++;
      currentVersions.delete(`${ownerId}/${formatId}`);
    },

    /**
     * A format's name and version with the snapshot of that version, in one read: what a new
     * document is made from. `remembered` says the version came from this process's memory, so
     * another process may have saved the format since.
     */
    async currentSnapshot(ownerId: string, formatId: string): Promise<{ format: TCurrentFormat; snapshot: TSnapshotRow; remembered: boolean } | undefined> {
      const current = await readCurrent(ownerId, formatId);
      if (!current) return undefined;
      const { format, remembered } = current;
      const key = `${ownerId}/${formatId}/${format.version}`;
      let snapshot = snapshots.get(key);
      if (!snapshot) {
        [snapshot] = await snapshotOfVersion.execute({ ownerId, formatId, version: format.version });
        if (!snapshot) return undefined;
        snapshots.set(key, snapshot, JSON.stringify(snapshot.content).length + JSON.stringify(snapshot.placeholders).length);
      }
      return { format, snapshot, remembered };
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
