import { Piscina } from 'piscina';
import { AppError } from '../../http/app-error.ts';
import { threadEntryFile } from '../../jobs/thread-entry.ts';
import { MessageChannel } from 'node:worker_threads';
import type { TImportOutcome, TImportTask, TImportThreadTask } from './import-worker.ts';

/** What one import may use; past either, its thread is stopped. */
export type TImportLimits = { timeMs: number; memoryMb: number };
export const IMPORT_LIMITS: TImportLimits = { timeMs: 20_000, memoryMb: 384 };
/** How long an import may wait for a thread to take it: other imports, or a thread starting on a busy machine. */
const MAX_WAIT_FOR_THREAD_MS = 60_000;
/** Conversions are CPU-bound; a few at a time keep the other threads and the server responsive. */
const MAX_CONCURRENT_IMPORTS = 2;

/** Imports run on threads of their own, with a memory ceiling and a wall clock. */
export function createImportPool(limits: TImportLimits = IMPORT_LIMITS) {
  let pool: Promise<Piscina<TImportThreadTask, TImportOutcome>> | undefined;
  const start = () =>
    (pool ??= threadEntryFile('src/server/modules/template-import/import-worker.ts').then(
      (filename) =>
        new Piscina<TImportThreadTask, TImportOutcome>({
          filename,
          minThreads: 0,
          maxThreads: MAX_CONCURRENT_IMPORTS,
          idleTimeout: 10_000,
          concurrentTasksPerWorker: 1,
          resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 32 },
        }),
    ));

  return {
    async convert(task: TImportTask): Promise<Extract<TImportOutcome, { ok: true }>> {
      // The clock starts when the thread takes the task: a thread that is still starting (after one
      // was stopped, on a busy machine) or an import waiting its turn is not the file's fault.
      const stop = new AbortController();
      const { signal } = stop;
      const { port1: heard, port2: started } = new MessageChannel();
      let waited = false;
      let clock = setTimeout(() => {
        waited = true;
        stop.abort();
      }, MAX_WAIT_FOR_THREAD_MS);
      heard.once('message', () => {
        heard.close();
        clearTimeout(clock);
        clock = setTimeout(() => stop.abort(), limits.timeMs);
      });
      let outcome: TImportOutcome;
      try {
        outcome = await (await start()).run({ ...task, started }, { signal, transferList: [started] });
      } catch (error) {
        if (waited) throw new AppError('unavailable', 'The server is too busy to import this file now. Please try again in a minute.');
        if (signal.aborted) {
          throw new AppError(
            'unprocessable',
            `This file took longer than ${limits.timeMs / 1000} seconds to import and was stopped. Import a simpler or shorter version of it.`,
          );
        }
        if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory/i.test((error as Error).message)) {
          throw new AppError(
            'unprocessable',
            'This file needs more memory to import than an import may use, so it was stopped. Import a simpler or shorter version of it.',
          );
        }
        throw error;
      } finally {
        clearTimeout(clock);
        heard.close();
      }
      if (!outcome.ok) throw new AppError(outcome.code, outcome.message, outcome.fields);
      return outcome;
    },
    async close() {
      if (pool) await (await pool).destroy();
    },
  };
}
export type TImportPool = ReturnType<typeof createImportPool>;
