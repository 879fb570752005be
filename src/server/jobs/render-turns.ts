import type { TRenderWarning } from '../../render/index.ts';
import { createBoundedLru } from './bounded-lru.ts';
import type { TRenderPool } from './render-pool.ts';
import type { TRenderBatchTask } from './render-worker.ts';

/*
 * Turns on the render threads for single documents and data checks.
 *
 * Fair: a thread that comes free serves the next user in rotation, so a user alone gets every
 * thread, and one user with hundreds of requests waiting delays another user's by at most one task
 * per thread.
 *
 * Grouped: a task sent to a render thread costs about 0.35 ms of CPU on top of its renders (the
 * message each way, waking the thread, the answer's transfer), a third again of a one-page
 * document's 1 ms. So when a user's turn comes, that user's other documents of the same format
 * that are waiting go to the thread in the same task: at most MAX_RENDERS_A_TASK, and at most what
 * the format renders in GROUP_MS by its last tasks. A task stops starting documents once it has run
 * for twice that and hands the rest back to wait for the user's next turn, so a group holds a
 * thread at most that long plus one document's render, the wait a lone document could cause.
 * At low load a thread is free and each document goes alone, at once (docs/server-capacity.md).
 */

export type TRenderItem = TRenderBatchTask['items'][number];

export type TGroupedRender = {
  /**
   * Renders of one group may share a task: the same format kept on the threads and the same
   * images (so one task's inputs serve them all). Undefined: always alone.
   */
  group: string | undefined;
  format: TRenderBatchTask['format'];
  assets: TRenderBatchTask['assets'];
  assetKeys?: TRenderBatchTask['assetKeys'];
  item: TRenderItem;
  /** The cache file the thread writes when the render was costly to make again. */
  cacheFile?: string;
};

export type TGroupedRenderResult = { pdf: Uint8Array; sha256: string; warnings: TRenderWarning[] };

/** The user already has as many renders waiting as one may. */
export class TooManyWaitingError extends Error {}
/** A render stopped because it ran past its budget. */
export class RenderOverBudgetError extends Error {}
/** A task that waited too long for its thread to start it (one starting after another was stopped). */
export class RenderWaitedTooLongError extends Error {}

/** The most documents a task carries: past a few, a task's own cost is already small beside its renders. */
export const MAX_RENDERS_A_TASK = 8;
/** A task carries at most as many documents as their format renders in this long, by what its last tasks took. */
export const GROUP_MS = 20;
/** How much the last task moves a group's measured time per document. */
const SMOOTHING = 0.3;

type TRenderEntry = TGroupedRender & {
  kind: 'render';
  /** Failed in a task with others: goes alone next, so that it gets an outcome of its own. */
  alone: boolean;
  resolve: (result: TGroupedRenderResult) => void;
  reject: (error: unknown) => void;
};
/** Other work on a thread, such as a data check: always a task of its own. */
type TWorkEntry = { kind: 'work'; run: () => Promise<() => void> };
type TEntry = TRenderEntry | TWorkEntry;

