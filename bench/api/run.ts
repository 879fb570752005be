/**
 * `npm run bench:api`: POST /api/documents for the 1-page reference format under load, against
 * the server as `npm start` runs it (the bundle on plain Node, its own process, the embedded
 * database). autocannon keeps 50 connections busy for 20 s after a warm-up, while this process
 * samples GET /healthz; then, with the server stopped, the render pool alone renders the same
 * format, which is the ceiling any API could reach on this machine.
 *
 *   tsx bench/api/run.ts [--connections 50] [--seconds 20]
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
 * Last line: {"api_docs_per_s":…,"api_p50_ms":…,"api_p99_ms":…,"healthz_p99_ms":…,
 *             "v1_docs_per_s":…,"v1_p50_ms":…,"v1_p99_ms":…,"v1_key_and_rate_ms_p50":…,
 *             "flood_healthz_p99_ms":…,"render_pool_docs_per_s":…,"errors":…}
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildServer } from '../../scripts/build-server.ts';
import { FLOOD, wideInvoice, wideInvoiceRows } from '../../src/server/modules/documents/test/request-cost-fixture.ts';
import { apiClient, median, poolRenderRate, startServer, verificationTokenFrom } from '../lib/harness.ts';
import { IMAGE_SRC, REFERENCE_FORMATS, formatData } from '../render/formats.ts';
import { makeGradientPng } from '../render/png.ts';

const { values: args } = parseArgs({
  options: { connections: { type: 'string', default: '50' }, seconds: { type: 'string', default: '20' } },
});
const CONNECTIONS = Number(args.connections);
const SECONDS = Number(args.seconds);
const FLOOD_SECONDS = 15;
const log = (line = '') => process.stdout.write(`${line}\n`);
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** GET /healthz every 20 ms on its own connection until stopped; the latencies in ms. */
function sampleHealthz(base: string): { stop: () => Promise<number[]> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        http
          .get(`${base}/healthz`, { agent }, (response) => {
            response.resume();
            response.on('end', () => resolve());
          })
          .on('error', reject);
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
      return samples;
    },
  };
}

/** autocannon, with its request errors counted by code, to tell a refused connection from a failure. */
function loadWithErrorCodes(options: autocannon.Options, codes: Record<string, number>): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    instance.on('reqError', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      codes[code] = (codes[code] ?? 0) + 1;
    });
  });
}

await buildServer();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'formwork-bench-api-'));
const email = `bench-${Date.now()}@example.com`;
const image = makeGradientPng();
const { child, base } = await startServer({ DATA_DIR: dataDir, ADMIN_EMAILS: email });
let result: autocannon.Result;
let v1: autocannon.Result;
let healthz: number[];
let floodHealthz: number[];
const floodStatuses: Record<string, number> = {};
const floodErrorCodes: Record<string, number> = {};
const keyAndRateMs: number[] = [];
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
  await autocannon({ url: `${base}/api/documents`, method: 'POST', headers, body, connections: 10, amount: 500 });

  const sampler = sampleHealthz(base);
  result = await autocannon({ url: `${base}/api/documents`, method: 'POST', headers, body, connections: CONNECTIONS, duration: SECONDS });
  healthz = (await sampler.stop()).sort((a, b) => a - b);

  const keyed = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  await autocannon({ url: `${base}/api/v1/documents`, method: 'POST', headers: keyed, body, connections: 10, amount: 300 });
  v1 = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/documents',
        headers: keyed,
        body,
        onResponse: (_status, _body, _context, responseHeaders) => {
          const timing = String((responseHeaders as Record<string, string>)['server-timing'] ?? '');
          const total = [...timing.matchAll(/dur=([\d.]+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
          if (timing) keyAndRateMs.push(total);
        },
      },
    ],
  });

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
    loadWithErrorCodes(
      {
        url: `${base}/api/documents`,
        method: 'POST',
        headers: floodHeaders,
        body: JSON.stringify({ formatId: invoice.id, data: { items: wideInvoiceRows(FLOOD.rows, false) } }),
        connections: FLOOD.invalidListConnections,
        duration: FLOOD_SECONDS,
      },
      floodErrorCodes,
    ),
    loadWithErrorCodes(
      {
        url: `${base}/api/formats/${invoice.id}/preview`,
        method: 'POST',
        headers: floodHeaders,
        body: JSON.stringify(filled),
        connections: FLOOD.previewConnections,
        duration: FLOOD_SECONDS,
      },
      floodErrorCodes,
    ),
  ]);
  floodHealthz = (await floodSampler.stop()).sort((a, b) => a - b);
  for (const flood of floods) {
    for (const [status, stat] of Object.entries(flood.statusCodeStats ?? {})) floodStatuses[status] = (floodStatuses[status] ?? 0) + (stat?.count ?? 0);
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}

