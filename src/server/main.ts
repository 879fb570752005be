import cluster from 'node:cluster';
import { buildApp } from './app.ts';
import { runPrimary } from './cluster-primary.ts';
import { loadConfigOrExit, type TConfig } from './config.ts';
import { migrateDatabase, openDatabase } from './db/client.ts';
import { DataDirLockedError, lockDataDir } from './db/data-dir-lock.ts';
import path from 'node:path';
import { limitHeapGrowth } from './heap-growth.ts';

limitHeapGrowth();

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** One server process: the only one, or one of WEB_CONCURRENCY forked by cluster-primary.ts. */
async function serve(config: TConfig) {
  let releaseLock: () => void = () => {};
  if (!config.databaseUrl) {
    try {
      releaseLock = lockDataDir(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirLockedError) fail(error.message);
      throw error;
    }
  }

  const database = config.databaseUrl
    ? await openDatabase({ driver: 'postgres', url: config.databaseUrl })
    : await openDatabase({
        driver: 'pglite',
        dataDir: path.join(config.dataDir, 'pglite'),
        // Nothing works without it: better stopped, for the service manager to start again, than answering errors.
        onLost: (error) => fail(`The embedded database stopped: ${error.message}. Start the server again.`),
      });
  // The primary migrated before it forked this process: its siblings need not queue on the lock.
  if (!cluster.isWorker) await migrateDatabase(database);
  const app = await buildApp({ config, database });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const forced = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    forced.unref();
    try {
      await app.close();
      await database.close();
    } finally {
      releaseLock();
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    releaseLock();
    await database.close();
    fail(`Could not listen on port ${config.port}: ${(error as Error).message}`);
  }
  // With WEB_CONCURRENCY the primary says it once, when every process listens.
  if (cluster.isWorker) return;
  const where = config.databaseUrl ? 'PostgreSQL' : `embedded database in ${config.dataDir}`;
  process.stdout.write(`Formwork is running at ${config.publicUrl} (${where})\n`);
}

async function main() {
  const config = loadConfigOrExit();
  if (config.webConcurrency > 1 && !config.databaseUrl) {
    process.stderr.write(
      `WEB_CONCURRENCY=${config.webConcurrency} is ignored without DATABASE_URL: ` +
        'the embedded database can be opened by one process only, so Formwork runs as one process.\n',
    );
    return serve({ ...config, webConcurrency: 1 });
  }
  if (config.webConcurrency > 1 && config.databaseUrl && cluster.isPrimary) return runPrimary(config, config.databaseUrl);
  return serve(config);
}

main().catch((error) => {
  process.stderr.write(`Formwork failed to start: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