export function createRenderTurns(deps: {
  pool: () => Promise<TRenderPool>;
  threads: number;
  budgetMs: number;
  /** How long a task sent to the pool may wait for its thread to start it. */
  maxWaitMs: number;
  /** Entries one user may have waiting; past it, TooManyWaitingError at once. */
  maxWaitingPerOwner: number;
  groupMs?: number;
  taskShareMs?: number;
}) {
  const groupMs = deps.groupMs ?? GROUP_MS;
  // A task with several documents starts no more of them after twice what it was sized for, so a
  // group that renders slower than measured holds its thread briefly; the rest wait again.
  const taskShareMs = deps.taskShareMs ?? 2 * groupMs;
  let running = 0;
  // Insertion order is the rotation: an owner who is served moves to the back.
  const waiting = new Map<string, TEntry[]>();
  // Milliseconds per document of each group's last tasks; a group not yet measured goes alone.
  const msPerItem = createBoundedLru<string, number>({ maxEntries: 1024, maxSize: 1024 });
  const checkEveryMs = Math.max(10, Math.min(250, deps.budgetMs / 10));

  function itemsFor(entry: TRenderEntry): number {
    if (entry.alone || entry.group === undefined) return 1;
    const ms = msPerItem.get(entry.group);
    if (ms === undefined) return 1;
    return Math.max(1, Math.min(MAX_RENDERS_A_TASK, Math.floor(groupMs / Math.max(ms, 0.01))));
  }

  function measured(group: string | undefined, ms: number): void {
    if (group === undefined) return;
    const before = msPerItem.get(group);
    msPerItem.set(group, before === undefined ? ms : before + SMOOTHING * (ms - before), 1);
  }

  function enqueue(owner: string, entries: TEntry[], first: boolean): void {
    // An owner in the rotation always has something waiting.
    if (entries.length === 0) return;
    const queue = waiting.get(owner) ?? [];
    if (first) queue.unshift(...entries);
    else queue.push(...entries);
    if (!waiting.has(owner)) waiting.set(owner, queue);
  }

  function pump(): void {
    while (running < deps.threads) {
      const next = waiting.entries().next();
      if (next.done) return;
      const [owner, queue] = next.value;
      const head = queue.shift()!;
      let task: () => Promise<() => void>;
      if (head.kind === 'work') task = head.run;
      else {
        const batch = [head];
        // Never more than the owner's share of the threads: a burst that waits for one busy thread
        // goes on every thread that comes free, not all on the first.
        const most = Math.min(itemsFor(head), Math.ceil((queue.length + 1) / deps.threads));
        for (let i = 0; i < queue.length && batch.length < most;) {
          const other = queue[i]!;
          if (other.kind === 'render' && !other.alone && other.group === head.group) batch.push(...(queue.splice(i, 1) as TRenderEntry[]));
          else i++;
        }
        task = () => runBatch(owner, batch);
      }
      waiting.delete(owner);
      if (queue.length > 0) waiting.set(owner, queue);
      running++;
      // What each caller hears is told only once the thread is handed on, so a caller that sends
      // its next request straight away finds the thread as free as it would be.
      // A task never rejects (it turns every failure into its callers' outcome) and its settle
      // only resolves or rejects them, so the thread is always handed on and every caller told.
      void task().then((settle) => {
        try {
          running--;
          pump();
        } finally {
          settle();
        }
      });
    }
  }

  async function runBatch(owner: string, batch: TRenderEntry[]): Promise<() => void> {
    const first = batch[0]!;
    const group = first.alone ? undefined : first.group;
    // One slot a document: the thread stores when it starts each, so the budget is each document's own.
    // One slot a document, and one for when the thread finished (render-worker.ts).
    const startedAt = new BigInt64Array(new SharedArrayBuffer(8 * (batch.length + 1)));
    const finishedAt = () => Atomics.load(startedAt, batch.length);
    const abort = new AbortController();
    let overBudget = -1;
    let waitedTooLong = false;
    const sentAt = Date.now();
    // Checked now and then rather than told: a port per render cost more than the check.
    const watch = setInterval(() => {
      if (finishedAt() !== 0n) return;
      let current = -1;
      for (let i = batch.length - 1; i >= 0 && current === -1; i--) if (Atomics.load(startedAt, i) !== 0n) current = i;
      if (current === -1) {
        // Not started: a thread starting up after another was stopped.
        if (Date.now() - sentAt > deps.maxWaitMs) {
          waitedTooLong = true;
          abort.abort();
        }
      } else if (Date.now() - Number(Atomics.load(startedAt, current)) > deps.budgetMs) {
        overBudget = current;
        abort.abort();
      }
    }, checkEveryMs);
    try {
      const pool = await deps.pool();
      const result = await pool.render(
        {
          format: first.format,
          assets: first.assets,
          ...(first.assetKeys ? { assetKeys: first.assetKeys } : {}),
          items: batch.map((entry) => entry.item),
          returnBytes: true,
          ...(batch.some((entry) => entry.cacheFile) ? { cacheFiles: batch.map((entry) => entry.cacheFile ?? '') } : {}),
          startedAt,
          ...(batch.length > 1 ? { shareMs: taskShareMs } : {}),
        },
        abort.signal,
      );
      const done = result.sha256.length;
      const made = batch
        .slice(0, done)
        .map((entry, i) => ({ entry, result: { pdf: result.bytes![i]!, sha256: result.sha256[i]!, warnings: result.warnings[i] ?? [] } }));
      // Timed on the thread: what the main thread saw would add its own delays under load, when
      // groups matter most.
      measured(group, Number(finishedAt() - Atomics.load(startedAt, 0)) / done);
      // Documents the task had no time left for are the owner's next, as they were before it.
      if (done < batch.length) enqueue(owner, batch.slice(done), true);
      return () => made.forEach(({ entry, result }) => entry.resolve(result));
    } catch (error) {
      if (overBudget >= 0) {
        const culprit = batch[overBudget]!;
        // A document that runs past its budget says nothing of how long its format's others take.
        if (culprit.group !== undefined) msPerItem.delete(culprit.group);
        // The others were not at fault: those before it were made but their bytes went with the thread.
        enqueue(
          owner,
          batch.filter((entry) => entry !== culprit),
          true,
        );
        return () => culprit.reject(new RenderOverBudgetError());
      }
      if (waitedTooLong) return () => batch.forEach((entry) => entry.reject(new RenderWaitedTooLongError()));
      if (batch.length > 1) {
        // One document's data may have made the renderer fail: each alone gets its own outcome.
        for (const entry of batch) entry.alone = true;
        enqueue(owner, batch, true);
        return () => {};
      }
      return () => first.reject(error);
    } finally {
      clearInterval(watch);
    }
  }

  function admit(owner: string, entry: TEntry): void {
    if ((waiting.get(owner)?.length ?? 0) >= deps.maxWaitingPerOwner) throw new TooManyWaitingError();
    enqueue(owner, [entry], false);
    pump();
  }

  return {
    /** Renders one document on a render thread in its owner's turn, alone or with others of its group. */
    render(owner: string, request: TGroupedRender): Promise<TGroupedRenderResult> {
      return new Promise((resolve, reject) => admit(owner, { ...request, kind: 'render', alone: false, resolve, reject }));
    },

    /** Runs `work` (which uses one thread) in its owner's turn. */
    onThread<T>(owner: string, work: (pool: TRenderPool) => Promise<T>): Promise<T> {
      return new Promise((resolve, reject) =>
        admit(owner, {
          kind: 'work',
          run: async () => {
            try {
              const value = await work(await deps.pool());
              return () => resolve(value);
            } catch (error) {
              return () => reject(error);
            }
          },
        }),
      );
    },
  };
}
