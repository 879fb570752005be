/**
 * `npm run worker`: a process that only generates bulk documents. Start as many as you like, on
 * any machine that reaches the same PostgreSQL: they take chunks of the same jobs from the queue.
 * On the embedded database the server does this work itself (and holds the data directory).
 */
import os from 'node:os';
import { pino } from 'pino';
import { serializeError } from './log-errors.ts';
import { loadConfigOrExit } from './config.ts';
import { migrateDatabase, openDatabase } from './db/client.ts';
import { createServices } from './services.ts';
import { limitHeapGrowth } from './heap-growth.ts';

limitHeapGrowth();

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main() {
  const config = loadConfigOrExit();
  if (!config.databaseUrl) {
    fail(
      'npm run worker needs DATABASE_URL (PostgreSQL): worker processes share jobs through it. ' +
        'On the embedded database the server generates bulk documents itself.',
    );
  }
  const log = pino({ level: config.logLevel === 'silent' ? 'silent' : config.logLevel, serializers: { err: serializeError } });
  const database = await openDatabase({ driver: 'postgres', url: config.databaseUrl });
  await migrateDatabase(database);
  // WEB_CONCURRENCY splits the cores among the web server's processes; a worker sizes its own pool.
  const threads = config.renderThreads ?? os.availableParallelism();
  const services = createServices({ config, database, log, renderThreads: threads });
  await services.background.startWorking();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker stopping: finishing the chunks in progress');
    const forced = setTimeout(() => process.exit(1), 30_000);
    forced.unref();
    await services.background.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.stdout.write(`Formwork worker ${process.pid} is taking bulk jobs (${threads} render threads)\n`);
}

main().catch((error) => {
  process.stderr.write(`Formwork worker failed to start: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
