import { and, asc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { TFilledValues } from '../../../contract/filled-values.ts';
import type { TDb } from '../../db/client.ts';
import { bulkJobs, bulkRows, documents, formatSnapshots, usageCounters } from '../../db/schema.ts';
import { countingPeriod } from '../workspaces/index.ts';
import type { TBulkRowRow } from './bulk.repository.ts';
import { jobWhere, UNFINISHED, withoutDocument } from './bulk-query-parts.ts';

export type TChunkDocument = {
  id: string;
  row: number;
  name: string;
  clientName: string;
  data: TFilledValues;
  pdfSha256: string;
};

export type TChunkCommit = {
  ownerId: string;
  jobId: string;
  /** The owner's monthly generation limit. */
  limit: number;
  createdAt: Date;
  documents: TChunkDocument[];
  /** Rows that could not be rendered: row -> message. */
  failures: { row: number; message: string }[];
};

export type TChunkOutcome = { madeRows: number[]; quotaRefused: number; discarded: boolean };

/** Bounds on bulk_rows.row covering these rows, so the query walks one stretch of the primary key. */
const rowRange = (rows: readonly number[]) => (rows.length === 0 ? [sql`false`] : [gte(bulkRows.row, Math.min(...rows)), lte(bulkRows.row, Math.max(...rows))]);

/**
 * Which of these rows of a job have their document. A range scan of the (batch, row) index: a
 * correlated anti-join let the planner (with no statistics on fresh rows, PGlite has no
 * autovacuum) scan the whole batch once per chunk.
 */
async function rowsWithDocument(db: TDb, ownerId: string, jobId: string, rows: readonly number[]): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const found = await db
    .select({ row: documents.batchRow })
    .from(documents)
    .where(
      and(eq(documents.ownerId, ownerId), eq(documents.batchId, jobId), gte(documents.batchRow, Math.min(...rows)), lte(documents.batchRow, Math.max(...rows))),
    );
  return new Set(found.map((f) => f.row as number));
}

/**
 * Stores a rendered chunk in one transaction: the job row lock serialises chunks of one job,
 * a cancelled job takes nothing, each (job, row) gets at most one document (the unique index,
 * so a chunk retried after a crash adds nothing twice), and exactly one generation is counted
 * per document stored, never past the monthly limit.
 *
 * A row's document is its "done" mark: rows are not updated when their document is stored,
 * which halves the writes per document (see bench:bulk).
 */
async function commitChunk(db: TDb, commit: TChunkCommit): Promise<TChunkOutcome> {
  const { ownerId, jobId } = commit;
  return db.transaction(async (tx) => {
    const [job] = await tx
      .select({
        status: bulkJobs.status,
        formatId: bulkJobs.formatId,
        formatName: bulkJobs.formatName,
        snapshotId: bulkJobs.snapshotId,
        createdBy: bulkJobs.createdBy,
      })
      .from(bulkJobs)
      .where(jobWhere(ownerId, jobId))
      .for('update');
    if (!job || !job.snapshotId || (job.status !== 'running' && job.status !== 'queued')) {
      return { madeRows: [], quotaRefused: 0, discarded: true };
    }
    const rowsInChunk = [...commit.documents.map((d) => d.row), ...commit.failures.map((f) => f.row)];
    // Rows another run of this chunk already settled are left alone.
    const pendingInChunk = (
      await tx
        .select({ row: bulkRows.row })
        .from(bulkRows)
        .where(and(eq(bulkRows.jobId, jobId), eq(bulkRows.status, 'pending'), ...rowRange(rowsInChunk)))
    ).map((r) => r.row);
    const storedAlready = await rowsWithDocument(tx, ownerId, jobId, pendingInChunk);
    const stillPending = new Set(pendingInChunk.filter((row) => !storedAlready.has(row)));
    const candidates = commit.documents.filter((d) => stillPending.has(d.row));
    const failures = commit.failures.filter((f) => stillPending.has(f.row));

    const periodQuery = (await tx.execute(sql`select ${countingPeriod(ownerId, commit.createdAt)} as period`)) as unknown as {
      rows: { period: string }[];
    };
    const period = periodQuery.rows[0]!.period;
    await tx.insert(usageCounters).values({ ownerId, period, generations: 0 }).onConflictDoNothing();
    const [counter] = await tx
      .select({ generations: usageCounters.generations })
      .from(usageCounters)
      .where(and(eq(usageCounters.ownerId, ownerId), eq(usageCounters.period, period)))
      .for('update');
    const remaining = Math.max(0, commit.limit - (counter?.generations ?? 0));
    const allowed = candidates.slice(0, remaining);
    const refused = candidates.slice(remaining);

    let made: { row: number }[] = [];
    if (allowed.length > 0) {
      // One JSON parameter for the whole chunk: binding a dozen parameters per document cost
      // more than the insert itself.
      const batch = JSON.stringify(allowed.map((d) => ({ id: d.id, row: d.row, name: d.name, client: d.clientName, data: d.data, sha: d.pdfSha256 })));
      const inserted = await tx.execute(sql`
        insert into ${documents}
          (id, owner_id, format_id, format_name, format_version, snapshot_id, name, client_name, data, status,
           pdf_sha256, batch_id, batch_row, created_at, created_by)
        select x.id, ${ownerId}, ${job.formatId}, ${job.formatName},
          (select version from ${formatSnapshots} where id = ${job.snapshotId}), ${job.snapshotId},
          x.name, x.client, x.data, 'generated', x.sha, ${jobId}, x.row, ${commit.createdAt.toISOString()}::timestamptz, ${job.createdBy}
        from jsonb_to_recordset(${batch}::jsonb) as x(id text, row int, name text, client text, data jsonb, sha text)
        on conflict (batch_id, batch_row) do nothing
        returning batch_row as row`);
      made = (inserted as unknown as { rows: { row: number }[] }).rows;
      if (made.length > 0) {
        await tx
          .update(usageCounters)
          .set({ generations: sql`${usageCounters.generations} + ${made.length}` })
          .where(and(eq(usageCounters.ownerId, ownerId), eq(usageCounters.period, period)));
      }
    }
    const failed = [...failures, ...refused.map((d) => ({ row: d.row, message: 'Not generated: your plan’s documents for this month are used up.' }))];
    if (failed.length > 0) {
      await tx.execute(sql`
        update ${bulkRows} as r set status = 'failed', errors = jsonb_build_object('Document', v.message)
        from (select * from jsonb_to_recordset(${JSON.stringify(failed)}::jsonb) as x(row int, message text)) as v
        where r.job_id = ${jobId} and r.row = v.row`);
    }
    await tx
      .update(bulkJobs)
      .set({
        status: 'running',
        startedAt: sql`coalesce(${bulkJobs.startedAt}, now())`,
        done: sql`${bulkJobs.done} + ${made.length}`,
        failed: sql`${bulkJobs.failed} + ${failed.length}`,
        ...(refused.length > 0 ? { message: 'Your plan’s documents for this month were used up before every row was generated.' } : {}),
      })
      .where(jobWhere(ownerId, jobId));
    return { madeRows: made.map((m) => m.row), quotaRefused: refused.length, discarded: false };
  });
}

