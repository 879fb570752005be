/**
 * The worker-thread pool that renders bulk documents, sized to the cores, so a web process keeps
 * answering requests while a job runs. Threads load render-worker.ts as bundled by thread-entry.ts.
 */
import os from 'node:os';
import { Piscina } from 'piscina';
import { threadEntryFile } from './thread-entry.ts';
import type { TDataResult, TDataTask, TRenderBatchResult, TRenderBatchTask } from './render-worker.ts';

/** Idle time after which a render thread stops; longer than any pause between a job's chunks. */
const RENDER_THREAD_IDLE_MS = 2_000;

export type TRenderPool = {
  threads: number;
  /** Aborting `signal` while the task runs stops its thread; the promise then rejects. */
  render(task: TRenderBatchTask, signal?: AbortSignal): Promise<TRenderBatchResult>;
  /** Checks or prepares a document's data (render-worker.ts `prepareData`) on a thread. */
  prepareData<T extends TDataTask>(task: T): Promise<TDataResult<T['kind']>>;
  close(): Promise<void>;
};

type TRenderPoolOptions = { threads?: number; minThreads?: number; idleTimeoutMs?: number; youngGenerationMb?: number };

/**
 * A bulk job's threads: a small young generation, so 50,000 rows stay within the server's memory
 * budget (docs/server-capacity.md, "Memory at 50,000 rows").
 */
const BULK_YOUNG_GENERATION_MB = 8;

/**
 * The threads that render single documents (a preview, a generation, a download), kept warm.
 *
 * Each document is its own task there, and with bulk's 8 MB young generation a thread collected
 * its young generation about once a document, in the middle of the next one: what the render was
 * still using survived, was promoted, and filled the old generation, which then needed full
 * collections. With 32 MB, bench:api on the embedded database made 443–524 documents a second at
 * 3.5–4.1 ms of the server's CPU each, against 289–389 at 4.7–6.1 ms with 8 MB, alternately
 * (docs/server-capacity.md, "Where it stands"). Bulk keeps 8 MB: there the same change cost
 * 100 MB of peak memory at 50,000 rows.
 */
export const INTERACTIVE_RENDER_POOL = { minThreads: 1, idleTimeoutMs: 60_000, youngGenerationMb: 32 } satisfies TRenderPoolOptions;

export async function createRenderPool(options: TRenderPoolOptions = {}): Promise<TRenderPool> {
  const threads = Math.max(1, options.threads ?? os.availableParallelism());
  const pool = new Piscina<TRenderBatchTask, TRenderBatchResult>({
    filename: await threadEntryFile('src/server/jobs/render-worker.ts'),
    // Threads start with work and stop after a few idle seconds, so a server between jobs (or
    // sending a batch's ZIP) does not keep every thread's heap resident.
    minThreads: options.minThreads ?? 0,
    maxThreads: threads,
    idleTimeout: options.idleTimeoutMs ?? RENDER_THREAD_IDLE_MS,
    // Render batches are CPU-bound: one per thread at a time, the rest wait in the queue.
    concurrentTasksPerWorker: 1,
    // Rendering makes short-lived garbage fast, and V8's default young generation (tens of MB
    // per thread) fills up between scavenges: 8 MB lowered bench:bulk's peak memory at the same
    // speed.
    resourceLimits: { maxYoungGenerationSizeMb: options.youngGenerationMb ?? BULK_YOUNG_GENERATION_MB },
  });
  return {
    threads,
    render: (task, signal) => pool.run(task, { name: 'renderOnPool', ...(signal ? { signal } : {}) }),
    prepareData: (task) => pool.run(task as never, { name: 'prepareData' }) as never,
    close: () => pool.close({ force: true }),
  };
}
