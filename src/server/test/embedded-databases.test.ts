import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { TDatabase } from '../db/client.ts';
import { leaseEmbeddedDatabase } from './embedded-databases.ts';

/*
 * The embedded databases test files hand on to one another. Each check leases, changes, hands
 * back and leases again, and tells by PostgreSQL's start time whether it got the same database:
 * without that, "the next one is empty" would pass on a fresh database too.
 */

const leased: TDatabase[] = [];
async function lease(): Promise<TDatabase> {
  const database = await leaseEmbeddedDatabase();
  leased.push(database);
  return database;
}
afterEach(async () => {
  for (const database of leased.splice(0)) await database.close();
});

async function startedAt(database: TDatabase): Promise<string> {
  const { rows } = await database.executeSql('select pg_postmaster_start_time()::text as started');
  return (rows[0] as { started: string }).started;
}

async function count(database: TDatabase, table: string): Promise<number> {
  const { rows } = await database.executeSql(`select count(*)::int as n from ${table}`);
  return (rows[0] as { n: number }).n;
}

describe('embedded test databases', () => {
  it('come back to the next file empty, with identities starting again and the migrations kept', async () => {
    const first = await lease();
    const started = await startedAt(first);
    const migrations = await count(first, 'drizzle.__drizzle_migrations');
    expect(migrations).toBeGreaterThan(0);
    await first.executeSql(`insert into users (id, name, email) values ('u1', 'Ann Lee', 'ann@example.com')`);
    await first.executeSql(`select pgboss.create_queue('left-behind', '{"policy":"standard"}')`);
    await first.executeSql(`insert into pgboss.job (name, data) values ('left-behind', '{}')`);
    expect((await first.executeSql(`select nextval('signature_events_id_seq')::int as id`)).rows[0]).toEqual({ id: 1 });
    await first.close();

    const second = await lease();
    expect(await startedAt(second), 'the same database, handed on').toBe(started);
    expect(await count(second, 'users')).toBe(0);
    expect(await count(second, 'pgboss.job')).toBe(0);
    expect(await count(second, 'drizzle.__drizzle_migrations')).toBe(migrations);
    expect((await second.executeSql(`select nextval('signature_events_id_seq')::int as id`)).rows[0]).toEqual({ id: 1 });
  });

  it('stop answering the file that handed them back', async () => {
    const database = await leaseEmbeddedDatabase();
    await database.close();
    await expect(database.executeSql('select 1')).rejects.toThrow(/handed back/);
    // drizzle reports the driver's error as the cause of its own.
    await expect(database.db.execute(sql`select 1`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/handed back/) } });
  });

  it('are not handed on once a test changed their schema or left a trigger off', async () => {
    const changed = await lease();
    const started = await startedAt(changed);
    await changed.executeSql('alter table users add column nickname text');
    await changed.close();
    const next = await lease();
    expect(await startedAt(next), 'a database fresh from the dump').not.toBe(started);
    const { rows } = await next.executeSql(`select count(*)::int as n from information_schema.columns where table_name = 'users' and column_name = 'nickname'`);
    expect(rows[0]).toEqual({ n: 0 });

    const nextStarted = await startedAt(next);
    await next.executeSql('alter table signature_events disable trigger signature_events_append_only');
    await next.close();
    const after = await lease();
    expect(await startedAt(after)).not.toBe(nextStarted);
  });
});