/** The queries the chunk workers run: rows to render, storing what they made, finishing a job. */
export function createBulkChunkQueries(db: TDb) {
  return {
    async markRunning(ownerId: string, id: string): Promise<void> {
      await db
        .update(bulkJobs)
        .set({ status: 'running', startedAt: sql`coalesce(${bulkJobs.startedAt}, now())` })
        .where(and(jobWhere(ownerId, id), eq(bulkJobs.status, 'queued')));
    },

    async pendingRows(ownerId: string, jobId: string, fromSeq: number, toSeq: number): Promise<TBulkRowRow[]> {
      const rows = await db
        .select({ row: bulkRows })
        .from(bulkRows)
        .innerJoin(bulkJobs, eq(bulkJobs.id, bulkRows.jobId))
        .where(
          and(eq(bulkJobs.ownerId, ownerId), eq(bulkRows.jobId, jobId), eq(bulkRows.status, 'pending'), gte(bulkRows.seq, fromSeq), lt(bulkRows.seq, toSeq)),
        )
        .orderBy(asc(bulkRows.seq));
      const made = await rowsWithDocument(
        db,
        ownerId,
        jobId,
        rows.map((r) => r.row.row),
      );
      return rows.map((r) => r.row).filter((r) => !made.has(r.row));
    },

    /** Stores a rendered chunk, once (see commitChunk). */
    commitChunk: (commit: TChunkCommit): Promise<TChunkOutcome> => commitChunk(db, commit),

    /** Completes a job whose rows are all settled; true when this call completed it. */
    async finishIfDone(ownerId: string, jobId: string): Promise<boolean> {
      const finished = await db
        .update(bulkJobs)
        .set({ status: 'completed', finishedAt: sql`now()` })
        .where(
          and(
            jobWhere(ownerId, jobId),
            inArray(bulkJobs.status, [...UNFINISHED]),
            // The counters move in the same transactions as the documents and failures they count.
            sql`${bulkJobs.done} + ${bulkJobs.failed} >= ${bulkJobs.total}`,
          ),
        )
        .returning({ id: bulkJobs.id });
      return finished.length > 0;
    },

    /** Seq ranges that still have pending rows, for re-queuing a job after a restart. */
    async pendingSeqs(ownerId: string, jobId: string): Promise<number[]> {
      const rows = await db
        .select({ seq: bulkRows.seq })
        .from(bulkRows)
        .innerJoin(bulkJobs, eq(bulkJobs.id, bulkRows.jobId))
        .where(and(eq(bulkJobs.ownerId, ownerId), eq(bulkRows.jobId, jobId), eq(bulkRows.status, 'pending'), withoutDocument(ownerId, jobId)))
        .orderBy(asc(bulkRows.seq));
      return rows.map((r) => r.seq);
    },

    /** Jobs left queued or running (by a process that stopped or died), across owners: start-up only. */
    async unfinishedJobs(): Promise<{ id: string; ownerId: string }[]> {
      return db
        .select({ id: bulkJobs.id, ownerId: bulkJobs.ownerId })
        .from(bulkJobs)
        .where(inArray(bulkJobs.status, [...UNFINISHED]));
    },
  };
}
