import { randomUUID } from 'node:crypto';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.ts';
import { groupedStatements } from '../../db/grouped-writes.ts';
import type { TApiKeyMode } from '../../../contract/api-keys.ts';
import { apiKeys, apiRateWindows, apiRequests, apiUsageDaily, asyncDocuments, idempotencyKeys, workspaces } from '../../db/schema.ts';
import { keyJoins, keyMakerAway, keySuspended } from '../api-keys/index.ts';

export type TIdempotencyRow = typeof idempotencyKeys.$inferSelect;
export type TAsyncDocumentRow = typeof asyncDocuments.$inferSelect;
export type TApiRequest = Omit<typeof apiRequests.$inferInsert, 'id' | 'createdAt'>;

/** One day of requests: from the daily roll-up, or counted from the request log for days not yet rolled up. */
export type TUsageDay = {
  keyId: string;
  day: string;
  ok: number;
  clientErrors: number;
  serverErrors: number;
  documents: number;
  p50Ms: number;
  p95Ms: number;
};

const rowsOf = <T>(result: unknown): T[] => {
  const { rows } = result as { rows?: T[] };
  return Array.isArray(rows) ? rows : (result as T[]);
};

/** A key at the door: who it belongs to, their plan, and this request's number in the key's rate window. */
export type TKeyAdmission = {
  keyId: string;
  ownerId: string;
  createdBy: string | null;
  mode: 'live' | 'test';
  lastUsedAt: Date | null;
  plan: string;
  used: number;
  /** The workspace's person, or for a team the key's maker, is suspended. */
  suspended: boolean;
  /** A team's key whose maker is no longer one of its admins (removed, left, demoted or deleted). */
  makerAway: boolean;
};
type TKeyRow = Omit<TKeyAdmission, 'lastUsedAt'> & { lastUsedAt: Date | string | null };
type TKeyAsk = { keyHash: string; windowStart: Date };

const admission = (row: TKeyRow, used: number): TKeyAdmission => ({
  keyId: row.keyId,
  ownerId: row.ownerId,
  createdBy: row.createdBy,
  mode: row.mode,
  plan: row.plan,
  suspended: row.suspended,
  makerAway: row.makerAway,
  lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt),
  used,
});

/** The key with this hash, its owner's plan, and the request counted in its rate window: one statement. */
async function admitOne(db: TDb, { keyHash, windowStart }: TKeyAsk): Promise<TKeyAdmission | undefined> {
  const [row] = rowsOf<TKeyRow>(
    await db.execute(sql`
      with k as (
        select ${apiKeys.id} as id, ${apiKeys.ownerId} as owner_id, ${apiKeys.createdBy} as created_by, ${apiKeys.mode} as mode, ${apiKeys.lastUsedAt} as last_used_at,
               ${workspaces.subscriptionPlan} as plan, ${keySuspended} as suspended, ${keyMakerAway} as maker_away
        from ${apiKeys} ${keyJoins}
        where ${apiKeys.keyHash} = ${keyHash} and ${apiKeys.revokedAt} is null
      ), w as (
        insert into ${apiRateWindows} (key_id, window_start, requests)
        select id, ${windowStart.toISOString()}::timestamptz, 1 from k
        on conflict (key_id, window_start) do update set requests = ${apiRateWindows}.requests + 1
        returning requests
      )
      select k.id as "keyId", k.owner_id as "ownerId", k.created_by as "createdBy", k.mode, k.last_used_at as "lastUsedAt", k.plan, w.requests as "used", k.suspended, k.maker_away as "makerAway"
      from k, w`),
  );
  return row ? admission(row, Number(row.used)) : undefined;
}

/**
 * The same for several requests in one statement: each key's window is counted up by the number
 * of its requests at once, and each request gets its own number in arrival order, as if each had
 * counted alone. Rate windows are locked in one order, so two processes' groups do not deadlock
 * on them; a deadlock with other work (an account deleted meanwhile) fails the group with 40P01,
 * and its requests are then checked one by one (groupedStatements).
 */
