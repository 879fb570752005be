/**
 * `npm run admin:create -- --email … --password … [--first … --last …]`: makes (or promotes) an
 * admin account with a verified address, straight in the database: the embedded one in DATA_DIR
 * (before `npm start`: the running server holds the data directory) or PostgreSQL at
 * DATABASE_URL (at any time). Running it again with the same values changes nothing.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { migrateDatabase, openDatabase } from '../src/server/db/client.ts';
import { DataDirLockedError, lockDataDir } from '../src/server/db/data-dir-lock.ts';
import { AdminAccountInputError, createAdminAccount, parseAdminAccountInput } from '../src/server/modules/auth/index.ts';

const USAGE = 'Usage: npm run admin:create -- --email you@example.com --password "a long password" [--first Ada --last Lovelace]';

let release = () => {};
function fail(message: string): never {
  release();
  process.stderr.write(`admin:create: ${message}\n`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' }, first: { type: 'string' }, last: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
  }).values;
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!args.email) fail(`give the account's address with --email.\n${USAGE}`);
if (!args.password) fail(`give a password with --password.\n${USAGE}`);
const input = { email: args.email, password: args.password, firstName: args.first, lastName: args.last };
try {
  parseAdminAccountInput(input);
} catch (error) {
  if (error instanceof AdminAccountInputError) fail(error.message);
  throw error;
}

const config = loadConfig();
if (!config.databaseUrl) {
  try {
    release = lockDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      fail(
        `the data directory ${config.dataDir} is in use by a running Formwork server (pid ${error.pid}). Stop it, run this again, then start it; or run this against PostgreSQL (DATABASE_URL), which works while the server runs.`,
      );
    }
    throw error;
  }
}
try {
  const database = config.databaseUrl
    ? await openDatabase({ driver: 'postgres', url: config.databaseUrl })
    : await openDatabase({ driver: 'pglite', dataDir: path.join(config.dataDir, 'pglite') });
  try {
    // An empty data directory is fine: the tables are made first, as `npm start` would.
    await migrateDatabase(database);
    const { created } = await createAdminAccount(database.db, input);
    const where = config.databaseUrl ? 'PostgreSQL' : config.dataDir;
    process.stdout.write(
      created
        ? `Created the admin account ${args.email.trim().toLowerCase()} (address verified) in ${where}. Sign in with this password.\n`
        : `${args.email.trim().toLowerCase()} is an admin with a verified address and this password (${where}).\n`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  if (error instanceof AdminAccountInputError) fail(error.message);
  fail((error as Error).message);
} finally {
  release();
}
