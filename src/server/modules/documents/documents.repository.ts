import { and, asc, desc, eq, gt, gte, ilike, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { keysetAfter, keysetOrder, type TPageCursor } from '../../http/page-cursor.ts';
import type { TApiKeyMode } from '../../../contract/api-keys.ts';
import type { TDocumentFilters, TDocumentListQuery, TDocumentStatus } from '../../../contract/documents.ts';
import type { TDb } from '../../db/client.ts';
import { groupedStatements } from '../../db/grouped-writes.ts';
import { bulkJobs, documents, formats, formatSnapshots, usageCounters } from '../../db/schema.ts';
import type { TSnapshotRow } from '../formats/index.ts';
import { countingPeriod, generationLimitOf, usagePeriod, type TGenerationLimits } from '../workspaces/index.ts';
import { isoOrNull } from '../api-fields.ts';

export type TDocumentRow = typeof documents.$inferSelect;
export type TNewDocument = Omit<typeof documents.$inferInsert, 'ownerId'> & {
  createdAt: Date;
};

export class QuotaExceededError extends Error {}
/**
 * The document was made from a version of its format that is no longer the current one (saved
 * since, perhaps by another process) or of a format deleted since: nothing was stored or counted.
 */
export class FormatChangedError extends Error {}

/**
 * Whose view a query serves: an API key sees only the documents made in its own mode (a test key
 * its test documents, a live key everything else); the app, signed in, sees them all (undefined).
 */
export type TDocumentScope = TApiKeyMode | undefined;
export const scopeFilter = (scope: TDocumentScope) => (scope === undefined ? undefined : eq(documents.testMode, scope === 'test'));

/** `q` as an ILIKE pattern that matches it anywhere, its own `%`, `_` and `\\` taken literally. */
const containsPattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The start of the UTC day after `day` (yyyy-mm-dd): `to` includes its whole day. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000);

/**
 * The search and filters every documents list shares. The owner condition comes first in each
 * query, so another workspace's documents never match, whatever is searched.
 */
export function filterConditions(query: Partial<TDocumentFilters>): (SQL | undefined)[] {
  const q = query.q ? containsPattern(query.q) : undefined;
  return [
    q ? or(ilike(documents.name, q), ilike(documents.clientName, q), ilike(documents.formatName, q)) : undefined,
    query.formatId ? eq(documents.formatId, query.formatId) : undefined,
    query.from ? gte(documents.createdAt, new Date(`${query.from}T00:00:00Z`)) : undefined,
    query.to ? lt(documents.createdAt, dayAfter(query.to)) : undefined,
    query.createdBy ? eq(documents.createdBy, query.createdBy) : undefined,
  ];
}

/** Rows a raw statement returned, from either driver's result shape. */
const rowsOf = <T>(result: unknown): T[] => {
  const { rows } = result as { rows?: T[] };
  return Array.isArray(rows) ? rows : (result as T[]);
};

/** A document to store and count, made from its format's `formatVersion`, and the plans' limits its owner's is read against. */
type TCountedInsert = { limits: TGenerationLimits; row: TDocumentRow & { formatId: string } };
/** What became of one: stored and counted, refused by the owner's limit, or made from a version that is no longer current. */
type TCountedOutcome = 'stored' | 'refused' | 'stale';

const DOCUMENT_COLUMNS = sql`(id, owner_id, format_id, format_name, format_version, snapshot_id, name, client_name, data, status,
                              pdf_sha256, render_warnings, batch_id, batch_row, test_mode, expires_at, created_at, created_by)`;

const FORMAT_FOREIGN_KEY = 'documents_format_id_formats_id_fk';
/** The constraint a failed statement broke, from either driver's error (drizzle wraps it in `cause`). */
const constraintOf = (error: unknown): unknown =>
  (error as { constraint?: unknown } | undefined)?.constraint ?? (error as { cause?: { constraint?: unknown } } | undefined)?.cause?.constraint;

