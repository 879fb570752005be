import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TFilledRow } from './merge-templates.ts';
import type { TDb } from '../../db/client.ts';
import { bulkJobs, bulkRows, documents, emailDeliveries, formatSnapshots, mailMerges, systemMailDays, workspaces } from '../../db/schema.ts';
import { leaseDueRows } from '../../jobs/due-rows.ts';
import { scopeFilter, type TDocumentScope } from '../documents/index.ts';

export type TDeliveryRow = typeof emailDeliveries.$inferSelect;
export type TNewDelivery = typeof emailDeliveries.$inferInsert;
export type TMergeRow = typeof mailMerges.$inferSelect;

const rowsOf = <T>(result: unknown): T[] => {
  const { rows } = result as { rows?: T[] };
  return Array.isArray(rows) ? rows : (result as T[]);
};

/** Deliveries INSERTed per statement when a mail merge queues its rows. */
const MERGE_INSERT_BATCH = 500;

/** One owner's deliveries: made, read and counted through their owner. */
function ownerQueries(db: TDb) {
  const mine = (ownerId: string, id: string) => and(eq(emailDeliveries.ownerId, ownerId), eq(emailDeliveries.id, id));
  return {
    async insert(row: TNewDelivery): Promise<TDeliveryRow> {
      const [created] = await db.insert(emailDeliveries).values(row).returning();
      return created!;
    },

    /** One delivery; with a scope (an API key's mode), only one of a document made in that mode. */
    async get(ownerId: string, id: string, scope?: TDocumentScope): Promise<TDeliveryRow | undefined> {
      if (scope === undefined) {
        const [row] = await db.select().from(emailDeliveries).where(mine(ownerId, id));
        return row;
      }
      const [found] = await db
        .select({ delivery: emailDeliveries })
        .from(emailDeliveries)
        .innerJoin(documents, and(eq(documents.id, emailDeliveries.documentId), eq(documents.ownerId, ownerId)))
        .where(and(mine(ownerId, id), scopeFilter(scope)));
      return found?.delivery;
    },

    async ofDocument(ownerId: string, documentId: string, limit: number): Promise<TDeliveryRow[]> {
      return db
        .select()
        .from(emailDeliveries)
        .where(and(eq(emailDeliveries.ownerId, ownerId), eq(emailDeliveries.documentId, documentId)))
        .orderBy(desc(emailDeliveries.createdAt), desc(emailDeliveries.id))
        .limit(limit);
    },

    /** The newest emails of an owner, with their document's name (mail merges' rows left out). */
    async recent(ownerId: string, limit: number): Promise<(TDeliveryRow & { documentName: string })[]> {
      const rows = await db
        .select({ delivery: emailDeliveries, documentName: documents.name })
        .from(emailDeliveries)
        .innerJoin(documents, eq(documents.id, emailDeliveries.documentId))
        .where(and(eq(emailDeliveries.ownerId, ownerId), isNull(emailDeliveries.mergeId)))
        .orderBy(desc(emailDeliveries.createdAt), desc(emailDeliveries.id))
        .limit(limit);
      return rows.map((r) => ({ ...r.delivery, documentName: r.documentName }));
    },

    /**
     * Recipients an owner has taken of the send rate since `since`: sent or being sent in that
     * time, plus what single emails still wait in the queue (they will go out within the hour).
     */
    async recipientsSince(ownerId: string, since: Date): Promise<number> {
      const [row] = rowsOf<{ n: number }>(
        await db.execute(sql`
          select coalesce(sum(recipient_count), 0)::int as n from ${emailDeliveries}
          where owner_id = ${ownerId}
            and ((status in ('sent', 'sending') and attempted_at > ${since.toISOString()}::timestamptz)
              or (status = 'queued' and merge_id is null))`),
      );
      return row?.n ?? 0;
    },
  };
}

