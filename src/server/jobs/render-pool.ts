/**
 * The worker-thread pool that renders bulk documents, sized to the cores, so a web process keeps
 * answering requests while a job runs. Threads load a bundled render-worker.mjs: beside the server
 * bundle in production, or bundled on first use from the TypeScript source in development and
 * tests (worker threads do not inherit a TypeScript loader).
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { TRenderBatchResult, TRenderBatchTask } from './render-worker.ts';

/** Idle time after which a render thread stops; longer than any pause between a job's chunks. */
const RENDER_THREAD_IDLE_MS = 2_000;

export type TRenderPool = {
  threads: number;
  /** Aborting `signal` while the task runs stops its thread; the promise then rejects. */
  render(task: TRenderBatchTask, signal?: AbortSignal): Promise<TRenderBatchResult>;
  close(): Promise<void>;
};

async function workerFile(): Promise<string> {
  const here = fileURLToPath(import.meta.url);
  const bundled = path.join(path.dirname(here), 'render-worker.mjs');
  if (here.endsWith('.mjs') && existsSync(bundled)) return bundled;
  const { bundleForNode, PROJECT_ROOT } = await import('../../../scripts/build-server.ts');
  // One file per process: test files run in parallel processes and must not overwrite each other.
  const out = path.join(PROJECT_ROOT, `node_modules/.cache/formwork/render-worker-${process.pid}.mjs`);
  await bundleForNode(path.join(PROJECT_ROOT, 'src/server/jobs/render-worker.ts'), out);
  return out;
}

export async function createRenderPool(
  options: { threads?: number; minThreads?: number; idleTimeoutMs?: number } = {},
): Promise<TRenderPool> {
  const threads = Math.max(1, options.threads ?? os.availableParallelism());
  const pool = new Piscina<TRenderBatchTask, TRenderBatchResult>({
    filename: await workerFile(),
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
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  return {
    threads,
    render: (task, signal) => pool.run(task, signal ? { signal } : {}),
    close: () => pool.close({ force: true }),
  };
}
