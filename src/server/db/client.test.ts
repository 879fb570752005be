/**
 * Migrating. On PostgreSQL a server and its workers often start at once on a new database; each
 * migrates, and all must come up. The embedded database has one process, which may start again.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import { migrateDatabase, openDatabase, type TDatabase } from './client.ts';

const serverUrl = process.env.TEST_DATABASE_URL;

async function tableNames(database: TDatabase): Promise<string[]> {
  const { rows } = await database.executeSql(`select table_name from information_schema.tables where table_schema = 'public' order by 1`);
  return (rows as { table_name: string }[]).map((r) => r.table_name);
}

it(
  serverUrl ? 'several processes migrating a new PostgreSQL database at once all succeed' : 'migrating an embedded database again changes nothing',
  async () => {
    if (!serverUrl) {
      const database = await openDatabase({ driver: 'pglite' });
      try {
        await migrateDatabase(database);
        const tables = await tableNames(database);
        expect(tables).toEqual(expect.arrayContaining(['users', 'formats', 'documents', 'bulk_jobs', 'bulk_rows']));
        await migrateDatabase(database);
        expect(await tableNames(database)).toEqual(tables);
      } finally {
        await database.close();
      }
      return;
    }
    const name = `formwork_migrate_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const processes = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ driver: 'postgres', url: url.toString(), poolSize: 2 })));
    try {
      const results = await Promise.allSettled(processes.map((database) => migrateDatabase(database)));
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
      expect(await tableNames(processes[0]!)).toEqual(expect.arrayContaining(['users', 'formats', 'documents', 'bulk_jobs', 'bulk_rows']));
      const { rows } = await processes[0]!.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations');
      const journal = (await import('../../../drizzle/meta/_journal.json', { with: { type: 'json' } })).default as { entries: unknown[] };
      expect((rows[0] as { n: number }).n).toBe(journal.entries.length);
    } finally {
      for (const database of processes) await database.close();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  },
);