const pool = await poolRenderRate(REFERENCE_FORMATS['1p'], image);
const created = result.statusCodeStats?.['201']?.count ?? 0;
const errors = result.errors + result.timeouts + result.non2xx;
const docsPerSecond = created / SECONDS;
log(`POST /api/documents, 1-page reference, ${CONNECTIONS} connections for ${SECONDS} s (embedded database)`);
log(
  `  ${created.toLocaleString('en-US')} documents, ${round(docsPerSecond)} docs/s; latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; ${errors} errors`,
);
log(`  GET /healthz during the load: ${healthz.length} samples, p50 ${round(median(healthz))} ms, p99 ${round(quantile(healthz, 0.99))} ms`);
log(`  render pool alone, same format: ${round(pool)} docs/s; the API delivers ${round(docsPerSecond / pool, 2)} of it`);
const v1Created = v1.statusCodeStats?.['201']?.count ?? 0;
const v1Errors = v1.errors + v1.timeouts + v1.non2xx;
const v1PerSecond = v1Created / SECONDS;
const keyAndRate = median(keyAndRateMs);
log(`POST /api/v1/documents with an API key, same load`);
log(
  `  ${v1Created.toLocaleString('en-US')} documents, ${round(v1PerSecond)} docs/s (${round(v1PerSecond / pool, 2)} of the pool); latency p50 ${v1.latency.p50} ms, p99 ${v1.latency.p99} ms; ${v1Errors} errors`,
);
log(`  key check + rate count: median ${round(keyAndRate, 2)} ms per request, ${round((keyAndRate / v1.latency.p50) * 100, 1)}% of the median latency`);
// Refusals are the server working as meant. A refusal closes the connection before the body is
// read, so autocannon, still writing the 1,000-row body, sees EPIPE; anything else is an error.
const floodUnexpected =
  Object.entries(floodErrorCodes).reduce((n, [code, count]) => n + (code === 'EPIPE' ? 0 : count), 0) +
  Object.entries(floodStatuses).reduce((n, [status, count]) => n + (['200', '400', '429'].includes(status) ? 0 : count), 0);
log(
  `One user's free work: invalid ${FLOOD.rows.toLocaleString('en-US')}-row lists on ${FLOOD.invalidListConnections} connections and previews on ${FLOOD.previewConnections}, at once, for ${FLOOD_SECONDS} s`,
);
log(`  answers ${JSON.stringify(floodStatuses)}; client errors ${JSON.stringify(floodErrorCodes)}; ${floodUnexpected} errors`);
log(`  GET /healthz during the flood: ${floodHealthz.length} samples, p50 ${round(median(floodHealthz))} ms, p99 ${round(quantile(floodHealthz, 0.99))} ms`);
log(
  JSON.stringify({
    api_docs_per_s: round(docsPerSecond),
    api_p50_ms: result.latency.p50,
    api_p99_ms: result.latency.p99,
    healthz_p99_ms: round(quantile(healthz, 0.99)),
    v1_docs_per_s: round(v1PerSecond),
    v1_p50_ms: v1.latency.p50,
    v1_p99_ms: v1.latency.p99,
    v1_key_and_rate_ms_p50: round(keyAndRate, 2),
    flood_healthz_p99_ms: round(quantile(floodHealthz, 0.99)),
    render_pool_docs_per_s: round(pool),
    errors: errors + v1Errors + floodUnexpected,
  }),
);
