import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { openPgliteThread, type TPgliteRemote } from './pglite-remote.ts';
import * as schema from './schema.ts';

export type TSchema = typeof schema;
export type TDb = PgDatabase<PgQueryResultHKT, TSchema>;

/** Found by walking up, because this module runs from src/server/db in tests and from the dist/server bundle in production. */
function findMigrationsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'drizzle');
    if (existsSync(path.join(candidate, 'meta/_journal.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('drizzle/meta/_journal.json not found above the server module');
    dir = parent;
  }
}

export const MIGRATIONS_DIR = findMigrationsDir();

export type TDatabase = {
  db: TDb;
  driver: 'pglite' | 'postgres';
  /** The node-postgres pool, for libraries (the queue) that need their own connections. */
  pool: pg.Pool | undefined;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Raw SQL for libraries that bring their own (the job queue). Several statements when no values are given. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
};

export type TOpenDatabaseOptions =
  { driver: 'postgres'; url: string; poolSize?: number } | { driver: 'pglite'; dataDir?: string; loadDataDir?: Blob; onLost?: (error: Error) => void };

export async function openDatabase(options: TOpenDatabaseOptions): Promise<TDatabase> {
  if (options.driver === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle client that loses its server must not take the process down with it.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as TDb;
    return {
      db,
      driver: 'postgres',
      pool,
      async ping() {
        await pool.query('select 1');
      },
      async close() {
        await pool.end();
      },
      async executeSql(text, values) {
        return pool.query(text, values as unknown[] | undefined);
      },
    };
  }
  // PGlite's buffer cache lives in its wasm memory, which never shrinks: 32 MB instead of the
  // default 128 MB took about 100 MB off the server's resident memory with no measurable loss
  // (bench:bulk, bench:api); the operating system caches the data files anyway. 16 MB took
  // another 30 MB off bench:bulk's peak at 50,000 rows (602 → 570 MB, medians of 3), again at
  // the same speed, once the database had a thread of its own.
  const client = await openPgliteThread(
    {
      startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: new Uint8Array(await options.loadDataDir.arrayBuffer()) } : {}),
    },
    { onLost: options.onLost },
  );
  return embeddedDatabase(client);
}

/** The app's handle on an embedded database's thread, as drizzle and raw SQL use it. */
export function embeddedDatabase(client: TPgliteRemote): TDatabase {
  const db = drizzlePglite({ client: client as never, schema }) as unknown as TDb;
  return {
    db,
    driver: 'pglite',
    pool: undefined,
    async ping() {
      await client.query('select 1');
    },
    async close() {
      await client.close();
    },
    async executeSql(text, values) {
      if (values && values.length > 0) return client.query(text, values);
      // exec runs several statements (the queue's schema migrations); the last result is the answer.
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    // The handle is exposed for test snapshots (dumpDataDir).
    ...({ pglite: client } as object),
  };
}

/**
 * A server and its `npm run worker`s often start together (one compose file); each migrates. The
 * migrator takes no lock of its own, so on a new database two of them would both create the same
 * tables and one would fail. They take turns on this session lock, and the later ones find the
 * migrations applied.
 */
const MIGRATION_LOCK_KEY = 'formwork:migrations';

export async function migrateDatabase(database: TDatabase): Promise<void> {
  if (database.driver === 'postgres' && database.pool) {
    const client = await database.pool.connect();
    try {
      await client.query('select pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK_KEY]);
      await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
      await client.query('select pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK_KEY]);
    } catch (error) {
      // The connection is closed instead of pooled, which also ends the lock; the error that
      // stopped the migration is the one reported.
      client.release(error as Error);
      throw error;
    }
    client.release();
  } else {
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
  }
}
