/**
 * WEB_CONCURRENCY, on the server bundle as `npm start` runs it: on PostgreSQL several processes
 * answer on one port and share sessions through the database, and SIGTERM stops them all; on the
 * embedded database it stays one process and says so; a bad value stops the start.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { freePort } from './test/oidc-provider.ts';
import { serverBundle } from './test/server-bundle.ts';

const bundle = serverBundle('web-concurrency').main;
const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'formwork-web-concurrency-'));
  dirs.push(dir);
  return dir;
}

function startServer(env: Record<string, string>) {
  const dataDir = tempDir();
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'no-web'), DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

type TMaybe<T> = T | undefined | false;

async function until<T>(check: () => TMaybe<T> | Promise<TMaybe<T>>, what: string, output: () => string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the server printed:\n${output().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The processes whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        // The command name is in parentheses and may hold spaces: the parent's pid is the second field after it.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid ? [Number(name)] : [];
      } catch {
        return [];
      }
    });
}

type TAnswer = { status: number; cookie: string | undefined; body: string };

/** One request on a connection of its own, as a new visitor's browser would open (no keep-alive). */
function request(base: string, method: string, url: string, options: { cookie?: string; body?: unknown } = {}): Promise<TAnswer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const sent = http.request(
      `${base}${url}`,
      {
        method,
        agent: false,
        headers: {
          origin: base,
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => {
          const cookie = response.headers['set-cookie']?.map((line) => line.split(';')[0]).join('; ');
          resolve({ status: response.statusCode!, cookie, body });
        });
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

/** Which process answered the last request: each request's completion is logged with its pid. */
function lastAnsweredBy(stdout: string, seen: number): { pid: number; count: number } | undefined {
  const completed = stdout
    .split('\n')
    // The last piece may be a line still being written.
    .slice(0, -1)
    .filter((line) => line.includes('"msg":"request completed"'))
    .map((line) => (JSON.parse(line) as { pid: number }).pid);
  return completed.length > seen ? { pid: completed.at(-1)!, count: completed.length } : undefined;
}

const NOTICE = /WEB_CONCURRENCY=2 is ignored without DATABASE_URL/g;

it('on the embedded database, WEB_CONCURRENCY=2 runs one process and says so', async () => {
  const port = await freePort();
  const server = startServer({ WEB_CONCURRENCY: '2', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' });
  const output = () => server.stdout() + server.stderr();
  await until(() => /is running at/.test(server.stdout()), 'the server to start', output);
  expect(server.stdout().match(/is running at/g)).toHaveLength(1);
  expect(server.stdout()).toContain('embedded database');
  expect(server.stderr().match(NOTICE)).toHaveLength(1);
  expect(childrenOf(server.child.pid!)).toEqual([]);
  expect((await request(`http://127.0.0.1:${port}`, 'GET', '/healthz')).status).toBe(200);
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}, 120_000);

it(
  process.env.TEST_DATABASE_URL
    ? 'on PostgreSQL, WEB_CONCURRENCY=2 runs two processes on one port that share sessions, replaces one that dies, and SIGTERM stops them all'
    : 'on the embedded database, WEB_CONCURRENCY=2 serves sign-up and sign-in from its one process, and SIGTERM stops it',
  async () => {
    const serverUrl = process.env.TEST_DATABASE_URL;
    let databaseUrl = '';
    if (serverUrl) {
      // A new, empty database: the primary migrates it before it forks.
      const name = `formwork_web_concurrency_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`create database "${name}"`);
      await admin.end();
      cleanups.push(async () => {
        const cleanup = new pg.Client({ connectionString: serverUrl });
        await cleanup.connect();
        await cleanup.query(`drop database if exists "${name}" with (force)`);
        await cleanup.end();
      });
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
    }
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // At info every request's completion is logged with the pid of the process that answered it.
    const server = startServer({ DATABASE_URL: databaseUrl, WEB_CONCURRENCY: '2', PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'info' });
    const output = () => server.stdout() + server.stderr();
    await until(() => /is running at/.test(server.stdout()), 'the server to start', output, 150_000);
    expect(server.stdout().match(/is running at/g)).toHaveLength(1);
    const workers = childrenOf(server.child.pid!);
    expect(workers).toHaveLength(serverUrl ? 2 : 0);
    const processes = serverUrl ? [...workers] : [server.child.pid!];

    let seen = 0;
    const answeredBy = async () => {
      const last = await until(() => lastAnsweredBy(server.stdout(), seen), 'the request in the log', output, 10_000);
      seen = last.count;
      return last.pid;
    };
    const email = `cluster-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'correct horse battery';
    const signUp = await request(base, 'POST', '/api/auth/sign-up', { body: { firstName: 'Ada', lastName: 'Lovelace', email, password } });
    expect(signUp.status, signUp.body).toBe(200);
    const signedUpOn = await answeredBy();
    const signIn = await request(base, 'POST', '/api/auth/sign-in', { body: { email, password } });
    expect(signIn.status, signIn.body).toBe(200);
    await answeredBy();

    // Fresh connections go to each process in turn: every one knows both sessions, whichever made them.
    const knewSessions = new Set<number>();
    for (let attempt = 0; attempt < 20 && knewSessions.size < processes.length; attempt++) {
      for (const cookie of [signUp.cookie, signIn.cookie]) {
        const me = await request(base, 'GET', '/api/auth/user', { cookie });
        expect(me.status, me.body).toBe(200);
        expect(JSON.parse(me.body)).toMatchObject({ email });
        knewSessions.add(await answeredBy());
      }
    }
    expect([...knewSessions].sort()).toEqual([...processes].sort());
    expect(processes).toContain(signedUpOn);

    if (serverUrl) {
      // A process that dies is replaced, after a wait that doubles while its replacements keep dying.
      const primary = server.child.pid!;
      process.kill(workers[0]!, 'SIGKILL');
      const replacement = await until(() => childrenOf(primary).find((pid) => !workers.includes(pid)), 'a replacement', output);
      process.kill(replacement, 'SIGKILL');
      const next = await until(() => childrenOf(primary).find((pid) => !workers.includes(pid) && pid !== replacement), 'another replacement', output);
      const restarts = [...server.stdout().matchAll(/"restartInMs":(\d+),"msg":"a server process exited unexpectedly/g)].map((match) => Number(match[1]));
      expect(restarts).toEqual([1000, 2000]);
      await until(
        async () => {
          expect((await request(base, 'GET', '/api/auth/user', { cookie: signIn.cookie })).status).toBe(200);
          return (await answeredBy()) === next;
        },
        'the replacement to answer',
        output,
      );
      processes.splice(0, processes.length, workers[1]!, next);
    }

    const inFlight = request(base, 'GET', '/healthz');
    await new Promise((resolve) => setTimeout(resolve, 20));
    server.child.kill('SIGTERM');
    expect((await inFlight).status).toBe(200);
    expect(await server.exited).toBe(0);
    for (const pid of processes) expect(existsSync(`/proc/${pid}`), `process ${pid} still runs`).toBe(false);
    expect(server.stdout().match(/finishing requests in flight/g)).toHaveLength(processes.length);
  },
  240_000,
);

it('refuses to start when WEB_CONCURRENCY is not a whole number of processes, saying so', async () => {
  const servers = ['0', '-2', 'two'].map((value) => startServer({ WEB_CONCURRENCY: value }));
  for (const server of servers) {
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain('WEB_CONCURRENCY: must be a whole number of server processes, 1 or more');
  }
});
