/**
 * Crash safety, end to end: a real server process on the embedded database is killed with
 * SIGKILL in the middle of a bulk job, started again on the same data directory, and must finish
 * the job with exactly one document per valid row and exactly one generation counted for each.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { TBulkJob, TBulkUpload } from '../../../contract/bulk.ts';
import { freePort } from '../../test/oidc-provider.ts';
import { serverBundle } from '../../test/server-bundle.ts';
import { multipartBody } from '../../test/test-app.ts';

const bundle = serverBundle('bulk-crash').main;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'formwork-crash-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const ROWS = 1200;

/** Everything the servers wrote: the admin's verification link is in it (no mail server). */
let serverLog = '';

async function startServer(port: number, email: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bundle], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ADMIN_EMAILS: email,
      RENDER_THREADS: '2',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c) => {
    output += c;
    serverLog += c;
  });
  child.stderr!.on('data', (c) => (output += c));
  const deadline = Date.now() + 90_000;
  while (!/is running at/.test(output)) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return child;
}

function client(base: string) {
  let cookie = '';
  return async (method: string, url: string, body?: unknown, raw?: { payload: Buffer; headers: Record<string, string> }) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        origin: base,
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(raw?.headers ?? {}),
      },
      body: raw ? new Uint8Array(raw.payload) : body !== undefined ? JSON.stringify(body) : undefined,
    });
    const setCookie = response.headers.getSetCookie();
    if (setCookie.length > 0) cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
    const text = await response.text();
    return { status: response.status, json: () => JSON.parse(text) as unknown, text };
  };
}

it('resumes a job after kill -9 with one document per row, none missing, none twice', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const email = `crash-${Date.now()}@example.com`;
  let server = await startServer(port, email);
  const call = client(base);
  expect((await call('POST', '/api/auth/sign-up', { firstName: 'Cra', lastName: 'Sh', email, password: 'correct horse battery' })).status).toBe(200);
  // ADMIN_EMAILS counts once the address is verified; with no mail server its link is logged.
  let token: string | undefined;
  for (let i = 0; i < 200 && !token; i++) {
    token = /\/verify-email\?token=([A-Za-z0-9_-]{43})/.exec(serverLog)?.[1];
    if (!token) await new Promise((r) => setTimeout(r, 50));
  }
  expect((await call('POST', '/api/auth/verify-email', { token })).status).toBe(200);
  const me = (await call('GET', '/api/auth/user')).json() as { id: string };
  expect((await call('PATCH', `/api/admin/users/${me.id}`, { subscriptionPlan: 'premium' })).status).toBe(200);
  const format = (
    await call('POST', '/api/formats', {
      name: 'Certificate',
      content: { elements: [{ id: '1', type: 'heading', content: 'Certificate for {{client_name}}' }] },
      placeholders: [{ name: 'client_name', label: 'Client Name', type: 'text', required: true }],
    })
  ).json() as { id: string };
  const csv = ['Client Name', ...Array.from({ length: ROWS }, (_, i) => `Person ${i + 1}`)].join('\n');
  const uploaded = await call('POST', `/api/formats/${format.id}/bulk`, undefined, multipartBody('file', 'people.csv', Buffer.from(csv), 'text/csv'));
  expect(uploaded.status, uploaded.text).toBe(201);
  const draft = uploaded.json() as TBulkUpload;
  expect((await call('POST', `/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false })).status).toBe(202);

  // Kill it once part of the job is done, while chunks are in flight.
  let job: TBulkJob;
  for (;;) {
    job = (await call('GET', `/api/bulk-jobs/${draft.id}`)).json() as TBulkJob;
    if (job.done >= 200) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  server.kill('SIGKILL');
  await new Promise((r) => server.once('exit', r));
  expect(job.done).toBeLessThan(ROWS);

  server = await startServer(port, email);
  const deadline = Date.now() + 120_000;
  for (;;) {
    job = (await call('GET', `/api/bulk-jobs/${draft.id}`)).json() as TBulkJob;
    if (job.status === 'completed') break;
    if (Date.now() > deadline) throw new Error(`job did not finish after the restart: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(job).toMatchObject({ total: ROWS, done: ROWS, failed: 0 });
  const stats = (await call('GET', '/api/user/stats')).json() as { totalDocuments: number; apiCallsUsed: number };
  expect(stats).toMatchObject({ totalDocuments: ROWS, apiCallsUsed: ROWS });
  // Every row by name, exactly once.
  const names: string[] = [];
  for (let offset = 0; offset < ROWS + 500; offset += 500) {
    const page = (await call('GET', `/api/documents?limit=500&offset=${offset}`)).json() as { name: string }[];
    names.push(...page.map((d) => d.name));
  }
  expect(names).toHaveLength(ROWS);
  expect(new Set(names).size).toBe(ROWS);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
}, 300_000);
