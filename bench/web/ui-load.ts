/**
 * `npm run bench:ui`: page load times of the web app as people get it: the production build
 * (dist/web, built by the same step `npm start` runs) served by the server bundle on plain Node,
 * in Debian's Chromium, with a fresh browser context (empty HTTP cache) for every run.
 *
 *   1. /builder/:id with a format of 100 elements (headings, paragraphs with {{placeholders}},
 *      lists, 4x5 tables, 3 uploaded images; 5 placeholders): from navigation start until all 100
 *      elements are on the canvas and the page is interactive (the first task after the frame that
 *      painted them), with the GET /api/formats/:id fetch (resource timing) and the render after it.
 *   2. / (dashboard) with 1,000 documents: until the four stat cards show the real numbers
 *      ("Documents Generated" 1,000) and the Recent Documents card lists its 3 documents.
 *   3. /documents (Recent Documents) with 1,000 documents: until the first 25 rows are visible.
 *   4. The builder's live preview on a 30-element format: keystroke to redrawn preview pages.
 *
 * Each page is loaded once unmeasured (server warm-up), then N times; pages are interleaved per run.
 *
 *   tsx bench/web/ui-load.ts [--runs N]     (default 5)
 *
 * Last line: {"builder_100_elements_ms":…,"builder_fetch_ms":…,"builder_render_ms":…,
 *             "dashboard_1000_docs_ms":…,"documents_page_1000_docs_ms":…,
 *             "preview_keystroke_30_elements_ms":…,"runs":N}  (medians)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { verificationTokenFrom } from '../lib/harness.ts';
import type { TElementInput, TFormatContentInput } from '../../src/contract/format-content.ts';
import type { TPlaceholderInput } from '../../src/contract/placeholders.ts';
import { SERVER_BUNDLE } from '../../scripts/build-server.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/chromium.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a positive integer, got ${args.runs}`);

const ROOT = path.resolve(import.meta.dirname, '../..');
const ELEMENTS = 100;
/** The live preview is measured on a format of this many elements: keystroke to redrawn preview. */
const PREVIEW_ELEMENTS = 30;
const PREVIEW_KEYSTROKES = 9;
const DOCUMENTS = 1000;
const DOCUMENT_CONCURRENCY = 4;
const DASHBOARD_DOCUMENTS_SHOWN = 3;
/** Rows Recent Documents shows before Load more (TIMELINE_STEP in use-document-timeline.ts). */
const DOCUMENTS_FIRST_PAGE = 25;
const PAGE_TIMEOUT_MS = 60_000;

const log = (line = '') => process.stdout.write(`${line}\n`);
const round = (n: number, d = 0) => Math.round(n * 10 ** d) / 10 ** d;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

// ---------------------------------------------------------------------------------------------
// Server: bundle, start, stop (as bench/bulk/run.ts does), on a throw-away data directory.

let server: ChildProcess | null = null;
let dataDir: string | null = null;
let browser: Browser | null = null;

/** Idempotent: the signal handler and the main flow's `finally` share one clean-up. */
let cleaning: Promise<void> | null = null;
const cleanup = () => (cleaning ??= stopAndRemove());

async function stopAndRemove(): Promise<void> {
  const b = browser;
  browser = null;
  await b?.close().catch(() => {});
  const child = server;
  server = null;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = null;
}

// `on`, not `once`: tsx's parent process sends the signal again when the child is slow to report it,
// and a process with no listener left would exit before the clean-up is done.
let signalled = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    log(`\n${signal}: stopping the server and removing the data directory`);
    void cleanup().finally(() => process.exit(130));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** `npm start`'s first half: builds dist/web when its sources changed, bundles the server. */
async function prepareStart(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/prepare-start.ts'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`scripts/prepare-start.ts exited with ${code}`);
}

async function startServer(email: string): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'formwork-bench-ui-'));
  const child = spawn(process.execPath, [SERVER_BUNDLE], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_EMAILS: email,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const deadline = Date.now() + 120_000;
  while (!/is running at/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return base;
}

// ---------------------------------------------------------------------------------------------
// Seed data through the public API.

function makeClient(base: string) {
  const jar = new Map<string, string>();
  const call = async (method: string, url: string, body?: unknown, form?: FormData) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        origin: base,
        ...(jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: form ?? (body !== undefined ? JSON.stringify(body) : undefined),
    });
    for (const c of response.headers.getSetCookie()) {
      const pair = c.split(';')[0]!;
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return response;
  };
  const json = async <T>(method: string, url: string, body?: unknown, form?: FormData) => (await (await call(method, url, body, form)).json()) as T;
  return { call, json, jar };
}

