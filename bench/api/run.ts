/**
 * `npm run bench:api`: POST /api/documents for the 1-page reference format under load, against
 * the server as `npm start` runs it (the bundle on plain Node, its own process), once on the
 * embedded database and once on a PostgreSQL started on loopback (fsync off, as CI runs it) when
 * this machine has one. autocannon keeps 50 connections busy for 20 s after a warm-up, while this
 * process samples GET /healthz; then, with the server stopped, the render pool alone renders the
 * same format, which is the ceiling any API could reach on this machine (the pool the server
 * renders single documents on, render-pool.ts INTERACTIVE_RENDER_POOL).
 *
 *   tsx bench/api/run.ts [--connections 50] [--seconds 20] [--database both|embedded|postgres]
 *                        [--processes N] [--skip-flood]
 *
 * `--processes N` runs the PostgreSQL server as N processes on one port (WEB_CONCURRENCY); the
 * embedded database always has one.
 *
 * Then the same load on the public API, POST /api/v1/documents with an API key, which adds the
 * key check, the per-key rate count and the request log; their cost per request is read from the
 * Server-Timing header each answer carries.
 *
 * Then a flood of free work from one user (documents/test/request-cost-fixture.ts): invalid 1,000-row
 * lists on 6 connections and filled previews on 60, at once, for 15 s, while GET /healthz is
 * sampled again. The server refuses most of it (400, 429); what counts is that the event loop keeps
 * answering everyone else meanwhile.
 *
 * The generation loads' clients (load.ts `politeLoad`) wait out a 503's Retry-After before sending
 * again, as the API reference asks. Latencies count answered requests only (201); requests shed
 * with 503 and Retry-After are reported as `shed_503`, and any other failure (or a 503 without
 * Retry-After) as `errors`.
 *
 * The server's CPU time per document made (all its threads and processes, read from /proc) is
 * reported beside the render pool's own. It moves less than docs/s with the machine's other load,
 * but it does move: compare it with the pool's in the same run.
 *
 * Last line: the embedded database's figures {"api_docs_per_s":…,"api_p50_ms":…,"api_p99_ms":…,
 * "healthz_p99_ms":…,"shed_503":…,"v1_…":…,"api_cpu_ms_per_doc":…,"flood_healthz_p99_ms":…,
 * "errors":…}, PostgreSQL's the same with a `pg_` prefix, "render_pool_docs_per_s" and
 * "render_pool_cpu_ms_per_doc".
 */
import { rmSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer } from '../../scripts/build-server.ts';
import { FLOOD, wideInvoice, wideInvoiceRows } from '../../src/server/modules/documents/test/request-cost-fixture.ts';
import { apiClient, median, poolRenderRate, processTreeCpuMs, sampleHealthz, startServer, verificationTokenFrom } from '../lib/harness.ts';
import { startLoopbackPostgres } from '../lib/loopback-postgres.ts';
import { IMAGE_SRC, REFERENCE_FORMATS, formatData } from '../render/formats.ts';
import { makeGradientPng } from '../render/png.ts';
import { load, politeLoad, quantile, type TLoad } from './load.ts';

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    database: { type: 'string', default: 'both' },
    processes: { type: 'string', default: '1' },
    'skip-flood': { type: 'boolean', default: false },
  },
});
const CONNECTIONS = Number(args.connections);
const SECONDS = Number(args.seconds);
const PROCESSES = Number(args.processes);
const FLOOD_SECONDS = 15;
const log = (line = '') => process.stdout.write(`${line}\n`);
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

type TFigures = {
  api: TLoad;
  healthz: number[];
  v1: TLoad;
  keyAndRateMs: number[];
  /** The server's CPU time (all its threads and processes) per document made, in each load; undefined without /proc. */
  apiCpuMsPerDoc: number | undefined;
  v1CpuMsPerDoc: number | undefined;
  flood?: TLoad;
  floodHealthz?: number[];
};

