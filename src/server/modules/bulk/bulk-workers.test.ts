/**
 * `npm run worker`: on PostgreSQL, separate worker processes take chunks of one job from the
 * queue (here two, while the web app itself takes none); on the embedded database the command
 * refuses clearly, because only the server process may open the data directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZBulkJob, ZBulkUpload } from '../../../contract/bulk.ts';
import { serverBundle } from '../../test/server-bundle.ts';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app.ts';

const workerFile = serverBundle('bulk-workers').worker;
const children: ChildProcess[] = [];
let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'silent' }, { workBulkChunks: false });
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await t.close();
});

function startWorker(env: Record<string, string>) {
  const child = spawn(process.execPath, [workerFile], {
    env: { ...process.env, LOG_LEVEL: 'info', RENDER_THREADS: '1', DATA_DIR: t.config.dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited, output: () => output };
}

async function until(check: () => boolean, what: string, timeoutMs = 90_000, output?: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${output ? `; it printed:\n${output().slice(-4000)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it(
  !process.env.TEST_DATABASE_URL ? 'refuses to start on the embedded database, saying why' : 'shares one job between two worker processes on PostgreSQL',
  async () => {
    if (!t.databaseUrl) {
      const worker = startWorker({ DATABASE_URL: '' });
      expect(await worker.exited).toBe(1);
      expect(worker.output()).toContain('npm run worker needs DATABASE_URL (PostgreSQL)');
      return;
    }
    const workers = [startWorker({ DATABASE_URL: t.databaseUrl }), startWorker({ DATABASE_URL: t.databaseUrl })];
    for (const w of workers) {
      await until(
        () => {
          if (w.child.exitCode !== null) throw new Error(`a worker exited with ${w.child.exitCode}:\n${w.output().slice(-4000)}`);
          return /is taking bulk jobs/.test(w.output());
        },
        'a worker to start',
        90_000,
        w.output,
      );
    }

    const client = new TestClient(t.app);
    await client.signUp();
    await t.database.executeSql(`update workspaces set subscription_plan = 'premium'`);
    const format = (
      await client.post('/api/formats', {
        name: 'Badge',
        content: { elements: [{ id: '1', type: 'heading', content: 'Badge for {{client_name}}' }] },
        placeholders: [{ name: 'client_name', label: 'Client Name', type: 'text', required: true }],
      })
    ).json() as { id: string };
    const csv = ['Client Name', ...Array.from({ length: 1000 }, (_, i) => `Member ${i + 1}`)].join('\n');
    const draft = ZBulkUpload.parse((await client.upload(`/api/formats/${format.id}/bulk`, 'file', 'members.csv', Buffer.from(csv))).json());
    expect((await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false })).statusCode).toBe(202);
    let job = ZBulkJob.parse((await client.get(`/api/bulk-jobs/${draft.id}`)).json());
    const poll = setInterval(async () => {
      job = ZBulkJob.parse((await client.get(`/api/bulk-jobs/${draft.id}`)).json());
    }, 100);
    try {
      await until(() => job.status === 'completed', 'the job to complete');
    } finally {
      clearInterval(poll);
    }
    expect(job).toMatchObject({ done: 1000, failed: 0 });
    // Both processes did part of it.
    for (const w of workers) expect(w.output()).toMatch(/bulk chunk done/);
  },
  180_000,
);