async function admitMany(db: TDb, asks: TKeyAsk[]): Promise<(TKeyAdmission | undefined)[]> {
  const input = asks.map((ask) => ({ keyHash: ask.keyHash, windowStart: ask.windowStart.toISOString() }));
  const rows = rowsOf<TKeyRow & { keyHash: string; windowStart: string; before: number }>(
    await db.execute(sql`
      with input as (
        select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as x("keyHash" text, "windowStart" text)
      ), wanted as (
        select "keyHash", "windowStart", count(*)::int as n from input group by "keyHash", "windowStart"
      ), k as (
        select ${apiKeys.id} as id, ${apiKeys.ownerId} as owner_id, ${apiKeys.createdBy} as created_by, ${apiKeys.mode} as mode, ${apiKeys.lastUsedAt} as last_used_at,
               ${workspaces.subscriptionPlan} as plan, ${keySuspended} as suspended, ${keyMakerAway} as maker_away, wanted."keyHash", wanted."windowStart", wanted.n
        from wanted join ${apiKeys} on ${apiKeys.keyHash} = wanted."keyHash" ${keyJoins}
        where ${apiKeys.revokedAt} is null
      ), w as (
        insert into ${apiRateWindows} (key_id, window_start, requests)
        select id, "windowStart"::timestamptz, n from k order by id, "windowStart"
        on conflict (key_id, window_start) do update set requests = ${apiRateWindows}.requests + excluded.requests
        returning key_id, window_start, requests
      )
      select k.id as "keyId", k.owner_id as "ownerId", k.created_by as "createdBy", k.mode, k.last_used_at as "lastUsedAt", k.plan, k.suspended, k.maker_away as "makerAway",
             k."keyHash", k."windowStart", w.requests - k.n as "before"
      from k join w on w.key_id = k.id and w.window_start = k."windowStart"::timestamptz`),
  );
  const counted = new Map(rows.map((row) => [`${row.keyHash} ${row.windowStart}`, { row, next: Number(row.before) }]));
  return input.map((ask) => {
    const found = counted.get(`${ask.keyHash} ${ask.windowStart}`);
    if (!found) return undefined;
    found.next++;
    return admission(found.row, found.next);
  });
}

/** The door: a key's owner and plan, and its rate window counted. */
function keyQueries(db: TDb) {
  // Requests that arrive while a key check runs are checked and counted together by the next.
  const admitGrouped = groupedStatements<TKeyAsk, TKeyAdmission | undefined>(
    (ask) => admitOne(db, ask),
    (asks) => admitMany(db, asks),
  );
  return {
    /**
     * Finds the active key with this hash, its owner's plan, and counts the request in the key's
     * rate window: one statement, shared with the requests that arrived meanwhile. Undefined for
     * unknown or revoked keys (nothing is counted then).
     */
    admit: (keyHash: string, windowStart: Date): Promise<TKeyAdmission | undefined> => admitGrouped({ keyHash, windowStart }),
  };
}

/** The request log, its daily roll-up, and the sweep that keeps them bounded. */
function usageQueries(db: TDb) {
  return {
    /** Several logged requests in one insert. */
    async recordRequests(requests: (TApiRequest & { createdAt: Date })[]): Promise<void> {
      if (requests.length === 0) return;
      await db.insert(apiRequests).values(requests.map((r) => ({ id: randomUUID(), ...r })));
    },

    /** Days from `fromDay` (YYYY-MM-DD) on, per key: rolled-up days as stored, the others counted now. */
    async usageDays(ownerId: string, fromDay: string): Promise<TUsageDay[]> {
      const rolled = await db
        .select()
        .from(apiUsageDaily)
        .where(and(eq(apiUsageDaily.ownerId, ownerId), gte(apiUsageDaily.day, fromDay)));
      const rolledDays = new Set(rolled.map((r) => `${r.keyId}|${r.day}`));
      const live = rowsOf<TUsageDay>(
        await db.execute(sql`
          select key_id as "keyId", to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as "day",
                 count(*) filter (where status < 400)::int as "ok",
                 count(*) filter (where status >= 400 and status < 500)::int as "clientErrors",
                 count(*) filter (where status >= 500)::int as "serverErrors",
                 coalesce(sum(documents), 0)::int as "documents",
                 round(percentile_cont(0.5) within group (order by latency_ms))::int as "p50Ms",
                 round(percentile_cont(0.95) within group (order by latency_ms))::int as "p95Ms"
          from ${apiRequests}
          where owner_id = ${ownerId} and created_at >= ${fromDay}::date
          group by 1, 2`),
      );
      return [...rolled.map(({ ownerId: _owner, ...day }) => day), ...live.filter((d) => !rolledDays.has(`${d.keyId}|${d.day}`))];
    },

    /** Latency percentiles over the request log since `from`, optionally for one key. */
    async latency(ownerId: string, from: Date, keyId?: string): Promise<{ p50Ms: number | null; p95Ms: number | null }> {
      const [row] = rowsOf<{ p50Ms: number | null; p95Ms: number | null }>(
        await db.execute(sql`
          select round(percentile_cont(0.5) within group (order by latency_ms))::int as "p50Ms",
                 round(percentile_cont(0.95) within group (order by latency_ms))::int as "p95Ms"
          from ${apiRequests}
          where owner_id = ${ownerId} and created_at >= ${from.toISOString()}::timestamptz
            ${keyId ? sql`and key_id = ${keyId}` : sql``}`),
      );
      return row ?? { p50Ms: null, p95Ms: null };
    },

    /**
     * Keeps storage bounded: rolls every finished day of the request log up into one row per key,
     * then drops log rows older than `keepRequestsSince`, and spent rate windows and idempotency keys.
     */
    async sweep(now: Date, keepRequestsSince: Date, idempotencySince: Date): Promise<void> {
      const today = now.toISOString().slice(0, 10);
      await db.execute(sql`
        insert into ${apiUsageDaily} (owner_id, key_id, day, ok, client_errors, server_errors, documents, p50_ms, p95_ms)
        select owner_id, key_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD'),
               count(*) filter (where status < 400), count(*) filter (where status >= 400 and status < 500),
               count(*) filter (where status >= 500), coalesce(sum(documents), 0),
               round(percentile_cont(0.5) within group (order by latency_ms)),
               round(percentile_cont(0.95) within group (order by latency_ms))
        from ${apiRequests}
        where created_at < ${today}::date
        group by 1, 2, 3
        on conflict (key_id, day) do nothing`);
      await db.delete(apiRequests).where(lt(apiRequests.createdAt, keepRequestsSince));
      await db.delete(apiRateWindows).where(lt(apiRateWindows.windowStart, new Date(now.getTime() - 5 * 60_000)));
      await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, idempotencySince));
    },
  };
}

