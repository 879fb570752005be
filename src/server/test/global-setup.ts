import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { MIGRATIONS_DIR, migrateDatabase, openDatabase, type TDatabase } from '../db/client.ts';
import { createJobQueue } from '../jobs/queue.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplateDb: string;
  }
}

function migrationsHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(entry.name).update(readFileSync(full));
    }
  };
  walk(MIGRATIONS_DIR);
  hash.update(readFileSync(path.resolve('node_modules/pg-boss/package.json')));
  return hash.digest('hex').slice(0, 16);
}

/** Our migrations, then the job queue's own schema (pg-boss installs it on its first start). */
async function prepare(database: TDatabase): Promise<void> {
  await migrateDatabase(database);
  const queue = createJobQueue(database, { error: () => {}, warn: () => {} });
  await queue.start();
  await queue.stop();
}

/**
 * Migrating a fresh database takes seconds, so it happens once per run: a PGlite dump that each
 * test file loads into memory, or a PostgreSQL template database that each test file clones.
 */
export default async function setup(project: TestProject) {
  const hash = migrationsHash();
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const templateDb = `formwork_template_${hash}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const exists = await admin.query('select 1 from pg_database where datname = $1', [templateDb]);
    if (exists.rowCount === 0) {
      await admin.query(`create database "${templateDb}"`);
      const templateUrl = new URL(url);
      templateUrl.pathname = `/${templateDb}`;
      const database = await openDatabase({ driver: 'postgres', url: templateUrl.toString(), poolSize: 1 });
      await prepare(database);
      await database.close();
    }
    await admin.end();
    project.provide('postgresTemplateDb', templateDb);
    project.provide('pgliteTemplate', '');
    return;
  }
  const cacheDir = path.resolve('node_modules/.cache/formwork-test');
  const file = path.join(cacheDir, `pglite-${hash}.tar.gz`);
  if (!existsSync(file)) {
    mkdirSync(cacheDir, { recursive: true });
    const database = await openDatabase({ driver: 'pglite' });
    await prepare(database);
    const pglite = (database as unknown as { pglite: { dumpDataDir(c: 'gzip'): Promise<Blob> } }).pglite;
    const dump = await pglite.dumpDataDir('gzip');
    await database.close();
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file);
  }
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplateDb', '');
}
