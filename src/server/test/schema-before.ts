/**
 * Puts a test database back on the schema an older installation has, keeping the rows the current
 * app wrote, so a migration can be run on data made by the app's real code. The older schema is
 * the one the earlier migrations themselves make, not a hand-written reverse of the later ones,
 * which could differ from what installations really have.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_DIR, type TDatabase } from '../db/client.ts';

/** Where the current schema's tables wait while the older one is built beside them. */
const ASIDE = 'schema_before_current';

/**
 * For a table whose older shape has columns the current schema keeps elsewhere: a join (given
 * the schema the current tables are in) and, for each such column, the expression that reads it.
 * `t` is the table's current row.
 */
type TCarry = Record<string, { join: (schema: string) => string; columns: Record<string, string> }>;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A migrations folder holding the migrations before `tag`, for drizzle's migrator. */
function migrationsBefore(tag: string): string {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  if (index < 0) throw new Error(`no migration ${tag} in the journal`);
  const earlier = journal.entries.slice(0, index);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'formwork-migrations-'));
  mkdirSync(path.join(dir, 'meta'));
  writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: earlier }));
  for (const entry of earlier) copyFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

async function rowsOf<T>(database: TDatabase, text: string, values: unknown[] = []): Promise<T[]> {
  return (await database.executeSql(text, values)).rows as T[];
}

/** Each base table's columns in `schema`. */
async function columnsIn(database: TDatabase, schema: string): Promise<Map<string, string[]>> {
  const rows = await rowsOf<{ table_name: string; column_name: string }>(
    database,
    `select c.table_name, c.column_name from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = $1 and t.table_type = 'BASE TABLE' order by c.table_name, c.ordinal_position`,
    [schema],
  );
  const tables = new Map<string, string[]>();
  for (const row of rows) tables.set(row.table_name, [...(tables.get(row.table_name) ?? []), row.column_name]);
  return tables;
}

/** The public tables, each after the tables its foreign keys point at. */
async function inForeignKeyOrder(database: TDatabase, tables: string[]): Promise<string[]> {
  const edges = await rowsOf<{ child: string; parent: string }>(
    database,
    `select c.relname as child, p.relname as parent from pg_constraint k
       join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      where k.contype = 'f' and k.connamespace = 'public'::regnamespace and k.conrelid <> k.confrelid`,
  );
  const order: string[] = [];
  const pending = new Set(tables);
  while (pending.size > 0) {
    const ready = [...pending].filter((table) => !edges.some((edge) => edge.child === table && pending.has(edge.parent)));
    if (ready.length === 0) throw new Error(`foreign keys in a cycle among ${[...pending].join(', ')}`);
    for (const table of ready) {
      order.push(table);
      pending.delete(table);
    }
  }
  return order;
}

/**
 * Rebuilds `database` (with no app running on it) on the schema the migrations before `tag` make,
 * carries every row over (a column the older schema lacks is left behind; one it has that the
 * current schema keeps elsewhere is read through `carry`), and records only those migrations as
 * applied, so migrating runs `tag` and the ones after it on the carried data.
 */
export async function rebuildBefore(database: TDatabase, tag: string, carry: TCarry = {}): Promise<void> {
  const folder = migrationsBefore(tag);
  try {
    await database.executeSql(`alter schema public rename to ${ASIDE}; create schema public; delete from drizzle.__drizzle_migrations`);
    if (database.driver === 'postgres') await migratePg(database.db as never, { migrationsFolder: folder });
    else await migratePglite(database.db as never, { migrationsFolder: folder });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const older = await columnsIn(database, 'public');
  const current = await columnsIn(database, ASIDE);
  for (const table of await inForeignKeyOrder(database, [...older.keys()])) {
    const now = current.get(table);
    // A table a later migration dropped has nothing left to carry.
    if (!now) continue;
    const columns = older.get(table)!;
    const values = columns.map((column) => {
      if (now.includes(column)) return `t.${quoted(column)}`;
      const elsewhere = carry[table]?.columns[column];
      if (!elsewhere) throw new Error(`${table}.${column} is in the schema before ${tag} but not now: say in carry where it went`);
      return elsewhere;
    });
    await database.executeSql(
      `insert into public.${quoted(table)} (${columns.map(quoted).join(', ')})
       select ${values.join(', ')} from ${ASIDE}.${quoted(table)} t ${carry[table]?.join(ASIDE) ?? ''}`,
    );
  }
  // Rows came with their ids, so each serial column's sequence starts after the largest.
  const serials = await rowsOf<{ table_name: string; column_name: string }>(
    database,
    `select table_name, column_name from information_schema.columns where table_schema = 'public' and column_default like 'nextval(%'`,
  );
  for (const { table_name: table, column_name: column } of serials) {
    await database.executeSql(
      `select setval(pg_get_serial_sequence('public.${quoted(table)}', '${column}'), coalesce(max(${quoted(column)}), 0) + 1, false) from public.${quoted(table)}`,
    );
  }
  await database.executeSql(`drop schema ${ASIDE} cascade`);
}