/** The sender's queue: due rows of everyone, each attempt begun under its owner's row lock. */
function sendingQueries(db: TDb) {
  return {
    async takeDue(now: Date, leaseUntil: Date, limit: number): Promise<TDeliveryRow[]> {
      const ids = await leaseDueRows(db, emailDeliveries, { waiting: 'queued', now, leaseUntil, limit, countAttempt: false });
      if (ids.length === 0) return [];
      return db.select().from(emailDeliveries).where(inArray(emailDeliveries.id, ids)).orderBy(asc(emailDeliveries.createdAt));
    },

    /** Gives a leased row back at once (the sender is stopping before it began). */
    async release(id: string, at: Date): Promise<void> {
      await db
        .update(emailDeliveries)
        .set({ nextAttemptAt: at })
        .where(and(eq(emailDeliveries.id, id), eq(emailDeliveries.status, 'queued')));
    },

    /**
     * Starts an attempt under the owner's row lock, so processes sending for one owner take turns
     * at the send rate: when `recipients` more would pass `limit` since `windowStart`, the row waits
     * until the oldest counted message leaves the window. Answers 'started', the time it waits
     * until, or 'gone' when the row is no longer queued (deleted, or taken by another sender).
     */
    async begin(
      id: string,
      ownerId: string,
      rate: { limit: number; windowStart: Date; windowMs: number },
      start: { at: Date; transport: 'own' | 'system' },
      /** The installation's daily cap, for mail through its server: the day's count is taken here too. */
      daily?: { day: string; limit: number; nextDay: Date },
    ): Promise<'started' | 'gone' | Date> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from ${workspaces} where ${workspaces.id} = ${ownerId} for update`);
        const [row] = await tx
          .select({ status: emailDeliveries.status, recipientCount: emailDeliveries.recipientCount })
          .from(emailDeliveries)
          .where(eq(emailDeliveries.id, id));
        if (!row || row.status !== 'queued') return 'gone';
        const [used] = rowsOf<{ n: number; oldest: string | null }>(
          await tx.execute(sql`
            select coalesce(sum(recipient_count), 0)::int as n, min(attempted_at) as oldest from ${emailDeliveries}
            where owner_id = ${ownerId} and status in ('sent', 'sending') and attempted_at > ${rate.windowStart.toISOString()}::timestamptz`),
        );
        const taken = used?.n ?? 0;
        // A message larger than the whole rate still goes once the hour is clear, or it never would.
        if (taken > 0 && taken + row.recipientCount > rate.limit) {
          const oldest = used?.oldest ? new Date(used.oldest) : start.at;
          const waitUntil = new Date(Math.max(oldest.getTime() + rate.windowMs, start.at.getTime() + 1_000));
          // Everything else of this owner's that would come due before then waits too, so a long
          // mail merge is not taken and put back row by row each time one place frees up.
          await tx
            .update(emailDeliveries)
            .set({ nextAttemptAt: waitUntil })
            .where(
              and(
                eq(emailDeliveries.ownerId, ownerId),
                eq(emailDeliveries.status, 'queued'),
                sql`(${emailDeliveries.id} = ${id} or ${emailDeliveries.nextAttemptAt} < ${waitUntil.toISOString()}::timestamptz)`,
              ),
            );
          return waitUntil;
        }
        if (daily) {
          // Counted in the same transaction that starts the attempt, on one row per day, so
          // processes sending for anyone cannot pass the cap together.
          const counted = rowsOf(
            await tx.execute(sql`
              insert into ${systemMailDays} (day, recipients)
              select ${daily.day}, ${row.recipientCount}::int where ${row.recipientCount}::int <= ${daily.limit}::int
              on conflict (day) do update set recipients = ${systemMailDays}.recipients + excluded.recipients
              where ${systemMailDays}.recipients + excluded.recipients <= ${daily.limit}::int
              returning 1`),
          );
          if (counted.length === 0) {
            await tx.update(emailDeliveries).set({ nextAttemptAt: daily.nextDay }).where(eq(emailDeliveries.id, id));
            return daily.nextDay;
          }
        }
        await tx
          .update(emailDeliveries)
          .set({ status: 'sending', attempts: sql`${emailDeliveries.attempts} + 1`, attemptedAt: start.at, transport: start.transport, nextAttemptAt: null })
          .where(eq(emailDeliveries.id, id));
        return 'started';
      });
    },

    async finish(
      id: string,
      outcome:
        | { status: 'sent'; smtpResponse: string; error: string | null; at: Date }
        | { status: 'queued'; smtpResponse: string | null; error: string; nextAttemptAt: Date }
        | { status: 'failed'; smtpResponse: string | null; error: string },
    ): Promise<void> {
      await db
        .update(emailDeliveries)
        .set({
          status: outcome.status,
          smtpResponse: outcome.smtpResponse,
          error: outcome.error,
          nextAttemptAt: outcome.status === 'queued' ? outcome.nextAttemptAt : null,
          ...(outcome.status === 'sent' ? { sentAt: outcome.at } : {}),
        })
        .where(eq(emailDeliveries.id, id));
    },

    /** What an attempt actually sends, when it is not what was queued (the standard words). */
    async setWords(id: string, subject: string, message: string): Promise<void> {
      await db.update(emailDeliveries).set({ subject, message }).where(eq(emailDeliveries.id, id));
    },

    async setAttachment(id: string, attachment: 'pdf' | 'link', shareLinkId: string | null): Promise<void> {
      await db.update(emailDeliveries).set({ attachment, shareLinkId }).where(eq(emailDeliveries.id, id));
    },

    /**
     * Attempts that began before `before` and never ended: their sender died mid-transaction, so
     * whether the message arrived is unknown. They fail, never to be sent twice.
     */
    async failInDoubt(before: Date, error: string): Promise<number> {
      const failed = await db
        .update(emailDeliveries)
        .set({ status: 'failed', error })
        .where(and(eq(emailDeliveries.status, 'sending'), sql`${emailDeliveries.attemptedAt} < ${before.toISOString()}::timestamptz`))
        .returning({ id: emailDeliveries.id });
      return failed.length;
    },
  };
}

/** Mail merges and the deliveries they queued. */
function mergeQueries(db: TDb) {
  return {
    async merge(ownerId: string, jobId: string): Promise<TMergeRow | undefined> {
      const [row] = await db
        .select()
        .from(mailMerges)
        .where(and(eq(mailMerges.ownerId, ownerId), eq(mailMerges.jobId, jobId)));
      return row;
    },

    /** The batch's merge: the one given, or the one a first click made already. */
    async createMerge(row: typeof mailMerges.$inferInsert): Promise<{ merge: TMergeRow; created: boolean }> {
      const [created] = await db.insert(mailMerges).values(row).onConflictDoNothing({ target: mailMerges.jobId }).returning();
      if (created) return { merge: created, created: true };
      const existing = await this.merge(row.ownerId, row.jobId);
      if (!existing) throw new Error(`mail merge of job ${row.jobId} vanished`);
      return { merge: existing, created: false };
    },

    async setMergeTotal(mergeId: string, total: number): Promise<void> {
      await db.update(mailMerges).set({ total }).where(eq(mailMerges.id, mergeId));
    },

    /** Queues a merge's rows; a row already queued (a second click, a restart) is left as it is. */
    async insertMergeRows(rows: TNewDelivery[]): Promise<void> {
      for (let i = 0; i < rows.length; i += MERGE_INSERT_BATCH) {
        await db
          .insert(emailDeliveries)
          .values(rows.slice(i, i + MERGE_INSERT_BATCH))
          .onConflictDoNothing({ target: [emailDeliveries.mergeId, emailDeliveries.batchRow] });
      }
    },

    async mergeCounts(mergeId: string): Promise<{ queued: number; sending: number; sent: number; failed: number; nextSendAt: Date | null }> {
      const rows = await db
        .select({ status: emailDeliveries.status, n: count(), next: sql<string | null>`min(${emailDeliveries.nextAttemptAt})` })
        .from(emailDeliveries)
        .where(eq(emailDeliveries.mergeId, mergeId))
        .groupBy(emailDeliveries.status);
      const of = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
      const next = rows.find((r) => r.status === 'queued')?.next;
      return { queued: of('queued'), sending: of('sending'), sent: of('sent'), failed: of('failed'), nextSendAt: next ? new Date(next) : null };
    },

    async mergeRows(
      ownerId: string,
      mergeId: string,
      page: { limit: number; offset: number; status?: 'failed' | 'sent' | 'queued' },
    ): Promise<{ rows: TDeliveryRow[]; total: number }> {
      const where = and(
        eq(emailDeliveries.ownerId, ownerId),
        eq(emailDeliveries.mergeId, mergeId),
        page.status === 'queued' ? inArray(emailDeliveries.status, ['queued', 'sending']) : page.status ? eq(emailDeliveries.status, page.status) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db.select().from(emailDeliveries).where(where).orderBy(asc(emailDeliveries.batchRow)).limit(page.limit).offset(page.offset),
        db.select({ n: count() }).from(emailDeliveries).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
  };
}

/** The finished batch a mail merge sends from. */
function batchQueries(db: TDb) {
  return {
    /**
     * A finished batch's documents in row order, after `afterRow`, with the row's cells in
     * columns that fill no placeholder: what a merge addresses and fills its templates from.
     */
    async batchRows(ownerId: string, jobId: string, afterRow: number, limit: number): Promise<TFilledRow[]> {
      const rows = await db
        .select({ documentId: documents.id, name: documents.name, row: documents.batchRow, data: documents.data, extra: bulkRows.extra })
        .from(documents)
        .leftJoin(bulkRows, and(eq(bulkRows.jobId, documents.batchId), eq(bulkRows.row, documents.batchRow)))
        .where(and(eq(documents.ownerId, ownerId), eq(documents.batchId, jobId), sql`${documents.batchRow} > ${afterRow}`))
        .orderBy(asc(documents.batchRow))
        .limit(limit);
      return rows.map((r) => ({ documentId: r.documentId, name: r.name, row: r.row ?? 0, data: r.data as Record<string, unknown>, extra: r.extra ?? {} }));
    },

    /** The batch as a merge needs it: its columns and mapping, its status, the placeholders it filled. */
    async job(ownerId: string, jobId: string) {
      const [row] = await db
        .select({
          id: bulkJobs.id,
          status: bulkJobs.status,
          columns: bulkJobs.columns,
          mapping: bulkJobs.mapping,
          placeholders: formatSnapshots.placeholders,
        })
        .from(bulkJobs)
        .leftJoin(formatSnapshots, and(eq(formatSnapshots.id, bulkJobs.snapshotId), eq(formatSnapshots.ownerId, ownerId)))
        .where(and(eq(bulkJobs.ownerId, ownerId), eq(bulkJobs.id, jobId)));
      return row;
    },

    async batchDocumentCount(ownerId: string, jobId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(documents)
        .where(and(eq(documents.ownerId, ownerId), eq(documents.batchId, jobId)));
      return row?.n ?? 0;
    },
  };
}

/**
 * An owner's deliveries are read only through their owner; the sender's queue reads due rows of
 * everyone, and the send rate counts what one owner sent in the last hour under their row's lock.
 */
export function createDeliveriesRepository(db: TDb) {
  return { ...ownerQueries(db), ...sendingQueries(db), ...mergeQueries(db), ...batchQueries(db) };
}
export type TDeliveriesRepository = ReturnType<typeof createDeliveriesRepository>;