/** Idempotency keys: claimed, answered, released. */
function idempotencyQueries(db: TDb) {
  return {
    /** Takes the key for this request; the row already there when another request took it first. */
    async claimIdempotencyKey(ownerId: string, key: string, requestHash: string, since: Date): Promise<TIdempotencyRow | 'claimed' | 'gone'> {
      // A key older than the window is free again.
      await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.ownerId, ownerId), eq(idempotencyKeys.key, key), lt(idempotencyKeys.createdAt, since)));
      const claimed = await db.insert(idempotencyKeys).values({ ownerId, key, requestHash }).onConflictDoNothing().returning({ key: idempotencyKeys.key });
      if (claimed.length > 0) return 'claimed';
      const [row] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.ownerId, ownerId), eq(idempotencyKeys.key, key)));
      // Released between the insert and the read: the caller tries again.
      return row ?? 'gone';
    },

    async idempotencyKey(ownerId: string, key: string): Promise<TIdempotencyRow | undefined> {
      const [row] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.ownerId, ownerId), eq(idempotencyKeys.key, key)));
      return row;
    },

    async completeIdempotencyKey(ownerId: string, key: string, answer: { status: number; body: unknown; location: string | null }) {
      await db
        .update(idempotencyKeys)
        .set({ status: answer.status, body: answer.body, location: answer.location })
        .where(and(eq(idempotencyKeys.ownerId, ownerId), eq(idempotencyKeys.key, key)));
    },

    async releaseIdempotencyKey(ownerId: string, key: string) {
      await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.ownerId, ownerId), eq(idempotencyKeys.key, key)));
    },
  };
}

/** Documents asked for asynchronously, while pending or once failed. */
function asyncDocumentQueries(db: TDb) {
  return {
    async insertAsyncDocument(ownerId: string, id: string, mode: TApiKeyMode) {
      await db.insert(asyncDocuments).values({ id, ownerId, status: 'pending', testMode: mode === 'test' });
    },

    /** A pending or failed document, seen only by keys of the mode that asked for it. */
    async asyncDocument(ownerId: string, id: string, mode: TApiKeyMode): Promise<TAsyncDocumentRow | undefined> {
      const [row] = await db
        .select()
        .from(asyncDocuments)
        .where(and(eq(asyncDocuments.ownerId, ownerId), eq(asyncDocuments.id, id), eq(asyncDocuments.testMode, mode === 'test')));
      return row;
    },

    async finishAsyncDocument(ownerId: string, id: string, error: { code: string; message: string } | null) {
      const where = and(eq(asyncDocuments.ownerId, ownerId), eq(asyncDocuments.id, id));
      if (error) await db.update(asyncDocuments).set({ status: 'failed', error }).where(where);
      else await db.delete(asyncDocuments).where(where);
    },

    async sweepAsyncDocuments(before: Date) {
      await db.delete(asyncDocuments).where(lt(asyncDocuments.createdAt, before));
    },
  };
}

/** Every query on a user's rows filters by the owner; rate windows belong to a key the caller has already proven. */
export function createPublicApiRepository(db: TDb) {
  return { ...keyQueries(db), ...usageQueries(db), ...idempotencyQueries(db), ...asyncDocumentQueries(db) };
}
export type TPublicApiRepository = ReturnType<typeof createPublicApiRepository>;