/** `load` with the server's CPU time per document made during it. */
async function withCpu(pid: number | undefined, load: Promise<TLoad>): Promise<{ load: TLoad; cpuMsPerDoc: number | undefined }> {
  const before = pid === undefined ? undefined : processTreeCpuMs(pid);
  const done = await load;
  const after = pid === undefined ? undefined : processTreeCpuMs(pid);
  return { load: done, cpuMsPerDoc: before === undefined || after === undefined || done.created === 0 ? undefined : (after - before) / done.created };
}

async function measure(env: Record<string, string>): Promise<TFigures> {
  const email = `bench-${Date.now()}@example.com`;
  const image = makeGradientPng();
  const { child, base } = await startServer({ ...env, ADMIN_EMAILS: email });
  try {
    const client = apiClient(base);
    const verificationToken = verificationTokenFrom(child);
    const me = (await (
      await client.call('POST', '/api/auth/sign-up', { firstName: 'Bench', lastName: 'Api', email, password: 'benchmark password' })
    ).json()) as { id: string };
    await client.call('POST', '/api/auth/verify-email', { token: await verificationToken });
    await client.call('PATCH', `/api/admin/users/${me.id}`, { subscriptionPlan: 'enterprise' });
    // Counted as always, but high enough that the benchmark measures the count, not refusals.
    const plans = (await (await client.call('GET', '/api/plans')).json()) as { plans: { id: string }[] };
    await client.call('POST', '/api/admin/settings', {
      key: 'plans.catalogue',
      value: JSON.stringify(plans.plans.map((p) => (p.id === 'enterprise' ? { ...p, apiRequestsPerMinute: 1_000_000 } : p))),
    });
    const { key } = (await (await client.call('POST', '/api/user/api-keys', { name: 'Bench' })).json()) as { key: string };
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'gradient.png');
    const { url: imageUrl } = (await (await client.call('POST', '/api/upload/image', undefined, form)).json()) as { url: string };
    const reference = JSON.parse(JSON.stringify(REFERENCE_FORMATS['1p']).replaceAll(IMAGE_SRC, imageUrl));
    const format = (await (await client.call('POST', '/api/formats', { name: 'Reference 1p', ...reference })).json()) as { id: string };
    const body = JSON.stringify({ formatId: format.id, data: formatData(7) });
    const headers = { 'content-type': 'application/json', origin: base, cookie: client.cookie };

    // Warm-up: render threads started and JIT-compiled, the database's caches filled.
    await politeLoad({ url: `${base}/api/documents`, method: 'POST', headers, body, connections: 10, amount: 500 });

    const sampler = sampleHealthz(base);
    const { load: api, cpuMsPerDoc: apiCpuMsPerDoc } = await withCpu(
      child.pid,
      politeLoad({ url: `${base}/api/documents`, method: 'POST', headers, body, connections: CONNECTIONS, duration: SECONDS }),
    );
    const healthz = await sampler.stop();

    const keyed = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
    await politeLoad({ url: `${base}/api/v1/documents`, method: 'POST', headers: keyed, body, connections: 10, amount: 300 });
    const keyAndRateMs: number[] = [];
    const { load: v1, cpuMsPerDoc: v1CpuMsPerDoc } = await withCpu(
      child.pid,
      politeLoad({ url: `${base}/api/v1/documents`, method: 'POST', headers: keyed, body, connections: CONNECTIONS, duration: SECONDS }, (responseHeaders) => {
        const timing = String(responseHeaders['server-timing'] ?? '');
        const total = [...timing.matchAll(/dur=([\d.]+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
        if (timing) keyAndRateMs.push(total);
      }),
    );
    const cpu = { apiCpuMsPerDoc, v1CpuMsPerDoc };
    if (args['skip-flood']) return { api, healthz, v1, keyAndRateMs, ...cpu };

    // A user on an ordinary plan, so the flood meets the limits most users have.
    const flooder = apiClient(base);
    const floodUser = (await (
      await flooder.call('POST', '/api/auth/sign-up', { firstName: 'Bench', lastName: 'Flood', email: `flood-${email}`, password: 'benchmark password' })
    ).json()) as { id: string };
    await client.call('PATCH', `/api/admin/users/${floodUser.id}`, { subscriptionPlan: 'basic' });
    const invoice = (await (await flooder.call('POST', '/api/formats', wideInvoice)).json()) as { id: string };
    const floodHeaders = { 'content-type': 'application/json', origin: base, cookie: flooder.cookie };
    const filled = { data: { items: wideInvoiceRows(FLOOD.rows, true) } };
    // Render threads started and their code loaded for this format before the flood.
    await flooder.call('POST', `/api/formats/${invoice.id}/preview`, filled);
    const floodSampler = sampleHealthz(base);
    const floods = await Promise.all([
      load({
        url: `${base}/api/documents`,
        method: 'POST',
        headers: floodHeaders,
        body: JSON.stringify({ formatId: invoice.id, data: { items: wideInvoiceRows(FLOOD.rows, false) } }),
        connections: FLOOD.invalidListConnections,
        duration: FLOOD_SECONDS,
      }),
      load({
        url: `${base}/api/formats/${invoice.id}/preview`,
        method: 'POST',
        headers: floodHeaders,
        body: JSON.stringify(filled),
        connections: FLOOD.previewConnections,
        duration: FLOOD_SECONDS,
      }),
    ]);
    const floodHealthz = await floodSampler.stop();
    const flood: TLoad = { ...floods[0], statuses: { ...floods[0].statuses }, errorCodes: { ...floods[0].errorCodes } };
    for (const [status, count] of Object.entries(floods[1].statuses)) flood.statuses[status] = (flood.statuses[status] ?? 0) + count;
    for (const [code, count] of Object.entries(floods[1].errorCodes)) flood.errorCodes[code] = (flood.errorCodes[code] ?? 0) + count;
    return { api, healthz, v1, keyAndRateMs, ...cpu, flood, floodHealthz };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
}

/** Prints one database's figures and returns its keys for the last line. */
function report(label: string, figures: TFigures, pool: { docsPerSecond: number; cpuMsPerDoc: number }): Record<string, number> {
  const { api, healthz, v1, keyAndRateMs, flood, floodHealthz } = figures;
  const cpuText = (ms: number | undefined) =>
    ms === undefined
      ? ''
      : `; server CPU ${round(ms, 2)} ms per document, ${round(ms / pool.cpuMsPerDoc, 1)}x the render pool's ${round(pool.cpuMsPerDoc, 2)} ms`;
  const docsPerSecond = api.created / SECONDS;
  log(`POST /api/documents, 1-page reference, ${CONNECTIONS} connections for ${SECONDS} s (${label})`);
  log(
    `  ${api.created.toLocaleString('en-US')} documents, ${round(docsPerSecond)} docs/s; answered latency p50 ${round(api.p50)} ms, p99 ${round(api.p99)} ms; ${api.shed} shed (503); ${api.errors} errors`,
  );
  log(`  GET /healthz during the load: ${healthz.length} samples, p50 ${round(median(healthz))} ms, p99 ${round(quantile(healthz, 0.99))} ms`);
  log(
    `  render pool alone, same format: ${round(pool.docsPerSecond)} docs/s; the API delivers ${round(docsPerSecond / pool.docsPerSecond, 2)} of it${cpuText(figures.apiCpuMsPerDoc)}`,
  );
  const v1PerSecond = v1.created / SECONDS;
  const keyAndRate = median(keyAndRateMs);
  log(`POST /api/v1/documents with an API key, same load`);
  log(
    `  ${v1.created.toLocaleString('en-US')} documents, ${round(v1PerSecond)} docs/s (${round(v1PerSecond / pool.docsPerSecond, 2)} of the pool); answered latency p50 ${round(v1.p50)} ms, p99 ${round(v1.p99)} ms; ${v1.shed} shed; ${v1.errors} errors`,
  );
  if (figures.v1CpuMsPerDoc !== undefined) log(`  ${cpuText(figures.v1CpuMsPerDoc).slice(2)}`);
  log(`  key check + rate count: median ${round(keyAndRate, 2)} ms per request, ${round((keyAndRate / v1.p50) * 100, 1)}% of the median latency`);
  let floodUnexpected = 0;
  const floodFigures: Record<string, number> = {};
  if (flood && floodHealthz) {
    // Refusals are the server working as meant. A refusal closes the connection before the body is
    // read, so autocannon, still writing the 1,000-row body, sees EPIPE; anything else is an error.
    floodUnexpected =
      Object.entries(flood.errorCodes).reduce((n, [code, count]) => n + (code === 'EPIPE' ? 0 : count), 0) +
      Object.entries(flood.statuses).reduce(
        (n, [status, count]) => n + (['200', '400', '429'].includes(status) || (status === '503' && !flood.shedWithoutRetryAfter) ? 0 : count),
        0,
      );
    log(
      `One user's free work: invalid ${FLOOD.rows.toLocaleString('en-US')}-row lists on ${FLOOD.invalidListConnections} connections and previews on ${FLOOD.previewConnections}, at once, for ${FLOOD_SECONDS} s`,
    );
    log(`  answers ${JSON.stringify(flood.statuses)}; client errors ${JSON.stringify(flood.errorCodes)}; ${floodUnexpected} errors`);
    log(
      `  GET /healthz during the flood: ${floodHealthz.length} samples, p50 ${round(median(floodHealthz))} ms, p99 ${round(quantile(floodHealthz, 0.99))} ms`,
    );
    floodFigures.flood_healthz_p99_ms = round(quantile(floodHealthz, 0.99));
  }
  return {
    api_docs_per_s: round(docsPerSecond),
    api_p50_ms: round(api.p50),
    api_p99_ms: round(api.p99),
    healthz_p99_ms: round(quantile(healthz, 0.99)),
    shed_503: api.shed + v1.shed,
    v1_docs_per_s: round(v1PerSecond),
    v1_p50_ms: round(v1.p50),
    v1_p99_ms: round(v1.p99),
    v1_key_and_rate_ms_p50: round(keyAndRate, 2),
    ...(figures.apiCpuMsPerDoc === undefined ? {} : { api_cpu_ms_per_doc: round(figures.apiCpuMsPerDoc, 2) }),
    ...(figures.v1CpuMsPerDoc === undefined ? {} : { v1_cpu_ms_per_doc: round(figures.v1CpuMsPerDoc, 2) }),
    ...floodFigures,
    errors: api.errors + v1.errors + floodUnexpected,
  };
}

await buildServer();
const runs: { label: string; prefix: string; figures: TFigures }[] = [];
if (args.database !== 'postgres') {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'formwork-bench-api-'));
  try {
    runs.push({ label: 'embedded database', prefix: '', figures: await measure({ DATA_DIR: dataDir }) });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
if (args.database !== 'embedded') {
  const postgres = await startLoopbackPostgres();
  if (!postgres) log('No PostgreSQL on this machine (/usr/lib/postgresql/*/bin): its figures are left out.');
  else {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'formwork-bench-api-'));
    try {
      const env = { DATA_DIR: dataDir, DATABASE_URL: postgres.url, WEB_CONCURRENCY: String(PROCESSES) };
      runs.push({ label: `PostgreSQL on loopback, ${PROCESSES} process${PROCESSES === 1 ? '' : 'es'}`, prefix: 'pg_', figures: await measure(env) });
    } finally {
      postgres.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

const pool = await poolRenderRate(REFERENCE_FORMATS['1p'], makeGradientPng(), 'interactive');
const line: Record<string, number> = {};
for (const run of runs) {
  for (const [key, value] of Object.entries(report(run.label, run.figures, pool))) line[`${run.prefix}${key}`] = value;
}
line.render_pool_docs_per_s = round(pool.docsPerSecond);
line.render_pool_cpu_ms_per_doc = round(pool.cpuMsPerDoc, 2);
log(JSON.stringify(line));
