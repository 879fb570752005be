/**
 * `npm run bench:bulk`: the whole bulk path for a 10,000-row .xlsx of the 1-page reference format,
 * from upload to the last byte of the ZIP, against the server as `npm start` runs it (the bundle
 * on plain Node, its own process), on the embedded database and, when DATABASE_URL is set, on
 * PostgreSQL too. Beside it, in this process, the single-thread render rate of the same code the
 * render threads run (render and hash), so the parallel efficiency compares like with like.
 *
 *   tsx bench/bulk/run.ts [--rows N] [--runs N]
 *
 * Every figure is the median of --runs runs (default 3) per database.
 *
 * Last line: {"rows":…,"seconds":…,"docs_per_s":…,"peak_rss_mb":…,"single_thread_render_docs_per_s":…,
 *             "parallel_efficiency":…,"render_pool_docs_per_s":…,"cores":…,"runs":…,"phases":{…},"postgres":{…}|null}
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import { buildServer } from '../../scripts/build-server.ts';
import { apiClient, median, peakRssMb, poolRenderRate, rssMb, singleThreadRates, startServer, verificationTokenFrom } from '../lib/harness.ts';
import { IMAGE_SRC, REFERENCE_FORMATS, formatData } from '../render/formats.ts';
import { makeGradientPng } from '../render/png.ts';

const { values: args } = parseArgs({
  options: { rows: { type: 'string', default: '10000' }, runs: { type: 'string', default: '3' } },
});
const ROWS = Number(args.rows);
/** Runs per database; figures are medians, because this machine is shared and noisy. */
const RUNS = Math.max(1, Number(args.runs));
const CORES = os.availableParallelism();
const log = (line = '') => process.stdout.write(`${line}\n`);
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function spreadsheet(rows: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow(['Customer', 'Document number']);
  for (let i = 0; i < rows; i++) {
    const d = formatData(i);
    sheet.addRow([d.customer, d.number]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

type TRun = { rows: number; seconds: number; docs_per_s: number; peak_rss_mb: number; phases: Record<string, number> };

async function run(label: string, env: Record<string, string>, xlsx: Buffer): Promise<TRun> {
  const email = `bench-${Date.now()}@example.com`;
  // A server meets its data directory created already: creating one (initdb inside PGlite) leaves
  // several hundred MB resident that no later work needs, so it is done by a first start.
  const first = await startServer({ ...env, ADMIN_EMAILS: email });
  first.child.kill('SIGTERM');
  await new Promise((r) => first.child.once('exit', r));
  const { child, base } = await startServer({ ...env, ADMIN_EMAILS: email });
  const client = apiClient(base);
  const call = client.call;
  try {
    const verificationToken = verificationTokenFrom(child);
    const me = (await (await call('POST', '/api/auth/sign-up', { firstName: 'Bench', lastName: 'Bulk', email, password: 'benchmark password' })).json()) as {
      id: string;
    };
    await call('POST', '/api/auth/verify-email', { token: await verificationToken });
    await call('PATCH', `/api/admin/users/${me.id}`, { subscriptionPlan: 'premium' });
    const imageForm = new FormData();
    imageForm.append('image', new Blob([new Uint8Array(makeGradientPng())], { type: 'image/png' }), 'gradient.png');
    const { url: imageUrl } = (await (await call('POST', '/api/upload/image', undefined, imageForm)).json()) as { url: string };
    const reference = JSON.parse(JSON.stringify(REFERENCE_FORMATS['1p']).replaceAll(IMAGE_SRC, imageUrl));
    const format = (await (await call('POST', '/api/formats', { name: 'Reference 1p', ...reference })).json()) as { id: string };

    log(`  ${label}: RSS before upload ${round(rssMb(child.pid!, 'VmRSS'))} MB`);
    // The peak is measured from here: writing 5 to clear_refs resets the kernel's high-water mark.
    writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
    const t0 = performance.now();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(xlsx)]), 'reference.xlsx');
    const draft = (await (await call('POST', `/api/formats/${format.id}/bulk`, undefined, form)).json()) as {
      id: string;
      validRows: number;
      unmappedPlaceholders: string[];
    };
    if (draft.validRows !== ROWS || draft.unmappedPlaceholders.length > 0)
      throw new Error(`upload did not map cleanly: ${JSON.stringify(draft).slice(0, 500)}`);
    const tUploaded = performance.now();
    await call('POST', `/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false });
    let last = '';
    for (;;) {
      const job = (await (await call('GET', `/api/bulk-jobs/${draft.id}`)).json()) as { status: string; done: number; failed: number };
      if (job.status === 'completed') {
        if (job.done !== ROWS) throw new Error(`job completed with ${job.done} of ${ROWS} (${job.failed} failed)`);
        break;
      }
      if (job.status !== 'queued' && job.status !== 'running') throw new Error(`job ended ${job.status}`);
      const line = `  ${label}: ${job.done.toLocaleString('en-US')} of ${ROWS.toLocaleString('en-US')}`;
      if (line !== last && job.done % 1000 < 100) log((last = line));
      await new Promise((r) => setTimeout(r, 100));
    }
    const tGenerated = performance.now();
    log(`  ${label}: RSS after generation ${round(rssMb(child.pid!, 'VmRSS'))} MB (peak so far ${round(peakRssMb(child.pid!))} MB)`);
    const zipBytes = await downloadLength(`${base}/api/bulk-jobs/${draft.id}/documents.zip`, { origin: base, cookie: client.cookie });
    const tZipped = performance.now();
    const seconds = (tZipped - t0) / 1000;
    const rss = peakRssMb(child.pid!);
    log(
      `${label}: ${ROWS.toLocaleString('en-US')} rows in ${round(seconds)} s (upload and parse ${round((tUploaded - t0) / 1000)} s, ` +
        `generation ${round((tGenerated - tUploaded) / 1000)} s, ZIP ${round((tZipped - tGenerated) / 1000)} s, ${round(zipBytes / 1024 / 1024)} MB); ` +
        `peak RSS ${round(rss)} MB`,
    );
    return {
      rows: ROWS,
      seconds: round(seconds, 2),
      docs_per_s: round(ROWS / seconds),
      peak_rss_mb: round(rss),
      phases: {
        upload_s: round((tUploaded - t0) / 1000, 2),
        generate_s: round((tGenerated - tUploaded) / 1000, 2),
        zip_s: round((tZipped - tGenerated) / 1000, 2),
      },
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

log(`bench:bulk: ${ROWS.toLocaleString('en-US')} rows, ${CORES} cores, ${RUNS} run(s) per database`);
/**
 * Reads a download to its end and counts its bytes, the way a browser or curl would: straight
 * from the socket. fetch's web-stream body costs this process as much CPU as the server spends
 * writing the ZIP, and on two shared cores that would be timed as the server's.
 */
function downloadLength(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return reject(new Error(`GET ${url}: ${response.statusCode}`));
        }
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
        response.on('end', () => resolve(bytes));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

await buildServer();
const xlsx = await spreadsheet(ROWS);
log(`spreadsheet: ${round(xlsx.byteLength / 1024)} KB`);
const image = new Uint8Array(makeGradientPng());
const format1p = REFERENCE_FORMATS['1p'];
// The single-thread rate is sampled before and after the bulk runs, so a slow or fast minute of
// this shared machine does not skew the efficiency one way.
const singleSamples = singleThreadRates(format1p, image, 5);
const { docsPerSecond: pool } = await poolRenderRate(format1p, image);
log(`render pool alone (${CORES} threads, no database): ${round(pool)} docs/s`);

async function runs(label: string, env: () => Record<string, string>): Promise<TRun> {
  const results: TRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `formwork-bench-bulk-${label}-`));
    try {
      results.push(await run(label, { DATA_DIR: dataDir, ...env() }, xlsx));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const pick = (f: (r: TRun) => number) => round(median(results.map(f)), 2);
  const summary: TRun = {
    rows: ROWS,
    seconds: pick((r) => r.seconds),
    docs_per_s: round(median(results.map((r) => r.docs_per_s))),
    peak_rss_mb: round(median(results.map((r) => r.peak_rss_mb))),
    phases: {
      upload_s: pick((r) => r.phases.upload_s!),
      generate_s: pick((r) => r.phases.generate_s!),
      zip_s: pick((r) => r.phases.zip_s!),
    },
  };
  if (RUNS > 1) {
    log(
      `${label}: median of ${RUNS}: ${summary.seconds} s (runs ${results.map((r) => r.seconds).join(', ')}), ` +
        `peak RSS ${summary.peak_rss_mb} MB (runs ${results.map((r) => r.peak_rss_mb).join(', ')})`,
    );
  }
  return summary;
}

const embedded = await runs('embedded', () => ({ DATABASE_URL: '' }));
const postgresUrl = process.env.DATABASE_URL;
const postgres = postgresUrl ? await runs('postgres', () => ({ DATABASE_URL: postgresUrl })) : null;
singleSamples.push(...singleThreadRates(format1p, image, 6));
const single = median(singleSamples);
log(
  `single-thread render (render + SHA-256, median of ${singleSamples.length} rounds of 200, before and after): ${round(single)} docs/s ` +
    `(rounds ${singleSamples.map((r) => Math.round(r)).join(', ')})`,
);
const efficiency = (r: TRun) => round(r.docs_per_s / (single * CORES), 2);
log(
  `ceiling: the render pool alone reaches ${round(pool / (single * CORES), 2)} of ${CORES} x the single-thread rate; ` +
    `the bulk path reaches ${efficiency(embedded)} embedded${postgres ? `, ${efficiency(postgres)} on PostgreSQL` : ''}`,
);
log(
  `targets: <= 30 s ${embedded.seconds <= 30 ? 'met' : 'NOT MET'}; peak RSS <= 600 MB ${embedded.peak_rss_mb <= 600 ? 'met' : 'NOT MET'}; ` +
    `parallel efficiency ${efficiency(embedded)} (>= 0.7 ${efficiency(embedded) >= 0.7 ? 'met' : 'NOT MET'})`,
);
log(
  JSON.stringify({
    rows: embedded.rows,
    seconds: embedded.seconds,
    docs_per_s: embedded.docs_per_s,
    peak_rss_mb: embedded.peak_rss_mb,
    single_thread_render_docs_per_s: round(single),
    parallel_efficiency: efficiency(embedded),
    render_pool_docs_per_s: round(pool),
    cores: CORES,
    runs: RUNS,
    phases: embedded.phases,
    postgres: postgres ? { ...postgres, parallel_efficiency: efficiency(postgres) } : null,
  }),
);
