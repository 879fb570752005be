import { Piscina } from 'piscina';
import { threadEntryFile } from '../../../jobs/thread-entry.ts';
import type { TSealed } from './seal-pdf.ts';
import type { TSealTask } from './seal-worker.ts';
import type { TSealCheck, TTrustedSeal } from './verify-seal.ts';

/**
 * The thread that seals completed requests and checks uploaded seals, started on first use and
 * stopped when idle. One is enough: sealing is a small part of completing (the renders run on the
 * render threads), and requests complete one after another in the background.
 */
export function createSealPool() {
  let pool: Promise<Piscina<TSealTask, TSealed>> | undefined;
  const start = () =>
    (pool ??= threadEntryFile('src/server/modules/signing/seal/seal-worker.ts').then(
      (filename) => new Piscina<TSealTask, TSealed>({ filename, minThreads: 0, maxThreads: 1, idleTimeout: 30_000 }),
    ));
  return {
    seal: async (task: TSealTask): Promise<TSealed> => (await start()).run(task),
    verify: async (pdf: Uint8Array, trusted: TTrustedSeal[]): Promise<TSealCheck> =>
      (await start()).run({ pdf, trusted } as never, { name: 'verify' }) as unknown as Promise<TSealCheck>,
    async close() {
      if (pool) await (await pool).destroy();
    },
  };
}
export type TSealPool = ReturnType<typeof createSealPool>;
