/**
 * The order in which workers take chunks: jobs share the workers turn by turn instead of first
 * come, first served, so a small batch is not stuck behind a large one, and no stream of new
 * jobs holds back one already waiting.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { createTestApp, type TTestApp } from '../test/test-app.ts';
import { BULK_CHUNK_QUEUE, BULK_CHUNK_ROWS, chunksFor, createBulkChunkSender, type TBulkChunkPayload } from './bulk-chunk.job.ts';
import { createJobQueue, QUEUE_SCHEMA, type TJobQueue } from './queue.ts';

let t: TTestApp;
let queue: TJobQueue;
let sender: Awaited<ReturnType<typeof createBulkChunkSender>>;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'silent' }, { workBulkChunks: false });
  queue = createJobQueue(t.database, { error: () => {}, warn: () => {} });
  sender = await createBulkChunkSender(queue);
});
beforeEach(async () => {
  await queue.executeSql(`delete from ${QUEUE_SCHEMA}.job where name = $1`, [BULK_CHUNK_QUEUE]);
});
afterAll(async () => {
  await queue.stop();
  await t.close();
});

const queueJob = (jobId: string, chunks: number) =>
  sender.send(
    chunksFor(
      'owner',
      jobId,
      Array.from({ length: chunks * BULK_CHUNK_ROWS }, (_, i) => i),
    ),
  );

/** Takes the next chunk as a worker would, and completes it. */
async function take(): Promise<string | undefined> {
  const [job] = await queue.boss.fetch<TBulkChunkPayload>(BULK_CHUNK_QUEUE, { batchSize: 1, priority: true });
  if (!job) return undefined;
  await queue.boss.complete(BULK_CHUNK_QUEUE, job.id);
  return `${job.data.jobId}:${job.data.fromSeq / BULK_CHUNK_ROWS}`;
}

async function takeAll(): Promise<string[]> {
  const taken: string[] = [];
  for (let next = await take(); next; next = await take()) taken.push(next);
  return taken;
}

it('jobs queued together take turns', async () => {
  await queueJob('large', 4);
  await queueJob('small', 1);
  await queueJob('medium', 2);
  expect(await takeAll()).toEqual(['large:0', 'large:1', 'small:0', 'medium:0', 'large:2', 'medium:1', 'large:3']);
});

it('a job started while another runs goes beside it, not after it, and not in front of it', async () => {
  await queueJob('first', 8);
  const taken = [await take(), await take(), await take()];
  await queueJob('second', 4);
  taken.push(...(await takeAll()));
  expect(taken).toEqual([
    'first:0',
    'first:1',
    'first:2',
    'first:3',
    'first:4',
    'second:0',
    'first:5',
    'second:1',
    'first:6',
    'second:2',
    'first:7',
    'second:3',
  ]);
});

it('a stream of small jobs does not hold back a large one', async () => {
  await queueJob('large', 6);
  const taken: string[] = [];
  for (let i = 0; i < 12; i++) {
    taken.push((await take())!);
    await queueJob(`small-${i}`, 1);
  }
  taken.push(...(await takeAll()));
  const large = taken.flatMap((name, i) => (name.startsWith('large:') ? [i] : []));
  expect(large).toHaveLength(6);
  // One turn for the large job in every round, the rounds holding the small jobs that came meanwhile.
  expect(large.at(-1)).toBeLessThan(12);
  expect(taken.filter((name) => name.startsWith('small-'))).toEqual(Array.from({ length: 12 }, (_, i) => `small-${i}:0`));
});

it(`re-queuing a job sends each chunk not already waiting once, ${process.env.TEST_DATABASE_URL ? 'with four processes at once on PostgreSQL' : 'on the embedded database'}`, async () => {
  await queueJob('resumed', 2);
  // A worker took the first chunk and may have died with it: that one is sent again.
  expect(await queue.boss.fetch(BULK_CHUNK_QUEUE, { batchSize: 1, priority: true })).toHaveLength(1);
  // Server processes starting together each re-queue the job; on PostgreSQL each has its own connections.
  const databases = t.databaseUrl ? await Promise.all([1, 2, 3].map(() => openDatabase({ driver: 'postgres', url: t.databaseUrl!, poolSize: 2 }))) : [];
  const queues = databases.map((database) => createJobQueue(database, { error: () => {}, warn: () => {} }));
  try {
    const senders = [sender, ...(await Promise.all(queues.map((q) => createBulkChunkSender(q))))];
    const seqs = Array.from({ length: 4 * BULK_CHUNK_ROWS }, (_, i) => i);
    await Promise.all(senders.map((s) => s.requeue('owner', 'resumed', seqs)));
    const { rows } = await queue.executeSql(
      `select (data->>'fromSeq')::int as "fromSeq" from ${QUEUE_SCHEMA}.job where name = $1 and state < 'active' order by 1`,
      [BULK_CHUNK_QUEUE],
    );
    expect((rows as { fromSeq: number }[]).map((row) => row.fromSeq / BULK_CHUNK_ROWS)).toEqual([0, 1, 2, 3]);
  } finally {
    for (const q of queues) await q.stop();
    for (const database of databases) await database.close();
  }
});
