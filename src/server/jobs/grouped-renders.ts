import type { TRenderWarning } from '../../render/index.ts';
import { createBoundedLru } from './bounded-lru.ts';
import type { TRenderPool } from './render-pool.ts';
import type { TRenderBatchTask } from './render-worker.ts';

/*
 * Renders that wait for a thread go to it together. A task sent to a render thread costs about
 * 0.35 ms of CPU on top of its renders (the message each way, waking the thread, the answer's
 * transfer), a third again of a one-page document's 1 ms; the render pool's own rate, which the
 * API is measured against, sends 250 documents a task. So under load, documents of one format
 * that wait while every thread is busy are sent as one task of several, and at low load each goes
 * alone, at once, as before (docs/server-capacity.md).
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

/** A render stopped because it ran past its budget; the others in its task are tried again alone. */
export class RenderOverBudgetError extends Error {}
/** A render that waited too long for a thread (all busy, or one starting after another was stopped). */
export class RenderWaitedTooLongError extends Error {}

/** At most this many documents a task, */
export const MAX_RENDERS_A_TASK = 8;
/**
 * and at most as many as its format renders in this long, by what its last tasks took: a thread
 * held by a group keeps others waiting as long as the group takes, so a slow format goes alone.
 */
export const GROUP_MS = 20;
/** How much the last task moves a group's measured time per document. */
const SMOOTHING = 0.3;

type TWaiting = TGroupedRender & {
  enqueuedAt: number;
  alone: boolean;
  resolve: (result: TGroupedRenderResult) => void;
  reject: (error: unknown) => void;
  waitTimer?: ReturnType<typeof setTimeout>;
};

export function createGroupedRenders(deps: { pool: () => Promise<TRenderPool>; threads: number; budgetMs: number; maxWaitMs: number; groupMs?: number }) {
  const groupMs = deps.groupMs ?? GROUP_MS;
  const waiting: TWaiting[] = [];
  let running = 0;
  // Milliseconds per document of each group's last tasks; a group not yet measured goes alone.
  const msPerItem = createBoundedLru<string, number>({ maxEntries: 1024, maxSize: 1024 });
  const checkEveryMs = Math.max(10, Math.min(250, deps.budgetMs / 10));

  function itemsFor(group: string | undefined): number {
    if (group === undefined) return 1;
    const ms = msPerItem.get(group);
    if (ms === undefined) return 1;
    return Math.max(1, Math.min(MAX_RENDERS_A_TASK, Math.floor(groupMs / Math.max(ms, 0.01))));
  }

  function measured(group: string | undefined, ms: number): void {
    if (group === undefined) return;
    const before = msPerItem.get(group);
    msPerItem.set(group, before === undefined ? ms : before + SMOOTHING * (ms - before), 1);
  }

  function pump(): void {
    while (running < deps.threads && waiting.length > 0) {
      const head = waiting.shift()!;
      const group = head.alone ? undefined : head.group;
      const batch = [head];
      const most = itemsFor(group);
      for (let i = 0; i < waiting.length && batch.length < most;) {
        const other = waiting[i]!;
        if (!other.alone && other.group === group) batch.push(...waiting.splice(i, 1));
        else i++;
      }
      for (const item of batch) clearTimeout(item.waitTimer);
      running++;
      void run(batch);
    }
  }

  /** Tries each again alone, ahead of those that came later, as if each had been sent alone. */
  function again(batch: TWaiting[]): void {
    for (const item of batch) item.alone = true;
    waiting.unshift(...batch);
  }

  async function run(batch: TWaiting[]): Promise<void> {
    const first = batch[0]!;
    // One slot a document: the thread stores when it starts each, so the budget is each document's own.
    const startedAt = new BigInt64Array(new SharedArrayBuffer(8 * batch.length));
    const abort = new AbortController();
    let overBudget = -1;
    let waitedTooLong = false;
    const oldest = Math.min(...batch.map((item) => item.enqueuedAt));
    // Checked now and then rather than told: a port per render cost more than the check.
    const watch = setInterval(() => {
      let current = -1;
      for (let i = batch.length - 1; i >= 0; i--) {
        if (Atomics.load(startedAt, i) !== 0n) {
          current = i;
          break;
        }
      }
      if (current === -1) {
        // Not started: a thread starting up after another was stopped. Still waiting, then.
        if (Date.now() - oldest > deps.maxWaitMs) {
          waitedTooLong = true;
          abort.abort();
        }
      } else if (Date.now() - Number(Atomics.load(startedAt, current)) > deps.budgetMs) {
        overBudget = current;
        abort.abort();
      }
    }, checkEveryMs);
    const sentAt = performance.now();
    // What each caller hears, told only once the thread is handed on: a caller that sends its
    // next document straight away then finds the thread free, as it would without grouping.
    let settle: () => void;
    try {
      const pool = await deps.pool();
      const task: TRenderBatchTask = {
        format: first.format,
        assets: first.assets,
        ...(first.assetKeys ? { assetKeys: first.assetKeys } : {}),
        items: batch.map((item) => item.item),
        returnBytes: true,
        ...(batch.some((item) => item.cacheFile) ? { cacheFiles: batch.map((item) => item.cacheFile ?? '') } : {}),
        startedAt,
      };
      const result = await pool.render(task, abort.signal);
      measured(first.alone ? undefined : first.group, (performance.now() - sentAt) / batch.length);
      settle = () => batch.forEach((item, i) => item.resolve({ pdf: result.bytes![i]!, sha256: result.sha256[i]!, warnings: result.warnings[i] ?? [] }));
    } catch (error) {
      if (overBudget >= 0) {
        const culprit = batch[overBudget]!;
        // A document that runs past its budget says nothing of how long its format's others take.
        if (culprit.group !== undefined) msPerItem.delete(culprit.group);
        again(batch.filter((item) => item !== culprit));
        settle = () => culprit.reject(new RenderOverBudgetError());
      } else if (waitedTooLong) {
        settle = () => batch.forEach((item) => item.reject(new RenderWaitedTooLongError()));
      } else if (batch.length > 1) {
        // One document's data may have made the renderer fail: each alone gets its own outcome.
        again(batch);
        settle = () => {};
      } else settle = () => first.reject(error);
    } finally {
      clearInterval(watch);
      running--;
      pump();
    }
    settle();
  }

  return {
    /** Renders one document on a render thread, alone or with others of its group that wait too. */
    render(request: TGroupedRender): Promise<TGroupedRenderResult> {
      return new Promise((resolve, reject) => {
        const item: TWaiting = { ...request, enqueuedAt: Date.now(), alone: false, resolve, reject };
        item.waitTimer = setTimeout(() => {
          const at = waiting.indexOf(item);
          if (at === -1) return;
          waiting.splice(at, 1);
          reject(new RenderWaitedTooLongError());
        }, deps.maxWaitMs);
        waiting.push(item);
        pump();
      });
    },
  };
}
