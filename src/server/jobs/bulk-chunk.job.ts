/**
 * The bulk generation job: one queue message per chunk of a bulk job's rows (a range of their
 * sequence numbers). Chunks are idempotent (see the bulk repository's commitChunk), so a chunk
 * that runs twice, after a crash or a re-queue at start-up, adds nothing twice.
 */
import { z } from 'zod';
import { ensureQueue, type TJobQueue } from './queue.ts';

export const BULK_CHUNK_QUEUE = 'bulk-chunk';
/** Rows per message: large enough that queue overhead is small, small enough to spread over workers. */
export const BULK_CHUNK_ROWS = 250;

export const ZBulkChunkPayload = z.object({
  ownerId: z.string().min(1),
  jobId: z.string().min(1),
  fromSeq: z.number().int().min(0),
  toSeq: z.number().int().min(1),
});
export type TBulkChunkPayload = z.infer<typeof ZBulkChunkPayload>;

export type TBulkChunkSender = { send(payloads: TBulkChunkPayload[]): Promise<void> };

/** Chunk payloads covering the given sequence numbers (sorted), one per BULK_CHUNK_ROWS block. */
export function chunksFor(ownerId: string, jobId: string, seqs: readonly number[]): TBulkChunkPayload[] {
  const starts = new Set(seqs.map((s) => s - (s % BULK_CHUNK_ROWS)));
  return [...starts].sort((a, b) => a - b).map((fromSeq) => ({ ownerId, jobId, fromSeq, toSeq: fromSeq + BULK_CHUNK_ROWS }));
}

/**
 * Workers take the highest priority first, then the oldest. A chunk's priority falls with its
 * place in its job, so jobs share the workers turn by turn: a 20-row batch started while a
 * 50,000-row one runs is done after one chunk of waiting, not after the whole large job. The
 * priority comes from the chunk itself, so chunks queued again after a restart keep their turn.
 */
export function chunkPriority(chunk: TBulkChunkPayload): number {
  return -Math.floor(chunk.fromSeq / BULK_CHUNK_ROWS);
}

export async function createBulkChunkSender(queue: TJobQueue): Promise<TBulkChunkSender & { notifyLocalWorkers(): void; workerIds: string[] }> {
  await queue.start();
  await ensureQueue(queue, BULK_CHUNK_QUEUE);
  const workerIds: string[] = [];
  const notifyLocalWorkers = () => {
    for (const id of workerIds) queue.boss.notifyWorker(id);
  };
  return {
    workerIds,
    notifyLocalWorkers,
    async send(payloads) {
      if (payloads.length === 0) return;
      await queue.boss.insert(payloads.map((data) => ({ name: BULK_CHUNK_QUEUE, data, priority: chunkPriority(data) })));
      notifyLocalWorkers();
    },
  };
}

/**
 * Starts `concurrency` fetch loops in this process. Each takes one chunk at a time; with a few
 * more loops than render threads, the pool stays busy while a loop waits on the database.
 */
export async function workBulkChunks(
  queue: TJobQueue,
  sender: { workerIds: string[] },
  concurrency: number,
  handle: (payload: TBulkChunkPayload) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < concurrency; i++) {
    let id = '';
    id = await queue.boss.work<TBulkChunkPayload>(
      BULK_CHUNK_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: 0.5 },
      async (jobs) => {
        for (const job of jobs) await handle(ZBulkChunkPayload.parse(job.data));
        // Fetch the next chunk at once instead of sleeping out the polling interval; when the
        // queue is empty the loop finds nothing and sleeps as usual.
        if (id) setImmediate(() => queue.boss.notifyWorker(id));
      },
    );
    sender.workerIds.push(id);
  }
}