const PLACEHOLDERS: TPlaceholderInput[] = [
  { name: 'client_name', label: 'Client name', type: 'text', required: true },
  { name: 'issue_date', label: 'Issue date', type: 'date', required: true },
  { name: 'amount', label: 'Amount', type: 'number' },
  { name: 'client_email', label: 'Client email', type: 'email' },
  { name: 'notes', label: 'Notes', type: 'textarea' },
];

/** 10 sections of 10: 20 headings, 37 paragraphs, 20 lists, 10 tables (4 x 5), 3 images. */
function hundredElements(images: string[]): TElementInput[] {
  const elements: TElementInput[] = [];
  const id = () => `el-${elements.length + 1}`;
  for (let s = 0; s < 10; s++) {
    const n = s + 1;
    elements.push({ id: id(), type: 'heading', content: `${n}. Section ${n} for {{client_name}}`, fontSize: 'text-2xl' });
    elements.push({
      id: id(),
      type: 'paragraph',
      content: `This agreement is made on {{issue_date}} between **Formwork Ltd** and {{client_name}} ({{client_email}}). Section ${n} sets out the *scope* of the work and the terms that apply to it.`,
    });
    elements.push({
      id: id(),
      type: 'paragraph',
      content: `The total amount due under section ${n} is {{amount}}, payable within 30 days of the invoice date.\nLate payments carry interest at the statutory rate.`,
      align: 'justify',
    });
    elements.push({
      id: id(),
      type: 'list',
      listStyle: 'bulleted',
      items: [`Deliverable ${n}.1 for {{client_name}}`, `Deliverable ${n}.2, due {{issue_date}}`, `**Review** of section ${n}`, 'Sign-off by both parties'],
    });
    elements.push({
      id: id(),
      type: 'table',
      headerRow: true,
      rows: [
        ['Item', 'Description', 'Qty', 'Unit price', 'Total'],
        [`${n}01`, 'Design work', '4', '120.00', '480.00'],
        [`${n}02`, 'Implementation for {{client_name}}', '10', '95.00', '950.00'],
        [`${n}03`, 'Support', '2', '80.00', '{{amount}}'],
      ],
      columnWidths: [1, 3, 1, 1.5, 1.5],
    });
    elements.push({ id: id(), type: 'paragraph', content: `Notes for section ${n}: {{notes}}` });
    elements.push({ id: id(), type: 'heading', content: `${n}.1 Terms`, fontSize: 'text-xl', bold: false });
    elements.push({
      id: id(),
      type: 'paragraph',
      content: `Either party may end section ${n} with 14 days' written notice to the other. Notices go to {{client_email}} for {{client_name}}.`,
    });
    elements.push({ id: id(), type: 'list', listStyle: 'numbered', items: ['Notice in writing', 'Final invoice within 7 days', 'Return of materials'] });
    const image = [1, 4, 7].indexOf(s);
    if (image >= 0) elements.push({ id: id(), type: 'image', src: images[image]!, width: 240, height: 160, align: 'center' });
    else elements.push({ id: id(), type: 'paragraph', content: `Signed for {{client_name}} on {{issue_date}}.`, align: 'right', italic: true });
  }
  if (elements.length !== ELEMENTS) throw new Error(`built ${elements.length} elements`);
  return elements;
}

async function pngImage(seed: number): Promise<Buffer> {
  return sharp({ create: { width: 480, height: 320, channels: 3, background: { r: 40 + seed * 60, g: 90, b: 200 - seed * 50 } } })
    .composite([
      {
        input: Buffer.from(`<svg width="480" height="320"><circle cx="${160 + seed * 80}" cy="160" r="90" fill="#ffffff" fill-opacity="0.7"/></svg>`),
      },
    ])
    .png()
    .toBuffer();
}

type TSeed = { base: string; cookies: Map<string, string>; formatId: string; previewFormatId: string };

