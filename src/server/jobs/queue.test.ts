/**
 * Creating a queue while other processes create it too. On PostgreSQL pg-boss's create_queue can
 * deadlock with itself; each caller here has its own connection, like a server and its
 * `npm run worker`s starting together.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '../db/client.ts';
import { createTestApp, type TTestApp } from '../test/test-app.ts';
import { createJobQueue, ensureQueue, type TJobQueue } from './queue.ts';

const silent = { error: () => {}, warn: () => {} };
let t: TTestApp;
const opened: { database: TDatabase; queue: TJobQueue }[] = [];

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'silent' }, { workBulkChunks: false });
  const callers = t.databaseUrl ? 4 : 1;
  for (let i = 0; i < callers; i++) {
    const database = t.databaseUrl ? await openDatabase({ driver: 'postgres', url: t.databaseUrl, poolSize: 2 }) : t.database;
    const queue = createJobQueue(database, silent);
    await queue.start();
    opened.push({ database, queue });
  }
});
afterAll(async () => {
  for (const { database, queue } of opened) {
    await queue.stop();
    if (database !== t.database) await database.close();
  }
  await t.close();
});

it('creates a queue exactly once when several callers race to create it', async () => {
  for (let round = 0; round < 5; round++) {
    const name = `race-${round}`;
    await Promise.all(opened.map(({ queue }) => ensureQueue(queue, name)));
    await Promise.all(opened.map(({ queue }) => ensureQueue(queue, name)));
    const queues = (await opened[0]!.queue.boss.getQueues()).filter((q) => q.name === name);
    expect(queues).toHaveLength(1);
    const id = await opened[0]!.queue.boss.send(name, { round });
    expect(id).toBeTruthy();
  }
});
