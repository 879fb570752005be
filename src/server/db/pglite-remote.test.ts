/**
 * The embedded database on its own thread answers as PGlite on this thread did: drizzle's queries,
 * raw SQL, transactions that commit or roll back and hold other queries meanwhile, and database
 * errors a caller can read. A thread that dies says so instead of leaving queries waiting.
 */
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPgliteThread, type TPgliteRemote } from './pglite-remote.ts';

const notes = pgTable('notes', { id: text('id').primaryKey(), body: text('body').notNull(), at: timestamp('at', { withTimezone: true }).notNull() });

const opened: TPgliteRemote[] = [];
async function open(options: Parameters<typeof openPgliteThread>[1] = {}) {
  const remote = await openPgliteThread({ startParams: PGlite.defaultStartParams }, options);
  opened.push(remote);
  return remote;
}

// A new database runs initdb, a few seconds: the tests share one and start from an empty table.
let shared: TPgliteRemote;
beforeAll(async () => {
  shared = await open();
  await shared.exec(`create table notes (id text primary key, body text not null, at timestamptz not null)`);
});
beforeEach(async () => {
  await shared.exec('truncate notes');
});
afterAll(async () => {
  await Promise.all(opened.map((remote) => remote.close()));
});

const ids = async (remote: TPgliteRemote) => (await remote.query<{ id: string }>('select id from notes order by id')).rows.map((row) => row.id);

describe('the embedded database on its own thread', () => {
  it('answers drizzle with its own types: timestamps as dates, rows as objects', async () => {
    const db = drizzle({ client: shared as never });
    const at = new Date('2026-11-27T10:11:12.345Z');
    await db.insert(notes).values({ id: 'a', body: 'first', at });
    expect(await db.select().from(notes)).toEqual([{ id: 'a', body: 'first', at }]);
    const [counted] = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${notes}`).then((result) => result.rows);
    expect(counted).toEqual({ n: 1 });
  });

  it('commits a transaction whole, and rolls one back whole when its work throws', async () => {
    const remote = shared;
    const db = drizzle({ client: remote as never });
    const at = new Date();
    await db.transaction(async (tx) => {
      await tx.insert(notes).values({ id: 'kept-1', body: 'x', at });
      await tx.insert(notes).values({ id: 'kept-2', body: 'x', at });
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(notes).values({ id: 'dropped', body: 'x', at });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // A savepoint inside a transaction: its own failure undoes only its part.
    await db.transaction(async (tx) => {
      await tx.insert(notes).values({ id: 'outer', body: 'x', at });
      await tx
        .transaction(async (inner) => {
          await inner.insert(notes).values({ id: 'inner', body: 'x', at });
          throw new Error('inner only');
        })
        .catch(() => {});
    });
    expect(await ids(remote)).toEqual(['kept-1', 'kept-2', 'outer']);
  });

  it('holds other queries until an open transaction ends, as PGlite does', async () => {
    const remote = shared;
    const order: string[] = [];
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const transaction = remote.transaction(async (tx) => {
      await tx.query(`insert into notes values ('in-tx', 'x', now())`);
      order.push('transaction wrote');
      await held;
      order.push('transaction ends');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outside = remote.query<{ n: number }>('select count(*)::int as n from notes').then((result) => {
      order.push('outside read');
      return result.rows[0]!.n;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(order).toEqual(['transaction wrote']);
    finish();
    await transaction;
    expect(await outside).toBe(1);
    expect(order).toEqual(['transaction wrote', 'transaction ends', 'outside read']);
  });

  it('gives a database error its code, constraint and detail, without the statement’s values', async () => {
    const remote = shared;
    await remote.query(`insert into notes values ($1, $2, now())`, ['same', 'a secret value']);
    const error = await remote.query(`insert into notes values ($1, $2, now())`, ['same', 'a secret value']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'notes_pkey', detail: 'Key (id)=(same) already exists.' });
    expect(JSON.stringify(error)).not.toContain('a secret value');
    // The database goes on answering after an error.
    expect(await ids(remote)).toEqual(['same']);
  });

  it('stores and reads an image-sized bytea value within the thread’s heap', async () => {
    const bytes = new Uint8Array(10 * 1024 * 1024).map((_, i) => (i * 7919) % 256);
    await shared.exec('create table if not exists blobs (id int primary key, bytes bytea not null)');
    await shared.query('insert into blobs values (1, $1)', [bytes]);
    const [row] = (await shared.query<{ bytes: Uint8Array; size: number }>('select bytes, octet_length(bytes) as size from blobs where id = 1')).rows;
    expect(row!.size).toBe(bytes.length);
    expect(Buffer.from(row!.bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it('refuses a value that cannot cross to the thread, and goes on answering', async () => {
    await expect(shared.query('select $1::text', [() => 'a function'])).rejects.toThrow(/could not be cloned/);
    expect((await shared.query<{ n: number }>('select 1 as n')).rows).toEqual([{ n: 1 }]);
  });

  it('refuses a parser it cannot carry to the thread, rather than parse another way', async () => {
    const remote = shared;
    expect(() => remote.query('select now()', [], { parsers: { 1184: (value: string) => new Date(value) } })).toThrow(/keep the text as it is/);
  });

  it('reports a thread that runs out of memory, and fails every query from then on', async () => {
    const lost: Error[] = [];
    const remote = await open({ heapLimitMb: 48, onLost: (error) => lost.push(error) });
    const tooLarge = remote.query(`select repeat('x', 1000) || g as line from generate_series(1, 200000) g`);
    await expect(tooLarge).rejects.toThrow();
    expect(lost).toHaveLength(1);
    await expect(remote.query('select 1')).rejects.toThrow(lost[0]!.message);
  });
});
