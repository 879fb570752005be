/**
 * A table as a queue: each row waiting to be sent is due at its `next_attempt_at`. Senders lease
 * due rows with `for update skip locked` by moving `next_attempt_at` past the lease, so several
 * processes share the work, and a row whose sender died is due again once its lease runs out.
 * Webhook deliveries and email deliveries both work this way: their rows are also what the user
 * reads (status, attempts, the last answer), so a second store in pg-boss would only drift from it.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { TDb } from '../db/client.ts';

const rowsOf = <T>(result: unknown): T[] => {
  const { rows } = result as { rows?: T[] };
  return Array.isArray(rows) ? rows : (result as T[]);
};

/**
 * Leases up to `limit` rows of `table` whose status is `waiting` and that are due by `now`: their
 * `next_attempt_at` becomes `leaseUntil` (and `attempts` goes up when `countAttempt`). Answers
 * their ids, oldest due first.
 */
export async function leaseDueRows(
  db: TDb,
  table: PgTable,
  options: { waiting: string; now: Date; leaseUntil: Date; limit: number; countAttempt: boolean },
): Promise<string[]> {
  const attempts: SQL = options.countAttempt ? sql`, attempts = attempts + 1` : sql``;
  const taken = rowsOf<{ id: string }>(
    await db.execute(sql`
      update ${table} set next_attempt_at = ${options.leaseUntil.toISOString()}::timestamptz${attempts}
      where id in (
        select id from ${table}
        where status = ${options.waiting} and next_attempt_at <= ${options.now.toISOString()}::timestamptz
        order by next_attempt_at
        limit ${options.limit}
        for update skip locked
      )
      returning id`),
  );
  return taken.map((row) => row.id);
}

export type TDueRowsWorker = {
  /** Looks for due rows now (new rows are sent at once instead of at the next poll). */
  kick(): void;
  /** Looks again after `ms`, when a retry falls due before the next poll would. */
  kickIn(ms: number): void;
  start(): void;
  /** Stops looking and aborts the signal attempts were given; waits for the round in hand. */
  stop(): Promise<void>;
};

/**
 * Works through due rows: `take` leases a batch, `attempt` handles each row (the signal aborts
 * when the worker stops: an attempt may stop at once, or decline to start). Rounds never overlap
 * in one process; a kick during a round runs another right after it.
 */
export function createDueRowsWorker<TRow extends { id: string }>(options: {
  what: string;
  take(now: Date, leaseUntil: Date, limit: number): Promise<TRow[]>;
  attempt(row: TRow, signal: AbortSignal): Promise<void>;
  leaseMs: number;
  pollMs: number;
  batch: number;
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
}): TDueRowsWorker {
  let timer: NodeJS.Timeout | undefined;
  let stopping = new AbortController();
  let running: Promise<void> | undefined;
  let again = false;

  async function drain(): Promise<void> {
    for (;;) {
      const { signal } = stopping;
      if (signal.aborted) return;
      const now = new Date();
      const due = await options.take(now, new Date(now.getTime() + options.leaseMs), options.batch);
      if (due.length === 0) return;
      await Promise.all(
        due.map((row) =>
          options.attempt(row, signal).catch((error: unknown) => options.log.error({ err: error, id: row.id }, `${options.what} attempt failed`)),
        ),
      );
    }
  }

  function kick(): void {
    if (stopping.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: unknown) => options.log.warn({ err: error }, `could not send ${options.what}s`))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  return {
    kick,
    kickIn(ms) {
      if (ms < options.pollMs) setTimeout(kick, Math.max(0, ms)).unref();
    },
    start() {
      if (stopping.signal.aborted) stopping = new AbortController();
      timer ??= setInterval(kick, options.pollMs);
      timer.unref();
      kick();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      stopping.abort();
      await running;
    },
  };
}
