/**
 * `npm run bench:api`: latency of POST /api/documents for the 1-page reference format, over real
 * HTTP on loopback, against the server on the embedded database (file-backed PGlite, as
 * `npm start` runs it). Beside it, the renderer alone on the same format, so the ratio shows what
 * the API adds (validation, quota transaction, storage).
 *
 * Last line: {"docs":…, "p50_ms":…, "p95_ms":…, "render_only_p50_ms":…, "api_over_render_p50":…,
 *             "list_1000_docs_ms":…}
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { migrateDatabase, openDatabase } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema.ts';
import { renderPdf, warmUp } from '../../src/render/index.ts';
import { REFERENCE_FORMATS, IMAGE_SRC, formatData } from '../render/formats.ts';
import { makeGradientPng } from '../render/png.ts';

const quick = process.argv.includes('--quick');
const DOCS = quick ? 100 : 500;
const WARMUP = 20;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const round = (n: number) => Math.round(n * 100) / 100;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'formwork-bench-api-'));
const config = loadConfig({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', DATA_DIR: dataDir, PORT: '0' });
const database = await openDatabase({ driver: 'pglite', dataDir: path.join(dataDir, 'pglite') });
await migrateDatabase(database);
const app = await buildApp({ config: { ...config, publicUrl: 'http://127.0.0.1' }, database });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
let cookie = '';
const origin = 'http://127.0.0.1';

async function call(method: string, url: string, body?: unknown, raw?: { body: FormData }) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { cookie, origin, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: raw ? raw.body : body !== undefined ? JSON.stringify(body) : undefined,
  });
  const setCookie = response.headers.getSetCookie();
  if (setCookie.length) cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response;
}

try {
  warmUp();
  const signUp = await call('POST', '/api/auth/sign-up', {
    firstName: 'Bench',
    lastName: 'Mark',
    email: 'bench@example.com',
    password: 'benchmark password',
  });
  const userId = ((await signUp.json()) as { id: string }).id;
  await database.db.update(users).set({ subscriptionPlan: 'enterprise' }).where(eq(users.id, userId));

  const png = makeGradientPng();
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'gradient.png');
  const { url: imageUrl } = (await (await call('POST', '/api/upload/image', undefined, { body: form })).json()) as {
    url: string;
  };
  const reference = JSON.parse(JSON.stringify(REFERENCE_FORMATS['1p']).replaceAll(IMAGE_SRC, imageUrl));
  const format = (await (
    await call('POST', '/api/formats', { name: 'Reference 1p', content: reference.content, placeholders: reference.placeholders })
  ).json()) as { id: string; content: unknown; placeholders: unknown };

  const latencies: number[] = [];
  for (let i = 0; i < WARMUP + DOCS; i++) {
    const started = performance.now();
    await call('POST', '/api/documents', { formatId: format.id, data: formatData(i) });
    if (i >= WARMUP) latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);

  const renderTimes: number[] = [];
  for (let i = 0; i < WARMUP + DOCS; i++) {
    const started = performance.now();
    renderPdf({
      format: reference,
      data: formatData(i),
      assets: { [imageUrl]: png },
      meta: { title: 'Reference', creationDate: new Date(0) },
    });
    if (i >= WARMUP) renderTimes.push(performance.now() - started);
  }
  renderTimes.sort((a, b) => a - b);

  // The list the dashboard and Recent Documents read, with 1,000 documents in the account.
  for (let i = WARMUP + DOCS; i < 1000; i++) await call('POST', '/api/documents', { formatId: format.id, data: formatData(i) });
  const listTimes: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    await call('GET', '/api/documents?limit=100');
    await call('GET', '/api/user/stats');
    listTimes.push(performance.now() - started);
  }
  listTimes.sort((a, b) => a - b);

  const p50 = quantile(latencies, 0.5);
  const renderP50 = quantile(renderTimes, 0.5);
  console.log(`POST /api/documents, 1-page reference, ${DOCS} sequential requests after ${WARMUP} warm-up`);
  console.log(`  p50 ${round(p50)} ms   p95 ${round(quantile(latencies, 0.95))} ms   max ${round(latencies.at(-1)!)} ms`);
  console.log(`  renderer alone: p50 ${round(renderP50)} ms  (API / render = ${round(p50 / renderP50)}x)`);
  console.log(`  first page of the documents list + stats with 1,000 documents: median ${round(quantile(listTimes, 0.5))} ms`);
  console.log(
    JSON.stringify({
      docs: DOCS,
      p50_ms: round(p50),
      p95_ms: round(quantile(latencies, 0.95)),
      render_only_p50_ms: round(renderP50),
      api_over_render_p50: round(p50 / renderP50),
      list_1000_docs_ms: round(quantile(listTimes, 0.5)),
    }),
  );
} finally {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
