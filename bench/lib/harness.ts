/**
 * What the benchmarks share: the server as `npm start` runs it (the bundle, its own process), the
 * render pool's own ceiling on the reference format, and medians.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { SERVER_BUNDLE } from '../../scripts/build-server.ts';
import { ZRenderableFormat } from '../../src/contract/format-content.ts';
import renderBatch, { type TRenderBatchTask } from '../../src/server/jobs/render-worker.ts';
import { createRenderPool, INTERACTIVE_RENDER_POOL } from '../../src/server/jobs/render-pool.ts';
import { IMAGE_SRC, formatData } from '../render/formats.ts';

export const renderTask = (format: unknown, image: Uint8Array, from: number, n: number): TRenderBatchTask => ({
  format: ZRenderableFormat.parse(format),
  assets: { [IMAGE_SRC]: image },
  items: Array.from({ length: n }, (_, k) => ({ data: formatData(from + k), title: `Reference ${from + k}`, creationDate: Date.UTC(2026, 0, 1) })),
  returnBytes: false,
});

/** Documents per second of one thread running what a render thread runs: one sample per round of 200, after a warm-up. */
export function singleThreadRates(format: unknown, image: Uint8Array, rounds: number): number[] {
  renderBatch(renderTask(format, image, 0, 50));
  const rates: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const task = renderTask(format, image, 100 + round * 200, 200);
    const started = performance.now();
    renderBatch(task);
    rates.push(200 / ((performance.now() - started) / 1000));
  }
  return rates;
}

/**
 * The ceiling for any bulk job here: the render pool the server uses, one thread per core, with
 * nothing else running (no database, no HTTP, no ZIP). Median of a few rounds, docs per second.
 * `which` of the server's two pools: bulk's by default, or the single documents' pool
 * (render-pool.ts INTERACTIVE_RENDER_POOL), the ceiling of the API.
 */
export async function poolRenderRate(
  format: unknown,
  image: Uint8Array,
  which: 'bulk' | 'interactive' = 'bulk',
): Promise<{ docsPerSecond: number; cpuMsPerDoc: number }> {
  const threads = await createRenderPool(which === 'interactive' ? INTERACTIVE_RENDER_POOL : {});
  try {
    await Promise.all(Array.from({ length: threads.threads }, (_, i) => threads.render(renderTask(format, image, i * 50, 50))));
    const rates: number[] = [];
    const cpu: number[] = [];
    for (let round = 0; round < 3; round++) {
      const tasks = Array.from({ length: threads.threads * 4 }, (_, i) => renderTask(format, image, i * 250, 250));
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      await Promise.all(tasks.map((task) => threads.render(task)));
      const used = process.cpuUsage(cpuBefore);
      rates.push((tasks.length * 250) / ((performance.now() - started) / 1000));
      cpu.push((used.user + used.system) / 1000 / (tasks.length * 250));
    }
    return { docsPerSecond: median(rates), cpuMsPerDoc: median(cpu) };
  } finally {
    await threads.close();
  }
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Clock ticks per second of /proc's CPU times: 100 on every Linux that Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time (user and system, every thread) that a process and its descendants have used so far,
 * in ms; undefined where there is no /proc. CPU per document moves less than a rate with what
 * else the machine is doing; compared with the render pool's in the same run, it shows a change's
 * cost when docs/s is too noisy to.
 */
export function processTreeCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    let ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
        ms += processTreeCpuMs(Number(child)) ?? 0;
      }
    }
    return ms;
  } catch {
    return undefined;
  }
}

export function rssMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return kb / 1024;
}
export const peakRssMb = (pid: number) => rssMb(pid, 'VmHWM');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_CPU_PROF=dir writes the server's CPU profile there (main thread), to see where time goes.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, SERVER_BUNDLE], {
    // npm start's default (docs/server-capacity.md, "Memory at 50,000 rows"), unless the caller sets one.
    env: {
      MALLOC_ARENA_MAX: '2',
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c) => {
    output += c;
    if (process.env.BENCH_LOG_LEVEL) process.stderr.write(c);
  });
  child.stderr!.on('data', (c) => (output += c));
  const deadline = Date.now() + 120_000;
  while (!/is running at/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, base };
}

/** A signed-in client of a server on loopback, as the web app calls it: cookie and Origin. */
export function apiClient(base: string) {
  let cookie = '';
  return {
    get cookie() {
      return cookie;
    },
    async call(method: string, url: string, body?: unknown, form?: FormData): Promise<Response> {
      const response = await fetch(`${base}${url}`, {
        method,
        headers: { origin: base, ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: form ?? (body !== undefined ? JSON.stringify(body) : undefined),
      });
      const setCookie = response.headers.getSetCookie();
      if (setCookie.length) cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return response;
    },
  };
}

/**
 * ADMIN_EMAILS makes an admin only of a verified address, and a server with no mail server writes
 * that address's verification link to its log; the bench reads it there, as the owner would.
 */
export function verificationTokenFrom(child: ChildProcess): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no verification link in the server log')), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const token = /\/verify-email\?token=([\w-]+)/.exec(output)?.[1];
      if (!token) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve(token);
    };
    child.stdout!.on('data', onData);
  });
}

/** GET /healthz every 20 ms on its own connection until stopped; the latencies in ms, sorted. */
export function sampleHealthz(base: string): { stop: () => Promise<number[]> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      // A failed check counts as a sample as long as the wait was, rather than ending the run.
      await new Promise<void>((resolve) => {
        http
          .get(`${base}/healthz`, { agent }, (response) => {
            response.resume();
            response.on('end', () => resolve());
            response.on('error', () => resolve());
          })
          .on('error', () => resolve());
      });
      samples.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      agent.destroy();
      return samples.sort((a, b) => a - b);
    },
  };
}
