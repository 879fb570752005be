/**
 * The bulk generation job: one queue message per chunk of a bulk job's rows (a range of their
 * sequence numbers). Chunks are idempotent (see the bulk repository's commitChunk), so a chunk
 * that runs twice, after a crash or a re-queue at start-up, adds nothing twice.
 */
import { z } from 'zod';
import { ensureQueue, QUEUE_SCHEMA, type TJobQueue } from './queue.ts';

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

export type TBulkChunkSender = {
  send(payloads: TBulkChunkPayload[]): Promise<void>;
  /** Sends those of one job's chunks that are not already waiting in the queue (see requeue). */
  requeue(ownerId: string, jobId: string, seqs: readonly number[]): Promise<void>;
};

/** Chunk payloads covering the given sequence numbers (sorted), one per BULK_CHUNK_ROWS block. */
export function chunksFor(ownerId: string, jobId: string, seqs: readonly number[]): TBulkChunkPayload[] {
  const starts = new Set(seqs.map((s) => s - (s % BULK_CHUNK_ROWS)));
  return [...starts].sort((a, b) => a - b).map((fromSeq) => ({ ownerId, jobId, fromSeq, toSeq: fromSeq + BULK_CHUNK_ROWS }));
}

/**
 * Workers take the highest priority first, then the oldest. Jobs share the workers turn by turn:
 * each round of turns is one priority, and a job gets one chunk per round. A new job (or one
 * queued again after a restart) joins from the round after the one being served, behind the
 * chunks already waiting there. So a 20-row batch started while a 50,000-row one runs waits for
 * about two chunks, the large one goes on beside it, and no stream of new jobs can hold back a
 * job that is already waiting.
 */
export function chunkPriorities(chunks: readonly TBulkChunkPayload[], firstRound: number): number[] {
  const turns = new Map<string, number>();
  return chunks.map((chunk) => {
    const turn = turns.get(chunk.jobId) ?? 0;
    turns.set(chunk.jobId, turn + 1);
    return firstRound - turn;
  });
}

/** The round after the one being served (the highest priority still waiting); 0 when none waits. */
async function nextRound(queue: TJobQueue): Promise<number> {
  const { rows } = await queue.executeSql(`select coalesce(max(priority) - 1, 0)::int as round from ${QUEUE_SCHEMA}.job where name = $1 and state < 'active'`, [
    BULK_CHUNK_QUEUE,
  ]);
  return (rows[0] as { round: number }).round;
}

/** The first sequence numbers of a job's chunks that wait in the queue (not yet taken by a worker). */
async function waitingChunkStarts(queue: TJobQueue, jobId: string): Promise<Set<number>> {
  const { rows } = await queue.executeSql(
    `select distinct (data->>'fromSeq')::int as "fromSeq" from ${QUEUE_SCHEMA}.job where name = $1 and state < 'active' and data->>'jobId' = $2`,
    [BULK_CHUNK_QUEUE, jobId],
  );
  return new Set((rows as { fromSeq: number }[]).map((row) => row.fromSeq));
}

export async function createBulkChunkSender(queue: TJobQueue): Promise<TBulkChunkSender & { notifyLocalWorkers(): void; workerIds: string[] }> {
  await queue.start();
  await ensureQueue(queue, BULK_CHUNK_QUEUE);
  const workerIds: string[] = [];
  const notifyLocalWorkers = () => {
    for (const id of workerIds) queue.boss.notifyWorker(id);
  };
  async function send(payloads: TBulkChunkPayload[]) {
    if (payloads.length === 0) return;
    const priorities = chunkPriorities(payloads, await nextRound(queue));
    await queue.boss.insert(payloads.map((data, i) => ({ name: BULK_CHUNK_QUEUE, data, priority: priorities[i] })));
    notifyLocalWorkers();
  }
  return {
    workerIds,
    notifyLocalWorkers,
    send,
    /**
     * Every server process re-queues unfinished jobs when it starts (WEB_CONCURRENCY processes
     * start together, and one that died is started again while the others work). A chunk still
     * waiting in the queue will run anyway: sending it again would only make a duplicate that
     * finds its rows done. Processes take turns on a lock, so each sees what the one before sent.
     * A chunk a worker has taken is sent again: the worker may be the one that died, and a chunk
     * that runs twice adds nothing twice.
     */
    async requeue(ownerId, jobId, seqs) {
      await queue.exclusively(`formwork:bulk-requeue:${jobId}`, async () => {
        const waiting = await waitingChunkStarts(queue, jobId);
        await send(chunksFor(ownerId, jobId, seqs).filter((chunk) => !waiting.has(chunk.fromSeq)));
      });
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
    id = await queue.boss.work<TBulkChunkPayload>(BULK_CHUNK_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      for (const job of jobs) await handle(ZBulkChunkPayload.parse(job.data));
      // Fetch the next chunk at once instead of sleeping out the polling interval; when the
      // queue is empty the loop finds nothing and sleeps as usual.
      if (id) setImmediate(() => queue.boss.notifyWorker(id));
    });
    sender.workerIds.push(id);
  }
}
