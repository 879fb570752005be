/**
 * `npm run bench:render`: our renderer against pdfkit, pdfme and Chromium on the reference
 * documents (bench/render/formats), in one run. See bench/render/README.md.
 *
 *   tsx bench/render/run.ts [--quick] [--rounds N] [--engines ours,pdfkit,...] [--no-soak]
 *
 * Method
 * - Every engine runs in its own child process (worker.ts), set up once (fonts parsed, browser
 *   launched), then driven over IPC. Only one engine works at a time.
 * - After a warm-up that also sizes the batches (so a batch takes about the same wall time for
 *   every engine), the engines run interleaved: each round runs every engine on every reference
 *   document for a batch of N documents, the engine order rotating from round to round. Each
 *   document in a batch has different placeholder data.
 * - Figures are medians over rounds; a ratio is the median of the per-round ratios, so a slow
 *   patch of a noisy 2-core machine hits both sides of a ratio alike.
 * - Peak RSS per engine: the worker's kernel high-water mark (getrusage maxRSS) plus, for
 *   Chromium, the peak summed PSS of the browser processes, sampled by this process every
 *   200 ms while that engine runs (see proctree.ts).
 * - Cold start: cold.ts, bundled like the server, in a fresh plain-Node process (import of the
 *   renderer to first PDF), median of runs.
 * - Memory: soak.ts renders 10,000 documents in a row in a fresh process (2,000 with --quick).
 *
 * The last line of output is one JSON object with the headline figures.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ENGINE_KINDS, headingPrefixOf, KINDS, type Kind } from './fixture.ts';
import { prepareColdProbe } from './cold-probe.ts';
import { fontPaths } from './fonts.ts';
import { ENGINE_NAMES, type EngineName } from './engines/types.ts';
import type { ToParent, ToWorker } from './protocol.ts';
import { descendantsMemKb } from './proctree.ts';

const HERE = import.meta.dirname;
const ROOT = resolve(HERE, '../..');
const OUT = join(ROOT, 'bench/out/render');
const TSX = import.meta.resolve('tsx');

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    engines: { type: 'string' },
    'no-soak': { type: 'boolean', default: false },
  },
});
const QUICK = args.quick === true;
const ROUNDS = args.rounds ? Number(args.rounds) : QUICK ? 3 : 10;
const WARMUP_DOCS = QUICK ? 2 : 5;
const BATCH_TARGET_MS = QUICK ? 250 : 600;
const SOAK_DOCS = QUICK ? 2_000 : 10_000;
const COLD_RUNS = QUICK ? 1 : 3;
const ENGINES: EngineName[] = args.engines
  ? (args.engines.split(',').filter((e) => (ENGINE_NAMES as readonly string[]).includes(e)) as EngineName[])
  : [...ENGINE_NAMES];

// ---------------------------------------------------------------------------------------------
// Workers

class Worker {
  readonly proc: ChildProcess;
  private waiting: ((m: ToParent) => void)[] = [];
  private exited = false;
  stderr = '';

  constructor(readonly name: EngineName) {
    this.proc = fork(join(HERE, 'worker.ts'), [name], {
      cwd: ROOT,
      execArgv: ['--import', TSX],
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    this.proc.stderr?.on('data', (b: Buffer) => {
      this.stderr += b.toString();
    });
    this.proc.on('message', (m) => this.waiting.shift()?.(m as ToParent));
    this.proc.on('exit', (code) => {
      this.exited = true;
      for (const w of this.waiting.splice(0)) {
        w({ type: 'error', message: `worker exited (${code}): ${this.stderr.trim().slice(-2000)}` });
      }
    });
  }

  next(): Promise<ToParent> {
    if (this.exited) return Promise.resolve({ type: 'error', message: `worker exited: ${this.stderr.slice(-2000)}` });
    return new Promise((r) => this.waiting.push(r));
  }

  request(msg: ToWorker): Promise<ToParent> {
    const p = this.next();
    this.proc.send(msg);
    return p;
  }

  kill(): void {
    if (!this.exited) this.proc.kill('SIGKILL');
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? (s[m] ?? NaN) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const fmt = (x: number | null | undefined, d = 2): string => (x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(d));
const round = (x: number, d = 2): number => Math.round(x * 10 ** d) / 10 ** d;
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);
const log = (s = '') => process.stdout.write(`${s}\n`);

function tool(cmd: string, argv: string[]): string | null {
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 });
  } catch {
    return null;
  }
}

/** Runs a bench script in a fresh process with the TypeScript loader, or a bundled `.mjs` without. */
function runChild(script: string, argv: string[], extraExecArgv: string[] = []): Promise<unknown> {
  const bundled = script.endsWith('.mjs');
  return new Promise((resolvePromise, reject) => {
    const p = fork(bundled ? script : join(HERE, script), argv, {
      cwd: ROOT,
      execArgv: bundled ? extraExecArgv : [...extraExecArgv, '--import', TSX],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let out = '';
    let err = '';
    p.stdout?.on('data', (b: Buffer) => (out += b.toString()));
    p.stderr?.on('data', (b: Buffer) => (err += b.toString()));
    p.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolvePromise(JSON.parse(last));
      } catch (e) {
        reject(new Error(`${script} failed (${String(e)}): ${err.trim().slice(-1500)}`));
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Main

interface Cell {
  msPerDoc: number[]; // one entry per round
  bytes: number;
  docs: number;
}

const tRun = performance.now();
log(`Formwork render benchmark${QUICK ? ' (--quick: fewer rounds, shorter batches, 2,000-document soak)' : ''}`);
const chromiumVersion = (tool('/usr/bin/chromium', ['--version']) ?? 'not found').trim();
log(`node ${process.version}, ${(await import('node:os')).cpus().length} CPUs, ${chromiumVersion}`);
const fonts = fontPaths();
log(
  `fonts (all engines): ${Object.entries(fonts)
    .map(([k, v]) => `${k}=${relative(ROOT, v)}`)
    .join(', ')}`,
);
log();

// Start the workers one after the other (so setup does not compete for the CPUs).
const workers = new Map<EngineName, Worker>();
const unavailable = new Map<EngineName, string>();
for (const name of ENGINES) {
  const w = new Worker(name);
  const m = await w.next();
  if (m.type === 'ready') {
    workers.set(name, w);
    log(`${pad(name, 9)} set up in ${fmt(m.setupMs, 0)} ms`);
  } else {
    const reason = m.type === 'error' ? (m.message.split('\n')[0] ?? '') : `unexpected ${m.type}`;
    unavailable.set(name, reason);
    log(`${pad(name, 9)} NOT AVAILABLE: ${reason}`);
    w.kill();
  }
}
const live = [...workers.keys()];

// Memory sampling of the active worker's descendants (Chromium's processes).
const peakChildKb = new Map<EngineName, number>();
const maxRssKb = new Map<EngineName, number>();
let active: EngineName | null = null;
const sampler = setInterval(() => {
  if (!active) return;
  const w = workers.get(active);
  if (!w?.proc.pid) return;
  const kb = descendantsMemKb(w.proc.pid);
  if (kb > (peakChildKb.get(active) ?? 0)) peakChildKb.set(active, kb);
}, 200);

const counters = new Map<EngineName, number>();
async function batch(name: EngineName, kind: Kind, n: number): Promise<{ ms: number; bytes: number }> {
  const w = workers.get(name)!;
  const start = counters.get(name) ?? 0;
  counters.set(name, start + n);
  active = name;
  const m = await w.request({ type: 'run', kind, n, start });
  active = null;
  if (m.type !== 'result') throw new Error(`${name} ${kind}: ${m.type === 'error' ? m.message : m.type}`);
  maxRssKb.set(name, Math.max(maxRssKb.get(name) ?? 0, m.maxRssKb));
  return { ms: m.ms, bytes: m.bytes };
}

// Warm-up, which also sizes each batch to about BATCH_TARGET_MS.
const batchSize = new Map<string, number>();
const failed = new Map<string, string>();
/** Whether this engine renders this document at all (the invoice is for ours and Chromium). */
const supports = (name: EngineName, kind: Kind) => (ENGINE_KINDS[name] as readonly Kind[]).includes(kind);
for (const name of live) {
  for (const kind of KINDS) {
    if (!supports(name, kind)) continue;
    try {
      await batch(name, kind, 1); // first document: caches, JIT
      const r = await batch(name, kind, WARMUP_DOCS);
      const per = r.ms / WARMUP_DOCS;
      batchSize.set(`${name}/${kind}`, Math.max(2, Math.min(5_000, Math.round(BATCH_TARGET_MS / Math.max(per, 0.01)))));
    } catch (e) {
      failed.set(`${name}/${kind}`, String(e).split('\n')[0] ?? '');
    }
  }
}

// Sanity: every engine's output is a real PDF with the heading text, the pages and the fonts.
mkdirSync(OUT, { recursive: true });
const hasPdftotext = tool('pdftotext', ['-v']) !== null || existsSync('/usr/bin/pdftotext');
log();
log(`Sanity (one document per engine and reference; PDFs in ${relative(ROOT, OUT)}/)`);
log(`${pad('engine', 9)} ${pad('doc', 8)} ${lpad('pages', 5)} ${lpad('bytes', 8)}  %PDF  heading  embedded fonts`);
const pages = new Map<string, number>();
const sanityFailures: string[] = [];
for (const name of live) {
  for (const kind of KINDS) {
    if (failed.has(`${name}/${kind}`) || !supports(name, kind)) continue;
    const out = join(OUT, `${name}-${kind}.pdf`);
    const m = await workers.get(name)!.request({ type: 'sample', kind, i: 7, out });
    if (m.type !== 'sampled') {
      failed.set(`${name}/${kind}`, m.type === 'error' ? (m.message.split('\n')[0] ?? '') : m.type);
      continue;
    }
    const head = readFileSync(out).subarray(0, 5).toString('latin1');
    const okPdf = head === '%PDF-';
    let okHeading: boolean | null = null;
    let fontList = '?';
    let nPages = NaN;
    if (hasPdftotext) {
      const txt = tool('pdftotext', ['-layout', out, '-']) ?? '';
      okHeading = txt.includes(headingPrefixOf(kind));
      const info = tool('pdfinfo', [out]) ?? '';
      nPages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? NaN);
      const pf = (tool('pdffonts', [out]) ?? '').split('\n').slice(2).filter(Boolean);
      fontList = [...new Set(pf.map((l) => (l.split(/\s+/)[0] ?? '').replace(/^[A-Z]{6}\+/, '')))].join(' ') || '(none)';
      if (!fontList.includes('Arimo')) sanityFailures.push(`${name}/${kind}: Arimo not embedded`);
      if (name === 'tagged' && !/^Tagged:\s+yes$/m.test(info)) sanityFailures.push(`${name}/${kind}: not tagged`);
    }
    pages.set(`${name}/${kind}`, nPages);
    if (!okPdf) sanityFailures.push(`${name}/${kind}: not a PDF`);
    if (okHeading === false) sanityFailures.push(`${name}/${kind}: heading text not extracted`);
    log(
      `${pad(name, 9)} ${pad(kind, 8)} ${lpad(String(nPages), 5)} ${lpad(String(m.bytes), 8)}  ${pad(okPdf ? 'ok' : 'NO', 4)}  ${pad(okHeading === null ? 'skip' : okHeading ? 'ok' : 'NO', 7)}  ${fontList}`,
    );
  }
}
if (!hasPdftotext) log('(pdftotext not installed: text, page and font checks skipped; apt-get install poppler-utils)');
for (const f of sanityFailures) log(`SANITY FAILURE: ${f}`);
for (const [k, v] of failed) log(`FAILED: ${k}: ${v}`);

// Interleaved rounds.
const cells = new Map<string, Cell>();
log();
log(`Timing: ${ROUNDS} rounds; each round runs every engine on every reference, ~${BATCH_TARGET_MS} ms batches`);
for (let r = 0; r < ROUNDS; r++) {
  const order = live.map((_, i) => live[(i + r) % live.length]!);
  for (const kind of KINDS) {
    for (const name of order) {
      const key = `${name}/${kind}`;
      if (failed.has(key) || !supports(name, kind)) continue;
      const n = batchSize.get(key) ?? 2;
      try {
        const res = await batch(name, kind, n);
        const c = cells.get(key) ?? { msPerDoc: [], bytes: 0, docs: 0 };
        c.msPerDoc.push(res.ms / n);
        c.bytes += res.bytes;
        c.docs += n;
        cells.set(key, c);
      } catch (e) {
        failed.set(key, String(e).split('\n')[0] ?? '');
      }
    }
  }
  process.stdout.write(`  round ${r + 1}/${ROUNDS} done (${fmt((performance.now() - tRun) / 1000, 0)} s)\n`);
}
clearInterval(sampler);
for (const w of workers.values()) {
  const m = await Promise.race([w.request({ type: 'close' }), new Promise<null>((r) => setTimeout(() => r(null), 10_000))]);
  if (!m) w.kill();
}

// Cold start and soak, each in fresh processes.
interface ColdResult {
  import_to_first_pdf_ms: number;
  import_renderer_ms: number;
  bench_setup_ms: number;
  first_render_ms: number;
  second_render_ms: number;
  process_start_to_first_pdf_ms: number;
}
let cold: ColdResult[] = [];
interface SoakResult {
  docs: number;
  ms_per_doc: number;
  rss_mb_end: number;
  peak_rss_mb: number;
  window_docs: number;
  rss_growth_mb_over_window: number;
  heap_growth_mb_over_window_after_gc: number | null;
  still_growing: boolean;
}
let soak: SoakResult | null = null;
const oursOk = workers.has('ours');
if (oursOk) {
  try {
    const [probe = '', ...probeArgs] = await prepareColdProbe();
    for (let i = 0; i < COLD_RUNS; i++) {
      try {
        cold.push((await runChild(probe, probeArgs)) as ColdResult);
      } catch (e) {
        log(`cold start failed: ${String(e)}`);
      }
    }
  } catch (e) {
    log(`cold start probe could not be built: ${String(e)}`);
  }
  if (!args['no-soak']) {
    try {
      soak = (await runChild('soak.ts', [String(SOAK_DOCS)], ['--expose-gc'])) as SoakResult;
    } catch (e) {
      log(`soak failed: ${String(e)}`);
    }
  }
} else {
  cold = [];
}

// ---------------------------------------------------------------------------------------------
// Report

const med = (name: EngineName, kind: Kind): number | null => {
  const c = cells.get(`${name}/${kind}`);
  return c && c.msPerDoc.length > 0 ? median(c.msPerDoc) : null;
};
const ratio = (base: EngineName, kind: Kind, over: EngineName = 'ours'): number | null => {
  const a = cells.get(`${base}/${kind}`)?.msPerDoc;
  const b = cells.get(`${over}/${kind}`)?.msPerDoc;
  if (!a || !b || a.length === 0 || a.length !== b.length) return null;
  return median(a.map((x, i) => x / (b[i] ?? NaN)));
};
const bytesPerDoc = (name: EngineName, kind: Kind): number | null => {
  const c = cells.get(`${name}/${kind}`);
  return c && c.docs > 0 ? c.bytes / c.docs : null;
};
const peakMb = (name: EngineName): number | null => {
  const k = maxRssKb.get(name);
  if (k === undefined) return null;
  return (k + (peakChildKb.get(name) ?? 0)) / 1024;
};

log();
log('Results: ms/doc is the median over rounds (min..max of the rounds in brackets)');
log(
  `${pad('doc', 8)} ${pad('engine', 9)} ${lpad('ms/doc', 8)} ${pad('  (range)', 19)} ${lpad('docs/s', 8)} ${lpad('bytes/doc', 10)} ${lpad('pages', 5)} ${lpad('peak RSS MB', 12)}`,
);
for (const kind of KINDS) {
  for (const name of ENGINES) {
    const c = cells.get(`${name}/${kind}`);
    if (!c || c.msPerDoc.length === 0) {
      const why = unavailable.get(name) ?? failed.get(`${name}/${kind}`) ?? (supports(name, kind) ? 'not run' : 'not built for this document');
      log(`${pad(kind, 8)} ${pad(name, 9)} ${lpad('n/a', 8)}   ${why}`);
      continue;
    }
    const m = median(c.msPerDoc);
    const range = `(${fmt(Math.min(...c.msPerDoc))}..${fmt(Math.max(...c.msPerDoc))})`;
    const peak = peakMb(name);
    const child = peakChildKb.get(name);
    const peakTxt = peak === null ? 'n/a' : `${fmt(peak, 0)}${child ? '*' : ''}`;
    log(
      `${pad(kind, 8)} ${pad(name, 9)} ${lpad(fmt(m), 8)}   ${pad(range, 17)} ${lpad(fmt(1000 / m, 1), 8)} ${lpad(String(Math.round(c.bytes / c.docs)), 10)} ${lpad(String(pages.get(`${name}/${kind}`) ?? '?'), 5)} ${lpad(peakTxt, 12)}`,
    );
  }
}
log('peak RSS is per engine process over the whole run (setup included); * = plus the peak summed');
log('PSS of the Chromium processes it drives.');

log();
log('Ratios (median of per-round ratios; higher = ours faster)');
const targets: { kind: Kind; base: EngineName; target: number | null }[] = [
  { kind: '1p', base: 'chromium', target: 20 },
  { kind: '1p', base: 'pdfkit', target: 8 },
  { kind: '1p', base: 'pdfme', target: null },
  { kind: '5p', base: 'chromium', target: 10 },
  { kind: '5p', base: 'pdfkit', target: null },
  { kind: '5p', base: 'pdfme', target: null },
  { kind: 'unicode', base: 'chromium', target: null },
  { kind: 'unicode', base: 'pdfkit', target: null },
  { kind: 'unicode', base: 'pdfme', target: null },
  { kind: 'invoice', base: 'chromium', target: 20 },
];
const verdicts: string[] = [];
for (const t of targets) {
  const r = ratio(t.base, t.kind);
  let verdict = '';
  if (t.target !== null) {
    verdict = r === null ? `target >= ${t.target}x: NOT MEASURED` : `target >= ${t.target}x: ${r >= t.target ? 'met' : 'NOT MET'}`;
    verdicts.push(`${t.kind} ${t.base}/ours ${verdict}`);
  }
  log(`${pad(t.kind, 8)} ${pad(`${t.base}/ours`, 15)} ${lpad(r === null ? 'n/a' : `${fmt(r, 1)}x`, 8)}   ${verdict}`);
}

log();
log('Tagged documents (docs/accessible-pdf.md) beside untagged ones, in the same rounds');
const taggedChecks: { what: string; value: number | null; target: string; met: (v: number) => boolean }[] = [
  { what: '1p chromium/tagged', value: ratio('chromium', '1p', 'tagged'), target: '>= 50x', met: (v) => v >= 50 },
  { what: '1p tagged/ours time', value: ratio('tagged', '1p'), target: '<= 1.3x', met: (v) => v <= 1.3 },
  { what: 'invoice tagged/ours time', value: ratio('tagged', 'invoice'), target: '<= 1.3x', met: (v) => v <= 1.3 },
  ...(['1p', 'invoice'] as const).map((kind) => {
    const [tagged, ours] = [bytesPerDoc('tagged', kind), bytesPerDoc('ours', kind)];
    return { what: `${kind} tagged/ours size`, value: tagged !== null && ours ? tagged / ours : null, target: '<= 1.15x', met: (v: number) => v <= 1.15 };
  }),
];
for (const c of taggedChecks) {
  log(
    `${pad(c.what, 26)} ${lpad(c.value === null ? 'n/a' : `${fmt(c.value, 2)}x`, 8)}   target ${c.target}: ${c.value === null ? 'NOT MEASURED' : c.met(c.value) ? 'met' : 'NOT MET'}`,
  );
}

log();
const coldMs = cold.length > 0 ? median(cold.map((c) => c.import_to_first_pdf_ms)) : null;
if (coldMs !== null) {
  const m = (f: (c: ColdResult) => number, d = 0) => fmt(median(cold.map(f)), d);
  log(
    `Cold start (fresh process; import of the renderer + first render, median of ${cold.length}): ${fmt(coldMs, 0)} ms  ` +
      `target <= 300 ms: ${coldMs <= 300 ? 'met' : 'NOT MET'}`,
  );
  log(
    `  import ${m((c) => c.import_renderer_ms)} ms + first render ${m((c) => c.first_render_ms)} ms ` +
      `(second render ${m((c) => c.second_render_ms, 1)} ms; not counted: reading the input ${m((c) => c.bench_setup_ms)} ms, ` +
      `node boot before the probe ran ${m((c) => c.process_start_to_first_pdf_ms - c.import_to_first_pdf_ms - c.bench_setup_ms)} ms)`,
  );
} else {
  log(`Cold start: not measured${oursOk ? '' : ' (our renderer is not available)'}`);
}
if (soak) {
  log(
    `Memory: ${soak.docs.toLocaleString('en-US')} renders in a row${QUICK ? ' (--quick: reduced from 10,000)' : ''}: RSS ${fmt(soak.rss_mb_end, 1)} MB at the end ` +
      `(peak ${fmt(soak.peak_rss_mb, 1)} MB, ${fmt(soak.ms_per_doc)} ms/doc); over the last ${soak.window_docs.toLocaleString('en-US')}: ` +
      `RSS ${soak.rss_growth_mb_over_window >= 0 ? '+' : ''}${fmt(soak.rss_growth_mb_over_window, 1)} MB, heap after GC ` +
      `${soak.heap_growth_mb_over_window_after_gc === null ? 'n/a' : `${soak.heap_growth_mb_over_window_after_gc >= 0 ? '+' : ''}${fmt(soak.heap_growth_mb_over_window_after_gc, 1)} MB`}` +
      ` -> ${soak.still_growing ? 'STILL GROWING' : 'not growing'}.  target < 250 MB and not growing: ${soak.rss_mb_end < 250 && !soak.still_growing ? 'met' : 'NOT MET'}`,
  );
} else {
  log(`Memory soak: not measured${oursOk ? '' : ' (our renderer is not available)'}`);
}
if (!oursOk) log(`ours: NOT MEASURED: ${unavailable.get('ours') ?? 'not selected'}`);
log(`total ${fmt((performance.now() - tRun) / 1000, 1)} s`);

const r2 = (x: number | null) => (x === null || !Number.isFinite(x) ? null : round(x));
const summary = {
  ours_1p_ms: r2(med('ours', '1p')),
  pdfkit_1p_ms: r2(med('pdfkit', '1p')),
  pdfme_1p_ms: r2(med('pdfme', '1p')),
  chromium_1p_ms: r2(med('chromium', '1p')),
  ours_5p_ms: r2(med('ours', '5p')),
  chromium_5p_ms: r2(med('chromium', '5p')),
  ours_invoice_200_ms: r2(med('ours', 'invoice')),
  chromium_invoice_200_ms: r2(med('chromium', 'invoice')),
  invoice_chromium_over_ours: r2(ratio('chromium', 'invoice')),
  tagged_1p_ms: r2(med('tagged', '1p')),
  tagged_invoice_200_ms: r2(med('tagged', 'invoice')),
  tagged_1p_chromium_over_tagged: r2(ratio('chromium', '1p', 'tagged')),
  ours_cold_first_doc_ms: r2(coldMs),
  ours_rss_mb_after_10k: soak ? r2(soak.rss_mb_end) : null,
};
log(JSON.stringify(summary));
process.exitCode = sanityFailures.length > 0 || failed.size > 0 ? 1 : 0;