/**
 * Whether `version` is still the current version of the owner's format, as of the statement's
 * start: the processes' remembered versions are checked here. A save that finished before the
 * statement began is seen; one that commits while it runs was concurrent with the request.
 */
const isCurrentVersion = (ownerId: SQL | string, formatId: SQL | string, version: SQL | number) =>
  sql`exists (select 1 from ${formats} where ${formats.id} = ${formatId} and ${formats.ownerId} = ${ownerId} and ${formats.version} = ${version})`;

/**
 * Counts one generation and stores the document in one statement: the counter's upsert takes the
 * row lock and refuses past the limit, and the document is inserted only when it counted, so
 * parallel requests can never overshoot, and a failed insert leaves nothing counted. Nothing is
 * counted or stored unless the document's format version is still the current one.
 */
async function insertOneCounted(db: TDb, { limits, row }: TCountedInsert): Promise<TCountedOutcome> {
  const values = sql`${row.id}, ${row.ownerId}, ${row.formatId}, ${row.formatName}, ${row.formatVersion}::int, ${row.snapshotId},
           ${row.name}, ${row.clientName}, ${JSON.stringify(row.data)}::jsonb, ${row.status}, ${row.pdfSha256},
           ${JSON.stringify(row.renderWarnings)}::jsonb, ${row.batchId}, ${row.batchRow}::int, ${row.testMode},
           ${isoOrNull(row.expiresAt)}::timestamptz, ${row.createdAt.toISOString()}::timestamptz, ${row.createdBy}`;
  // A test key's document is free: it is stored without touching the counter.
  const counted = row.testMode
    ? sql`select 1 from current_format`
    : sql`
      insert into ${usageCounters} (owner_id, period, generations)
      select ${row.ownerId}, ${countingPeriod(row.ownerId, row.createdAt)}, 1 from quota, current_format where quota.allowed > 0
      on conflict (owner_id, period) do update set generations = ${usageCounters}.generations + 1
      where ${usageCounters}.generations < (select allowed from quota)
      returning 1`;
  let result: unknown;
  try {
    result = await db.execute(sql`
    with current_format as (select 1 where ${isCurrentVersion(row.ownerId, row.formatId, sql`${row.formatVersion}::int`)}),
    quota as (select ${row.testMode ? sql`1` : generationLimitOf(row.ownerId, limits)} as allowed),
    counted as (${counted}),
    stored as (
      insert into ${documents} ${DOCUMENT_COLUMNS}
      select ${values}
      where exists (select 1 from counted)
      returning 1
    )
    select exists (select 1 from stored) as stored, exists (select 1 from current_format) as current`);
  } catch (error) {
    // Deleted after the statement's snapshot found it current: the foreign key sees the deletion.
    if (constraintOf(error) === FORMAT_FOREIGN_KEY) return 'stale';
    throw error;
  }
  const [outcome] = rowsOf<{ stored: boolean; current: boolean }>(result);
  return outcome?.stored ? 'stored' : outcome?.current ? 'refused' : 'stale';
}

/**
 * Counts and stores several documents in one statement, with the same guarantees: each owner's
 * generations are counted under the counter's row lock by count_generations (migration 0022),
 * never past the limit, each in its own month's count, and only that many of the owner's
 * documents, in arrival order, are inserted; a document whose format version is no longer current
 * is neither counted nor stored. Answers what became of each.
 */
