/** `npm run db:migrate`: applies the migrations to DATABASE_URL, or to the embedded database in DATA_DIR. */
import path from 'node:path';
import { loadConfig } from '../src/server/config.ts';
import { migrateDatabase, openDatabase } from '../src/server/db/client.ts';
import { lockDataDir } from '../src/server/db/data-dir-lock.ts';

const config = loadConfig();
const release = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
try {
  const database = config.databaseUrl
    ? await openDatabase({ driver: 'postgres', url: config.databaseUrl })
    : await openDatabase({ driver: 'pglite', dataDir: path.join(config.dataDir, 'pglite') });
  await migrateDatabase(database);
  await database.close();
  process.stdout.write(`Migrations applied to ${config.databaseUrl ? 'PostgreSQL' : config.dataDir}\n`);
} finally {
  release();
}