async function seed(base: string, email: string): Promise<TSeed> {
  const api = makeClient(base);
  const verificationToken = verificationTokenFrom(server!);
  const me = await api.json<{ id: string }>('POST', '/api/auth/sign-up', { firstName: 'Bench', lastName: 'Ui', email, password: 'benchmark password' });
  await api.call('POST', '/api/auth/verify-email', { token: await verificationToken });
  await api.call('PATCH', `/api/admin/users/${me.id}`, { subscriptionPlan: 'premium' });

  const images: string[] = [];
  for (let i = 0; i < 3; i++) {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(await pngImage(i))], { type: 'image/png' }), `image-${i}.png`);
    images.push((await api.json<{ url: string }>('POST', '/api/upload/image', undefined, form)).url);
  }
  const content: TFormatContentInput = { elements: hundredElements(images) };
  const big = await api.json<{ id: string; content: { elements: unknown[] } }>('POST', '/api/formats', {
    name: 'Service agreement (100 elements)',
    description: 'bench:ui',
    content,
    placeholders: PLACEHOLDERS,
  });
  if (big.content.elements.length !== ELEMENTS) throw new Error(`format saved with ${big.content.elements.length} elements`);
  const thirty = await api.json<{ id: string }>('POST', '/api/formats', {
    name: `Service agreement (${PREVIEW_ELEMENTS} elements)`,
    content: { elements: hundredElements(images).slice(0, PREVIEW_ELEMENTS) },
    placeholders: PLACEHOLDERS,
  });

  // The documents come from a short invoice format (the builder's format renders several pages).
  const invoice = await api.json<{ id: string }>('POST', '/api/formats', {
    name: 'Invoice',
    content: {
      elements: [
        { id: 'h', type: 'heading', content: 'Invoice for {{client_name}}' },
        { id: 'p', type: 'paragraph', content: 'Issued {{issue_date}}. Amount due: **{{amount}}**.' },
        {
          id: 't',
          type: 'table',
          headerRow: true,
          rows: [
            ['Item', 'Amount'],
            ['Services', '{{amount}}'],
          ],
        },
      ],
    },
    placeholders: PLACEHOLDERS.slice(0, 3),
  });
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < DOCUMENTS; i = next++) {
      await api.call('POST', '/api/documents', {
        formatId: invoice.id,
        name: `Invoice ${String(i + 1).padStart(4, '0')}`,
        clientName: `Client ${i % 37}`,
        data: { client_name: `Client ${i % 37}`, issue_date: '2026-03-14', amount: String(100 + i) },
      });
    }
  };
  await Promise.all(Array.from({ length: DOCUMENT_CONCURRENCY }, worker));
  const stats = await api.json<{ totalDocuments: number; totalFormats: number }>('GET', '/api/user/stats');
  if (stats.totalDocuments !== DOCUMENTS) throw new Error(`stats say ${stats.totalDocuments} documents`);
  log(`seeded: 2 formats, 3 images, ${DOCUMENTS.toLocaleString('en-US')} documents in ${round((performance.now() - started) / 1000, 1)} s`);
  return { base, cookies: api.jar, formatId: big.id, previewFormatId: thirty.id };
}

// ---------------------------------------------------------------------------------------------
// Measuring in the page: an init script watches the DOM from navigation start and records, in
// performance.now() time (0 = navigation start), when the page's condition first holds ("ready")
// and when the first task after the next frame runs ("interactive": painted, main thread free).

type TPageKind = 'builder' | 'dashboard' | 'documents';
type TProbe = { ready: number; interactive: number };
type TMeasure = { total: number; ready: number; sessionEnd: number; fetchStart: number; fetchMs: number; fetchEnd: number; apiEnd: number };