async function insertManyCounted(db: TDb, items: TCountedInsert[]): Promise<TCountedOutcome[]> {
  // One process's catalogue, read within seconds of each other: the newest stands for the group.
  const { limits } = items[items.length - 1]!;
  const input = items.map(({ row }, ord) => ({
    ord,
    period: usagePeriod(row.createdAt),
    ...row,
    expiresAt: isoOrNull(row.expiresAt),
    createdAt: row.createdAt.toISOString(),
  }));
  const result = await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as x(
        ord int, period text, "id" text, "ownerId" text, "formatId" text, "formatName" text, "formatVersion" int,
        "snapshotId" text, "name" text, "clientName" text, "data" jsonb, "status" text, "pdfSha256" text, "renderWarnings" jsonb,
        "batchId" text, "batchRow" int, "testMode" boolean, "expiresAt" timestamptz, "createdAt" timestamptz, "createdBy" text)
    ),
    checked as (
      select input.*, ${isCurrentVersion(sql`input."ownerId"`, sql`input."formatId"`, sql`input."formatVersion"`)} as current from input
    ),
    wanted as (
      select "ownerId", period, count(*)::int as wanted from checked where current and not "testMode" group by "ownerId", period
    ),
    -- Counter rows are locked in one order in every statement, so two processes' groups do not
    -- deadlock on them; a deadlock with other work fails the group with 40P01, and its documents
    -- are then stored one by one (groupedStatements).
    granted as materialized (
      select "ownerId", period, count_generations("ownerId", ${countingPeriod(sql`wanted."ownerId"`, sql`wanted.period`)}, wanted,
                               ${generationLimitOf(sql`wanted."ownerId"`, limits)}) as granted
      from wanted order by "ownerId", period
    ),
    ranked as (
      select checked.*, row_number() over (partition by "ownerId", period, "testMode" order by ord) as rank from checked where current
    ),
    stored as (
      insert into ${documents} ${DOCUMENT_COLUMNS}
      select "id", "ownerId", "formatId", "formatName", "formatVersion", "snapshotId", "name", "clientName", "data", "status",
             "pdfSha256", "renderWarnings", "batchId", "batchRow", "testMode", "expiresAt", "createdAt", "createdBy"
      from ranked left join granted using ("ownerId", period)
      where ranked."testMode" or ranked.rank <= granted.granted
      returning id
    )
    select id, 'stored' as outcome from stored
    union all select id, 'stale' from checked where not current`);
  const outcomes = new Map(rowsOf<{ id: string; outcome: TCountedOutcome }>(result).map((r) => [r.id, r.outcome]));
  return items.map(({ row }) => outcomes.get(row.id) ?? 'refused');
}

/** Every query filters by the owner: another user's document is indistinguishable from a missing one. */
export function createDocumentsRepository(db: TDb) {
  // Generations that arrive while a statement is running are stored together by the next. When
  // that statement fails (one document's format was deleted meanwhile, say), nothing of it was
  // counted or stored, and each document is tried alone, so only its own failure reaches it.
  const insertCounted = groupedStatements<TCountedInsert, TCountedOutcome>(
    (item) => insertOneCounted(db, item),
    (items) => insertManyCounted(db, items),
  );
  return {
    /**
     * Counts one generation and stores the document, refusing past the owner's limit
     * (QuotaExceededError). The limit and the count are read by the statement that counts, so an
     * earlier read that has since gone stale cannot let a generation through, and parallel
     * requests can never overshoot; a failed insert leaves nothing counted. The statement also
     * checks that `formatVersion` is still the format's current version (FormatChangedError), so
     * a version a process remembered cannot outlive a save another process made.
     */
    async createCounted(ownerId: string, limits: TGenerationLimits, doc: TNewDocument & { formatId: string; formatVersion: number }): Promise<TDocumentRow> {
      const row = {
        status: 'generated',
        renderWarnings: [],
        batchId: null,
        batchRow: null,
        testMode: false,
        createdBy: null,
        ...doc,
        expiresAt: doc.expiresAt ?? null,
        ownerId,
      } satisfies TDocumentRow;
      const outcome = await insertCounted({ limits, row });
      if (outcome === 'refused') throw new QuotaExceededError();
      if (outcome === 'stale') throw new FormatChangedError();
      return row;
    },

    async list(ownerId: string, page: TDocumentListQuery): Promise<TDocumentRow[]> {
      const kind = page.kind === 'single' ? isNull(documents.batchId) : page.kind === 'batch' ? isNotNull(documents.batchId) : undefined;
      const batch = page.batchId ? eq(documents.batchId, page.batchId) : undefined;
      return await db
        .select()
        .from(documents)
        .where(and(eq(documents.ownerId, ownerId), batch, kind, ...filterConditions(page)))
        // A batch reads in spreadsheet order; everything else newest first.
        .orderBy(...(page.batchId ? [asc(documents.batchRow)] : [desc(documents.createdAt), desc(documents.id)]))
        .limit(page.limit)
        .offset(page.offset);
    },

    /** Newest first, after `after` when given (keyset paging: stable while documents are added). */
    async page(
      ownerId: string,
      query: Partial<TDocumentFilters> & { limit: number; after?: TPageCursor; createdAfter?: Date; scope?: TDocumentScope },
    ): Promise<TDocumentRow[]> {
      return db
        .select()
        .from(documents)
        .where(
          and(
            eq(documents.ownerId, ownerId),
            ...filterConditions(query),
            query.createdAfter ? gt(documents.createdAt, query.createdAfter) : undefined,
            scopeFilter(query.scope),
            keysetAfter(documents.createdAt, documents.id, query.after),
          ),
        )
        .orderBy(...keysetOrder(documents.createdAt, documents.id))
        .limit(query.limit);
    },

    /** Deletes every document past its expiry (test-key documents), whoever owns it; answers their ids. */
    async deleteExpired(now: Date): Promise<string[]> {
      const deleted = await db
        .delete(documents)
        .where(and(isNotNull(documents.expiresAt), lt(documents.expiresAt, now)))
        .returning({ id: documents.id });
      return deleted.map((d) => d.id);
    },

    async get(ownerId: string, id: string, scope?: TDocumentScope): Promise<TDocumentRow | undefined> {
      const [row] = await db
        .select()
        .from(documents)
        .where(and(eq(documents.ownerId, ownerId), eq(documents.id, id), scopeFilter(scope)))
        .limit(1);
      return row;
    },

    /** Where the document stands in signing: generated, out for signature, signed, declined or expired. */
    async setStatus(ownerId: string, id: string, status: TDocumentStatus): Promise<void> {
      await db
        .update(documents)
        .set({ status })
        .where(and(eq(documents.ownerId, ownerId), eq(documents.id, id)));
    },

    async getWithSnapshot(ownerId: string, id: string, scope?: TDocumentScope): Promise<{ document: TDocumentRow; snapshot: TSnapshotRow } | undefined> {
      const [row] = await db
        .select({ document: documents, snapshot: formatSnapshots })
        .from(documents)
        .innerJoin(formatSnapshots, eq(formatSnapshots.id, documents.snapshotId))
        .where(and(eq(documents.ownerId, ownerId), eq(documents.id, id), scopeFilter(scope)))
        .limit(1);
      return row as { document: TDocumentRow; snapshot: TSnapshotRow } | undefined;
    },

    /**
     * Deletes a document unless the batch that made it is still generating: a batch row is done
     * while its document exists (see the bulk repository), so deleting one mid-job would have it
     * made again. The job row is locked so the check and the delete see the same status.
     */
    async delete(ownerId: string, id: string, scope?: TDocumentScope): Promise<'deleted' | 'not_found' | 'batch_running'> {
      return db.transaction(async (tx) => {
        const [doc] = await tx
          .select({ batchId: documents.batchId })
          .from(documents)
          .where(and(eq(documents.ownerId, ownerId), eq(documents.id, id), scopeFilter(scope)))
          .limit(1);
        if (!doc) return 'not_found';
        if (doc.batchId) {
          const [job] = await tx
            .select({ status: bulkJobs.status })
            .from(bulkJobs)
            .where(and(eq(bulkJobs.ownerId, ownerId), eq(bulkJobs.id, doc.batchId)))
            .for('update');
          if (job && (job.status === 'queued' || job.status === 'running')) return 'batch_running';
        }
        const deleted = await tx
          .delete(documents)
          .where(and(eq(documents.ownerId, ownerId), eq(documents.id, id)))
          .returning({ id: documents.id });
        return deleted.length > 0 ? 'deleted' : 'not_found';
      });
    },
  };
}
export type TDocumentsRepository = ReturnType<typeof createDocumentsRepository>;
