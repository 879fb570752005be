/**
 * The main thread's handle on the embedded database, which runs on a thread of its own
 * (pglite-thread.ts). It offers what drizzle's PGlite driver and our raw SQL use of a PGlite
 * (`query`, `exec`, `transaction`) and nothing else, so drizzle cannot tell the difference.
 *
 * Why a thread: PGlite is PostgreSQL compiled to WebAssembly, and it runs on whichever thread
 * calls it. Under `bench:api` it took two thirds of the main thread, so every request, and the
 * health check, waited behind whatever query was running. On its own thread a query costs the
 * main thread a message each way; the rows cross by structured clone.
 *
 * Transactions keep PGlite's meaning: while one is open the database runs only its statements,
 * and any other query waits for it to end.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { threadEntryFile } from '../jobs/thread-entry.ts';
import { deserializeError, rawTypesOf, type TPgliteReply, type TPgliteRequest, type TPgliteThreadOptions } from './pglite-messages.ts';

type TRequestBody = TPgliteRequest extends infer R ? (R extends TPgliteRequest ? Omit<R, 'id'> : never) : never;

type TQueries = {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
};

export type TPgliteRemote = TQueries & {
  transaction<T>(work: (tx: TQueries) => Promise<T>): Promise<T>;
  dumpDataDir(compression: 'gzip' | 'none'): Promise<Blob>;
  close(): Promise<void>;
};

let compiledPostgres: Promise<WebAssembly.Module> | undefined;

/**
 * PostgreSQL's WebAssembly (10 MB), compiled once per process and handed to each database thread.
 * A thread left to compile its own spent 0.5 s of processor time on it, a quarter of its start,
 * and a test run opens a fresh embedded database for each test file.
 */
function postgresWasm(): Promise<WebAssembly.Module> {
  // Beside the package's entry point; found through require's resolution, which Vitest's module
  // runner (the test run's global setup) offers where it does not offer import.meta.resolve.
  const wasmFile = path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'pglite.wasm');
  compiledPostgres ??= readFile(wasmFile).then((bytes) => WebAssembly.compile(bytes));
  return compiledPostgres;
}

/**
 * `onLost` hears of a thread that stopped on its own (out of memory, a crash in PostgreSQL): every
 * query from then on fails, so a server should stop and be started again, which recovers the
 * data directory as after a power cut.
 */
export async function openPgliteThread(
  options: Omit<TPgliteThreadOptions, 'wasmModule'>,
  { onLost, heapLimitMb = 128 }: { onLost?: ((error: Error) => void) | undefined; heapLimitMb?: number } = {},
): Promise<TPgliteRemote> {
  const worker = new Worker(await threadEntryFile('src/server/db/pglite-thread.ts'), {
    workerData: { ...options, wasmModule: await postgresWasm() } satisfies TPgliteThreadOptions,
    // Queries and answers are short-lived garbage, made fast under load. V8's defaults let the
    // thread's heap grow by tens of MB before collecting it: 50,000 rows through bench:bulk
    // peaked at 643 MB (median of 3) instead of about 585 MB with these limits. The largest
    // statement the app sends (a batch's staged rows) and any answer (all are paged) fit well
    // within 128 MB.
    resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: heapLimitMb },
    ...(options.loadDataDir ? { transferList: [options.loadDataDir.buffer as ArrayBuffer] } : {}),
  });
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let lastId = 0;
  let gone: Error | undefined;
  const ready = new Promise<void>((resolve, reject) => waiting.set(0, { resolve: () => resolve(), reject }));
  worker.on('message', (reply: TPgliteReply) => {
    const waiter = waiting.get(reply.id);
    if (!waiter) return;
    waiting.delete(reply.id);
    // The thread keeps the process alive only while someone waits for an answer, as a query on
    // this thread would.
    if (waiting.size === 0) worker.unref();
    if (reply.ok) waiter.resolve(reply.value);
    else waiter.reject(deserializeError(reply.error));
  });
  let closing = false;
  const failAll = (error: Error) => {
    if (gone) return;
    gone = error;
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
    if (!closing) onLost?.(error);
  };
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the embedded database's thread stopped (exit code ${code})`)));

  const ask = <T>(body: TRequestBody): Promise<T> => {
    if (gone) return Promise.reject(gone);
    const id = ++lastId;
    if (waiting.size === 0) worker.ref();
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        worker.postMessage({ ...body, id });
      } catch (error) {
        // A value that cannot be copied to the thread (a function among the parameters).
        waiting.delete(id);
        if (waiting.size === 0) worker.unref();
        reject(error as Error);
      }
    });
  };

  const queriesOn = (tx: number | undefined): TQueries => ({
    query: (text, params, queryOptions) => {
      const rawTypes = rawTypesOf(queryOptions?.parsers);
      return ask({
        op: 'query',
        text,
        ...(params && params.length > 0 ? { params } : {}),
        ...(queryOptions?.rowMode ? { rowMode: queryOptions.rowMode } : {}),
        ...(rawTypes ? { rawTypes } : {}),
        ...(tx === undefined ? {} : { tx }),
      });
    },
    exec: (text) => ask({ op: 'exec', text, ...(tx === undefined ? {} : { tx }) }),
  });

  try {
    await ready;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  const top = queriesOn(undefined);
  let closed: Promise<void> | undefined;
  return {
    ...top,
    async transaction(work) {
      const tx = await ask<number>({ op: 'begin' });
      let result;
      try {
        result = await work(queriesOn(tx));
      } catch (error) {
        // The work's error is the one to report; a rollback that fails ends the transaction too.
        await ask({ op: 'end', tx, commit: false }).catch(() => {});
        throw error;
      }
      await ask({ op: 'end', tx, commit: true });
      return result;
    },
    async dumpDataDir(compression) {
      return new Blob([await ask<Uint8Array<ArrayBuffer>>({ op: 'dump', compression })]);
    },
    close() {
      closed ??= (async () => {
        closing = true;
        try {
          // PGlite closes its files cleanly first; the thread goes either way.
          if (!gone) await ask({ op: 'close' });
        } finally {
          await worker.terminate();
        }
      })();
      return closed;
    },
  };
}