function installProbe(spec: { kind: TPageKind; elements: number; documents: string; dashboardDocs: number; rows: number }) {
  const w = window as unknown as { __uiBench?: TProbe };
  const ready = (): boolean => {
    if (spec.kind === 'builder') {
      const list = document.querySelector('[data-testid="canvas-elements"]');
      return !!list && list.querySelectorAll('[data-testid="canvas-element"] [data-testid="drag-handle"]').length === spec.elements;
    }
    if (spec.kind === 'dashboard') {
      const cards = [...document.querySelectorAll('[data-testid="stat-card"]')];
      if (cards.length !== 4 || cards.some((c) => c.querySelector('[data-slot="skeleton"]'))) return false;
      const documents = cards.find((c) => c.textContent?.includes('Documents Generated'));
      const value = documents?.querySelector('.tabular-nums')?.textContent?.trim();
      return value === spec.documents && document.querySelectorAll('[data-testid="dashboard-document"]').length === spec.dashboardDocs;
    }
    return document.querySelectorAll('[data-testid="document-row"]').length >= spec.rows;
  };
  let done = false;
  const check = () => {
    if (done || !ready()) return;
    done = true;
    observer.disconnect();
    const at = performance.now();
    requestAnimationFrame(() => setTimeout(() => (w.__uiBench = { ready: at, interactive: performance.now() })));
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
}

async function measure(b: Browser, s: TSeed, kind: TPageKind, screenshot?: string): Promise<TMeasure> {
  const context = await b.newContext({ viewport: { width: 1280, height: 800 }, baseURL: s.base });
  try {
    await context.addCookies([...s.cookies].map(([name, value]) => ({ name, value, url: s.base })));
    // tsx (esbuild keepNames) wraps named inner functions in __name(...): give the page a no-op one.
    await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
    await context.addInitScript(installProbe, {
      kind,
      elements: ELEMENTS,
      documents: DOCUMENTS.toLocaleString('en-US'),
      dashboardDocs: DASHBOARD_DOCUMENTS_SHOWN,
      rows: DOCUMENTS_FIRST_PAGE,
    });
    const page = await context.newPage();
    const url = kind === 'builder' ? `/builder/${s.formatId}` : kind === 'dashboard' ? '/' : '/documents';
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => (window as unknown as { __uiBench?: TProbe }).__uiBench, undefined, { timeout: PAGE_TIMEOUT_MS, polling: 50 });
    const timing = await page.evaluate(
      ({ formatPath }) => {
        const probe = (window as unknown as { __uiBench: TProbe }).__uiBench;
        const api = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
          (e) => new URL(e.name).pathname.startsWith('/api/') && e.responseEnd <= probe.ready,
        );
        const format = api.find((e) => new URL(e.name).pathname === formatPath);
        const session = api.find((e) => new URL(e.name).pathname === '/api/auth/session');
        return {
          total: probe.interactive,
          ready: probe.ready,
          sessionEnd: session?.responseEnd ?? 0,
          fetchStart: format?.startTime ?? 0,
          fetchMs: format ? format.responseEnd - format.startTime : 0,
          fetchEnd: format?.responseEnd ?? 0,
          apiEnd: Math.max(0, ...api.map((e) => e.responseEnd)),
        };
      },
      { formatPath: `/api/formats/${s.formatId}` },
    );
    if (kind === 'builder' && timing.fetchEnd === 0) throw new Error('no resource timing for GET /api/formats/:id before the canvas was complete');
    if (screenshot) await page.screenshot({ path: screenshot, fullPage: false });
    return timing;
  } finally {
    await context.close();
  }
}

/**
 * Keystroke to updated live preview, in the builder at 1280 px (the preview beside the canvas):
 * from the keydown in a paragraph to the moment the redrawn pages replace the old ones. One key at
 * a time, each waited for, so every figure is a whole round trip (debounce, server render, drawing).
 */
