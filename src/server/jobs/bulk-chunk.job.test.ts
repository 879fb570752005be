/**
 * The order in which workers take chunks: jobs share the workers turn by turn instead of first
 * come, first served, so a small batch is not stuck behind a large one.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../test/test-app.ts';
import { BULK_CHUNK_QUEUE, BULK_CHUNK_ROWS, chunksFor, createBulkChunkSender, type TBulkChunkPayload } from './bulk-chunk.job.ts';
import { createJobQueue, type TJobQueue } from './queue.ts';

let t: TTestApp;
let queue: TJobQueue;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'silent' }, { workBulkChunks: false });
  queue = createJobQueue(t.database, { error: () => {}, warn: () => {} });
});
afterAll(async () => {
  await queue.stop();
  await t.close();
});

const seqs = (rows: number) => Array.from({ length: rows }, (_, i) => i);

it('a batch started behind a large one gets the next free worker, and the large one goes on after', async () => {
  const sender = await createBulkChunkSender(queue);
  await sender.send(chunksFor('owner-a', 'large', seqs(4 * BULK_CHUNK_ROWS)));
  await sender.send(chunksFor('owner-b', 'small', seqs(20)));
  await sender.send(chunksFor('owner-c', 'medium', seqs(2 * BULK_CHUNK_ROWS)));

  const taken: string[] = [];
  for (;;) {
    const [job] = await queue.boss.fetch<TBulkChunkPayload>(BULK_CHUNK_QUEUE, { batchSize: 1, priority: true });
    if (!job) break;
    taken.push(`${job.data.jobId}:${job.data.fromSeq / BULK_CHUNK_ROWS}`);
    await queue.boss.complete(BULK_CHUNK_QUEUE, job.id);
  }
  expect(taken).toEqual(['large:0', 'small:0', 'medium:0', 'large:1', 'medium:1', 'large:2', 'large:3']);
});
