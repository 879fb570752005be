import { Piscina } from 'piscina';
import { AppError } from '../../http/app-error.ts';
import { threadEntryFile } from '../../jobs/thread-entry.ts';
import type { TImportOutcome, TImportTask } from './import-worker.ts';

/** What one import may use; past either, its thread is stopped. */
export type TImportLimits = { timeMs: number; memoryMb: number };
export const IMPORT_LIMITS: TImportLimits = { timeMs: 20_000, memoryMb: 384 };
/** Conversions are CPU-bound; a few at a time keep the other threads and the server responsive. */
const MAX_CONCURRENT_IMPORTS = 2;

/** Imports run on threads of their own, with a memory ceiling and a wall clock. */
export function createImportPool(limits: TImportLimits = IMPORT_LIMITS) {
  let pool: Promise<Piscina<TImportTask, TImportOutcome>> | undefined;
  const start = () =>
    (pool ??= threadEntryFile('src/server/modules/template-import/import-worker.ts').then(
      (filename) =>
        new Piscina<TImportTask, TImportOutcome>({
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
      const signal = AbortSignal.timeout(limits.timeMs);
      let outcome: TImportOutcome;
      try {
        outcome = await (await start()).run(task, { signal });
      } catch (error) {
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
