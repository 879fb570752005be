/**
 * The job queue: pg-boss on whichever database the server runs on. On PostgreSQL several worker
 * processes (`npm run worker`, on any machine) share the queue. On the embedded database the same
 * code runs in the one server process: pg-boss talks to PGlite through the adapter below.
 */
import PgBoss from 'pg-boss';
import type { TDatabase } from '../db/client.ts';

export type TQueueLog = { error: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };

export const QUEUE_SCHEMA = 'pgboss';

export type TJobQueue = {
  boss: PgBoss;
  /** SQL on the queue's own database, for what pg-boss has no call for. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Runs `work` while no other process on this database runs work under the same `lock`. */
  exclusively<T>(lock: string, work: () => Promise<T>): Promise<T>;
};

function bossDb(database: TDatabase): PgBoss.Db {
  return {
    executeSql: (text, values) => database.executeSql(text, values),
  };
}

export function createJobQueue(database: TDatabase, log: TQueueLog): TJobQueue {
  const boss = new PgBoss({
    db: bossDb(database),
    schema: QUEUE_SCHEMA,
    // Jobs here are short chunks; a chunk whose worker died is retried after this long.
    expireInSeconds: 120,
    retryLimit: 5,
    retryDelay: 2,
    // Cron scheduling is unused; maintenance (expiring and archiving jobs) stays on.
    schedule: false,
    supervise: true,
    migrate: true,
  });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  let started = false;
  return {
    boss,
    executeSql: (text, values) => database.executeSql(text, values),
    async start() {
      if (started) return;
      await boss.start();
      started = true;
    },
    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, close: false, wait: true, timeout: 10_000 });
    },
    async exclusively(lock, work) {
      // The embedded database has one process, and it never runs the same work twice at once.
      if (!database.pool) return work();
      // A session lock on a connection of its own, held while `work` queries on others.
      const client = await database.pool.connect();
      try {
        await client.query('select pg_advisory_lock(hashtext($1))', [lock]);
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
      try {
        return await work();
      } finally {
        try {
          await client.query('select pg_advisory_unlock(hashtext($1))', [lock]);
          client.release();
        } catch (error) {
          // Closed instead of pooled: the lock ends with the connection.
          client.release(error as Error);
        }
      }
    },
  };
}

const DEADLOCK_DETECTED = '40P01';

/**
 * Creates a queue unless it exists. pg-boss's create_queue inserts the queue row and then alters
 * the job table; two processes starting at once (a server and `npm run worker`s) can deadlock on
 * those locks. PostgreSQL aborts one of them, and by the time it retries the other has committed,
 * so the retry finds the queue and does nothing.
 */
export async function ensureQueue(queue: TJobQueue, name: string, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      if (await queue.boss.getQueue(name)) return;
      await queue.boss.createQueue(name);
      return;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== DEADLOCK_DETECTED || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}
