import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { TFilledValues } from '../../../contract/filled-values.ts';
import type { TDb } from '../../db/client.ts';
import { bulkJobs, bulkRows, documents, formatSnapshots } from '../../db/schema.ts';
import type { TSnapshotRow } from '../formats/index.ts';
import { createBulkChunkQueries } from './bulk-chunks.repository.ts';
import { jobWhere, UNFINISHED, withoutDocument } from './bulk-query-parts.ts';

export type TBulkJobRow = typeof bulkJobs.$inferSelect;
export type TBulkRowRow = typeof bulkRows.$inferSelect;
export type TNewBulkRow = Omit<typeof bulkRows.$inferInsert, 'jobId'>;

export type TBatchDocument = { id: string; name: string; data: TFilledValues; batchRow: number; createdAt: Date };

const INSERT_BATCH = 5_000;

/**
 * Every query takes the owner and filters by it, the worker's included: the chunk payload carries
 * the owner, so another user's job is as invisible to a worker as to the API.
 */
export function createBulkRepository(db: TDb) {
  return {
    async createDraft(job: typeof bulkJobs.$inferInsert): Promise<TBulkJobRow> {
      const [row] = await db.insert(bulkJobs).values(job).returning();
      return row!;
    },

    async get(ownerId: string, id: string): Promise<TBulkJobRow | undefined> {
      const [row] = await db.select().from(bulkJobs).where(jobWhere(ownerId, id)).limit(1);
      return row;
    },

    async list(ownerId: string, page: { limit: number; offset: number; createdBy?: string | undefined }): Promise<TBulkJobRow[]> {
      return (
        db
          .select()
          .from(bulkJobs)
          .where(and(eq(bulkJobs.ownerId, ownerId), ne(bulkJobs.status, 'draft'), page.createdBy ? eq(bulkJobs.createdBy, page.createdBy) : undefined))
          // Newest started first (a sheet may be uploaded long before it is started); Recent
          // Documents places each batch by the same time.
          .orderBy(desc(sql`coalesce(${bulkJobs.startedAt}, ${bulkJobs.createdAt})`), desc(bulkJobs.id))
          .limit(page.limit)
          .offset(page.offset)
      );
    },

    async updateMapping(ownerId: string, id: string, mapping: Record<string, number | null>): Promise<boolean> {
      const updated = await db
        .update(bulkJobs)
        .set({ mapping })
        .where(and(jobWhere(ownerId, id), eq(bulkJobs.status, 'draft')))
        .returning({ id: bulkJobs.id });
      return updated.length > 0;
    },

    /** Draft -> queued with its rows, once: a second start (double click, two tabs) finds no draft. */
    async start(
      ownerId: string,
      id: string,
      job: { snapshotId: string; formatName: string; fileNamePattern: string; total: number; skipped: number },
      rows: TNewBulkRow[],
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const updated = await tx
          .update(bulkJobs)
          .set({ ...job, status: 'queued', sourceRows: null })
          .where(and(jobWhere(ownerId, id), eq(bulkJobs.status, 'draft')))
          .returning({ id: bulkJobs.id });
        if (updated.length === 0) return false;
        // One JSON parameter per batch: far cheaper than thousands of bound parameters.
        for (let i = 0; i < rows.length; i += INSERT_BATCH) {
          const batch = JSON.stringify(rows.slice(i, i + INSERT_BATCH));
          await tx.execute(sql`
            insert into ${bulkRows} (job_id, row, seq, data, status, errors, extra)
            select ${id}, x.row, x.seq, x.data, x.status, x.errors, x.extra
            from jsonb_to_recordset(${batch}::jsonb) as x(row int, seq int, data jsonb, status text, errors jsonb, extra jsonb)`);
        }
        return true;
      });
    },

    async cancel(ownerId: string, id: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const cancelled = await tx
          .update(bulkJobs)
          .set({ status: 'cancelled', finishedAt: sql`now()`, message: 'Cancelled. Documents already made are kept.' })
          .where(and(jobWhere(ownerId, id), inArray(bulkJobs.status, [...UNFINISHED])))
          .returning({ id: bulkJobs.id });
        if (cancelled.length === 0) return false;
        await tx
          .update(bulkRows)
          .set({ status: 'cancelled' })
          .where(and(eq(bulkRows.jobId, id), eq(bulkRows.status, 'pending'), withoutDocument(ownerId, id)));
        return true;
      });
    },

    async deleteDraft(ownerId: string, id: string): Promise<boolean> {
      const deleted = await db
        .delete(bulkJobs)
        .where(and(jobWhere(ownerId, id), eq(bulkJobs.status, 'draft')))
        .returning({ id: bulkJobs.id });
      return deleted.length > 0;
    },

    async rowErrors(ownerId: string, jobId: string, page: { limit: number; offset: number }): Promise<{ row: number; errors: Record<string, string> }[]> {
      const rows = await db
        .select({ row: bulkRows.row, errors: bulkRows.errors })
        .from(bulkRows)
        .innerJoin(bulkJobs, eq(bulkJobs.id, bulkRows.jobId))
        .where(and(eq(bulkJobs.ownerId, ownerId), eq(bulkRows.jobId, jobId), inArray(bulkRows.status, ['invalid', 'failed'])))
        .orderBy(asc(bulkRows.row))
        .limit(page.limit)
        .offset(page.offset);
      return rows.map((r) => ({ row: r.row, errors: r.errors ?? {} }));
    },

    async countRowErrors(ownerId: string, jobId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(bulkRows)
        .innerJoin(bulkJobs, eq(bulkJobs.id, bulkRows.jobId))
        .where(and(eq(bulkJobs.ownerId, ownerId), eq(bulkRows.jobId, jobId), inArray(bulkRows.status, ['invalid', 'failed'])));
      return row?.n ?? 0;
    },

    /** The batch's documents in row order, a page at a time (the ZIP and merged PDF stream through these). */
    async batchDocuments(ownerId: string, jobId: string, after: number, limit: number): Promise<TBatchDocument[]> {
      return (await db
        .select({ id: documents.id, name: documents.name, data: documents.data, batchRow: documents.batchRow, createdAt: documents.createdAt })
        .from(documents)
        .where(and(eq(documents.ownerId, ownerId), eq(documents.batchId, jobId), sql`${documents.batchRow} > ${after}`))
        .orderBy(asc(documents.batchRow))
        .limit(limit)) as TBatchDocument[];
    },

    async snapshotOf(ownerId: string, snapshotId: string): Promise<TSnapshotRow | undefined> {
      const [row] = await db
        .select()
        .from(formatSnapshots)
        .where(and(eq(formatSnapshots.ownerId, ownerId), eq(formatSnapshots.id, snapshotId)))
        .limit(1);
      return row;
    },

    ...createBulkChunkQueries(db),
  };
}
export type TBulkRepository = ReturnType<typeof createBulkRepository>;
