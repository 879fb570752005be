import { Piscina } from 'piscina';
import { threadEntryFile } from '../../../jobs/thread-entry.ts';
import type { TSealed } from './seal-pdf.ts';
import type { TSealTask } from './seal-worker.ts';

/**
 * The thread that seals completed requests, started on the first and stopped when idle. One is
 * enough: sealing is a small part of completing (the renders run on the render threads), and
 * requests complete one after another in the background.
 */
export function createSealPool() {
  let pool: Promise<Piscina<TSealTask, TSealed>> | undefined;
  const start = () =>
    (pool ??= threadEntryFile('src/server/modules/signing/seal/seal-worker.ts').then(
      (filename) => new Piscina<TSealTask, TSealed>({ filename, minThreads: 0, maxThreads: 1, idleTimeout: 30_000 }),
    ));
  return {
    seal: async (task: TSealTask): Promise<TSealed> => (await start()).run(task),
    async close() {
      if (pool) await (await pool).destroy();
    },
  };
}
export type TSealPool = ReturnType<typeof createSealPool>;
