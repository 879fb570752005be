/**
 * WEB_CONCURRENCY on PostgreSQL: this process serves nothing itself. It migrates the database
 * once, forks that many server processes (main.ts `serve`) that listen on one port (node's cluster
 * module hands the connections to them in turn), starts a new one when one dies, and on SIGTERM or
 * SIGINT lets each finish its requests before it exits. docs/operations.md explains the design.
 */
import cluster, { type Worker } from 'node:cluster';
import { pino } from 'pino';
import type { TConfig } from './config.ts';
import { migrateDatabase, openDatabase } from './db/client.ts';

/** A process that ran this long was healthy: if it dies, its back-off starts again from the first step. */
const HEALTHY_AFTER_MS = 60_000;
/** Restarts wait 1 s, 2 s, 4 s, … up to 30 s while a process keeps dying soon after it starts. */
const FIRST_RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** Each process gives its requests 15 s to finish (main.ts); past this one is taken to hang. */
const STOP_TIMEOUT_MS = 20_000;

type TSlot = { worker: Worker | undefined; startedAt: number; quickExits: number; restart: NodeJS.Timeout | undefined };

/**
 * Migrations run here, before any fork, and the forked processes skip them: a migration that
 * fails stops the start once, with one message, instead of in every process and again at each
 * restart. (Processes that migrate at once are safe anyway: migrateDatabase takes a lock.)
 */
async function migrateOnce(databaseUrl: string): Promise<void> {
  const database = await openDatabase({ driver: 'postgres', url: databaseUrl, poolSize: 1 });
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
}

export async function runPrimary(config: TConfig, databaseUrl: string): Promise<void> {
  const log = pino({ level: config.logLevel });
  await migrateOnce(databaseUrl);

  const processes = config.webConcurrency;
  const slots: TSlot[] = Array.from({ length: processes }, () => ({ worker: undefined, startedAt: 0, quickExits: 0, restart: undefined }));
  const listening = new Set<number>();
  let up = false;
  let stopping = false;
  let stoppedWith: NodeJS.Signals | undefined;
  let exitCode = 0;

  function fork(slot: TSlot) {
    const worker = cluster.fork();
    Object.assign(slot, { worker, startedAt: Date.now(), restart: undefined });
    worker.on('listening', () => {
      if (up) return;
      listening.add(worker.id);
      if (listening.size < processes) return;
      up = true;
      // Said once, when every process takes connections: scripts and tests wait for this line.
      process.stdout.write(`Formwork is running at ${config.publicUrl} (PostgreSQL, ${processes} processes)\n`);
    });
    worker.on('exit', (code, signal) => exited(slot, worker, code, signal));
  }

  function exited(slot: TSlot, worker: Worker, code: number | null, signal: string | null) {
    if (slot.worker === worker) slot.worker = undefined;
    const workerPid = worker.process.pid;
    if (stopping) {
      // Stopped as asked: exit code 0, or ended by the very signal passed on (one still starting
      // has no handler yet). Anything else (a crash, an out-of-memory kill) is a failed stop.
      if (code !== 0 && !(code === null && signal === stoppedWith)) exitCode = 1;
      if (slots.every((s) => !s.worker)) process.exit(exitCode);
      return;
    }
    if (!up) {
      // What stops a process from starting (the port is taken, the database refuses) stops the
      // next one too: the start fails as a single server's would, with the reason it printed.
      log.error({ workerPid, code, signal }, 'a server process stopped while starting; stopping the others');
      exitCode = 1;
      stop('SIGTERM');
      return;
    }
    if (Date.now() - slot.startedAt >= HEALTHY_AFTER_MS) slot.quickExits = 0;
    const delayMs = Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** slot.quickExits);
    slot.quickExits++;
    log.error({ workerPid, code, signal, restartInMs: delayMs }, 'a server process exited unexpectedly; starting another');
    slot.restart = setTimeout(() => fork(slot), delayMs);
  }

  function stop(signal: NodeJS.Signals) {
    if (stopping) return;
    stopping = true;
    stoppedWith = signal;
    for (const slot of slots) clearTimeout(slot.restart);
    const running = slots.flatMap((slot) => (slot.worker ? [slot.worker] : []));
    if (running.length === 0) process.exit(exitCode);
    log.info({ signal, processes: running.length }, 'shutting down: each server process finishes its requests in flight');
    // Forwarded as it came: each process stops as a single server does on that signal.
    for (const worker of running) worker.process.kill(signal);
    setTimeout(() => {
      log.error('server processes took too long to stop; killing them');
      for (const slot of slots) slot.worker?.process.kill('SIGKILL');
      process.exit(1);
    }, STOP_TIMEOUT_MS);
  }

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (const slot of slots) fork(slot);
}