async function measurePreview(b: Browser, s: TSeed): Promise<number[]> {
  const context = await b.newContext({ viewport: { width: 1280, height: 900 }, baseURL: s.base });
  try {
    await context.addCookies([...s.cookies].map(([name, value]) => ({ name, value, url: s.base })));
    const page = await context.newPage();
    await page.goto(`/builder/${s.previewFormatId}`);
    const pages = page.getByTestId('pdf-pages');
    await pages.locator('canvas').first().waitFor({ timeout: PAGE_TIMEOUT_MS });
    await page.evaluate(() => {
      const w = window as unknown as { __keys: number[]; __redraws: number[] };
      w.__keys = [];
      w.__redraws = [];
      window.addEventListener('keydown', () => w.__keys.push(performance.now()), true);
      const box = document.querySelector('[data-testid="pdf-pages"]')!;
      new MutationObserver(() => w.__redraws.push(performance.now())).observe(box, { childList: true });
    });
    await page
      .getByTestId('canvas-element')
      .nth(1)
      .getByRole('button', { name: /press Enter to edit/ })
      .click();
    await page.getByLabel('Paragraph text').press('End');
    const latencies: number[] = [];
    for (let k = 0; k < PREVIEW_KEYSTROKES; k++) {
      const before = await page.evaluate(() => (window as unknown as { __redraws: number[] }).__redraws.length);
      await page.keyboard.press('x');
      await page.waitForFunction((n) => (window as unknown as { __redraws: number[] }).__redraws.length > n, before, { timeout: PAGE_TIMEOUT_MS });
      latencies.push(
        await page.evaluate(() => {
          const w = window as unknown as { __keys: number[]; __redraws: number[] };
          return w.__redraws.at(-1)! - w.__keys.at(-1)!;
        }),
      );
      await page.waitForTimeout(300);
    }
    return latencies;
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------

const stat = (xs: number[]) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
const cell = (xs: number[]) => {
  const { median: m, min, max } = stat(xs);
  return `${String(round(m)).padStart(6)} ms  (${round(min)}..${round(max)})`;
};

try {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  log(`bench:ui: ${RUNS} runs per page, ${os.availableParallelism()} cores, load average ${load}`);
  await prepareStart();
  const email = `bench-ui-${Date.now()}@example.com`;
  const base = await startServer(email);
  const s = await seed(base, email);
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

  const kinds: TPageKind[] = ['builder', 'dashboard', 'documents'];
  for (const kind of kinds) await measure(browser, s, kind); // warm-up, not counted
  const results: Record<TPageKind, TMeasure[]> = { builder: [], dashboard: [], documents: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const kind of kinds) {
      // BENCH_UI_SCREENSHOTS=dir keeps a screenshot of each page as the last run left it, to check what was measured.
      const shots = process.env.BENCH_UI_SCREENSHOTS;
      if (shots) mkdirSync(shots, { recursive: true });
      results[kind].push(await measure(browser, s, kind, shots && run === RUNS - 1 ? path.resolve(shots, `ui-load-${kind}.png`) : undefined));
    }
    const [b, d, r] = kinds.map((k) => round(results[k].at(-1)!.total));
    log(`  run ${run + 1}: builder ${b} ms, dashboard ${d} ms, documents ${r} ms`);
  }

  const preview = await measurePreview(browser, s);

  const builder = results.builder;
  const builderTotal = builder.map((m) => m.total);
  const builderFetch = builder.map((m) => m.fetchMs);
  const builderRender = builder.map((m) => m.total - m.fetchEnd);
  const dashboard = results.dashboard.map((m) => m.total);
  const documents = results.documents.map((m) => m.total);
  log('');
  log(`median (min..max) of ${RUNS} runs, from navigation start; new browser context (empty cache) per run`);
  log(`  builder, ${ELEMENTS} elements, until all are on the canvas and interactive   ${cell(builderTotal)}`);
  log(`    GET /api/auth/session answered (HTML, entry JS, session)               ${cell(builder.map((m) => m.sessionEnd))}`);
  log(`    GET /api/formats/:id starts (after the builder chunk)                  ${cell(builder.map((m) => m.fetchStart))}`);
  log(`    GET /api/formats/:id (resource timing, start to response end)          ${cell(builderFetch)}`);
  log(`    render, from the format's response to interactive                     ${cell(builderRender)}`);
  log(`      of which: all ${ELEMENTS} in the DOM, before paint (from the response)       ${cell(builder.map((m) => m.ready - m.fetchEnd))}`);
  log(`  dashboard, ${DOCUMENTS.toLocaleString('en-US')} documents, stat cards and recent documents shown      ${cell(dashboard)}`);
  log(`    GET /api/auth/session answered                                         ${cell(results.dashboard.map((m) => m.sessionEnd))}`);
  log(`    last API response before that                                          ${cell(results.dashboard.map((m) => m.apiEnd))}`);
  log(`  Recent Documents, ${DOCUMENTS.toLocaleString('en-US')} documents, first ${DOCUMENTS_FIRST_PAGE} rows visible               ${cell(documents)}`);
  log(`    GET /api/auth/session answered                                         ${cell(results.documents.map((m) => m.sessionEnd))}`);
  log(`    last API response before that                                          ${cell(results.documents.map((m) => m.apiEnd))}`);
  log(`  live preview, ${PREVIEW_ELEMENTS} elements, keystroke to redrawn pages (${PREVIEW_KEYSTROKES} keys)       ${cell(preview)}`);
  log(
    `load average now ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  log(
    JSON.stringify({
      builder_100_elements_ms: round(median(builderTotal), 1),
      builder_fetch_ms: round(median(builderFetch), 1),
      builder_render_ms: round(median(builderRender), 1),
      dashboard_1000_docs_ms: round(median(dashboard), 1),
      documents_page_1000_docs_ms: round(median(documents), 1),
      preview_keystroke_30_elements_ms: round(median(preview), 1),
      runs: RUNS,
    }),
  );
} finally {
  await cleanup();
}
