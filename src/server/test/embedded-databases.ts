import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { embeddedDatabase, openDatabase, type TDatabase } from '../db/client.ts';
import type { TPgliteRemote } from '../db/pglite-remote.ts';

/*
 * Test files' embedded databases, emptied and used again by the next file of the same worker.
 *
 * Starting one from the migrated dump took 1.3–1.9 s of processor time (unpacking 40 MB of data
 * files into memory, then PostgreSQL's start), about as much as an average file's queries, and a
 * run opens one per test file. Emptying one takes a few milliseconds. A database comes back only
 * as the dump made it:
 * - every table of ours and of the job queue is emptied and its identity columns start again;
 *   the migrations' own record and the queue's version row are the dump's only rows, and stay;
 * - the queues the apps created stay, as they do when a server restarts on its database;
 * - a database whose schema a test changed (the migration tests, a trigger left disabled) differs
 *   from the dump's fingerprint and is closed instead;
 * - a file's handle stops working when it hands the database back, so a straggling query of one
 *   file can never write into the next file's data.
 */

const SCHEMA_FINGERPRINT = `
select md5(string_agg(item, E'\\n' order by item)) as fingerprint from (
  select 'relation ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text || ' ' || coalesce((
    select string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), ''), ', ' order by a.attnum)
    from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '') as item
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_to%' and n.nspname not like 'pg\\_temp%'
    and not c.relispartition and not (n.nspname = 'pgboss' and c.relname ~ '^j[0-9a-f]{56}')
  union all
  select 'trigger ' || t.tgrelid::regclass || ' ' || t.tgname || ' ' || t.tgenabled::text from pg_trigger t where not t.tgisinternal
  union all
  select 'constraint ' || c.conrelid::regclass || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid)
  from pg_constraint c join pg_namespace n on n.oid = c.connamespace
  where n.nspname not in ('pg_catalog', 'information_schema') and c.conrelid not in (select oid from pg_class where relispartition)
  union all
  select 'function ' || p.oid::regprocedure || ' ' || md5(p.prosrc)
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname not in ('pg_catalog', 'information_schema')
  union all
  select 'enum ' || e.enumtypid::regtype || ' ' || e.enumlabel from pg_enum e
  union all
  select 'schema ' || nspname from pg_namespace where nspname not like 'pg\\_to%' and nspname not like 'pg\\_temp%'
  union all
  select 'extension ' || extname || ' ' || extversion from pg_extension
  union all
  select 'migrations ' || count(*) from drizzle.__drizzle_migrations
  union all
  select 'queue version ' || string_agg(version::text, ',') from pgboss.version
) items`;

const EMPTY_TABLES = `
do $$
declare tables text;
begin
  select string_agg(format('%I.%I', n.nspname, c.relname), ', ') into tables
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and not c.relispartition
    and (n.nspname = 'public' or (n.nspname = 'pgboss' and c.relname not in ('version', 'queue')));
  execute 'truncate ' || tables || ' restart identity cascade';
end $$`;

/** How long a database handed back may take to answer before it is given up on. */
const RESET_TIMEOUT_MS = 10_000;
/** A worker runs one file at a time; a file that holds two databases at once leaves a second. */
const KEEP = 2;

const parked: TPgliteRemote[] = [];
let dumpFingerprint: Promise<string> | undefined;

async function fingerprintOf(remote: TPgliteRemote): Promise<string> {
  const { rows } = await remote.query<{ fingerprint: string }>(SCHEMA_FINGERPRINT);
  return rows[0]!.fingerprint;
}

async function openFromDump(): Promise<TPgliteRemote> {
  const opened = await openDatabase({ driver: 'pglite', loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) });
  const remote = (opened as unknown as { pglite: TPgliteRemote }).pglite;
  dumpFingerprint ??= fingerprintOf(remote);
  await dumpFingerprint;
  return remote;
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the database did not answer')), RESET_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Parks `remote` for the next file when it is as the dump made it once emptied; else closes it. */
async function handBack(remote: TPgliteRemote): Promise<void> {
  try {
    const unchanged = (await withTimeout(fingerprintOf(remote))) === (await dumpFingerprint);
    if (unchanged && parked.length < KEEP) {
      await withTimeout(remote.exec(EMPTY_TABLES));
      // Settings, prepared statements, locks and listeners of the last file's sessions.
      await withTimeout(remote.exec('discard all'));
      parked.push(remote);
      return;
    }
  } catch {
    // A database that cannot be checked or emptied is not used again.
  }
  void remote.close().catch(() => {});
}

/** A migrated embedded database for one test file: fresh from the dump, or one a previous file handed back. */
export async function leaseEmbeddedDatabase(): Promise<TDatabase> {
  const remote = parked.pop() ?? (await openFromDump());
  let leased = true;
  let handedBack: Promise<void> | undefined;
  const gone = () => Promise.reject(new Error('this test database was handed back when its test file closed it'));
  const fenced: TPgliteRemote = {
    query: (...args) => (leased ? remote.query(...args) : gone()),
    exec: (...args) => (leased ? remote.exec(...args) : gone()),
    transaction: (...args) => (leased ? remote.transaction(...args) : gone()),
    dumpDataDir: (...args) => (leased ? remote.dumpDataDir(...args) : gone()),
    close() {
      leased = false;
      handedBack ??= handBack(remote);
      return handedBack;
    },
  };
  return embeddedDatabase(fenced);
}
