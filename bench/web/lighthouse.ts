/**
 * `npm run bench:lighthouse`: Lighthouse on the pages people open first, from the production build
 * served by the server bundle, in Debian's Chromium: the landing page (`/`) and the API reference
 * (`/docs/api`) as a signed-out visitor gets them, and the dashboard as a signed-in person does
 * (`/dashboard` below: the bench signs a new person up on the started server and Lighthouse sends
 * their session cookie with every request, so `/` is the real signed-in dashboard).
 *
 * Runs the mobile preset (Lighthouse's default: a mid-range phone on a slow 4G, simulated) and the
 * desktop preset, 3 times each per page, and reports the median of each figure. Targets: CLS at most
 * 0.05 and TBT at most 200 ms on mobile everywhere; mobile performance at least 90 on `/` and 80 on
 * the others; desktop performance at least 95 everywhere.
 *
 *   tsx bench/web/lighthouse.ts [--runs N] [--url /path]... [--details]
 *   (defaults: 3 runs; /, /docs/api and /dashboard. --details also prints, per audit, the longest
 *   main-thread tasks and the LCP element: where to look next.)
 *
 * Last line: {"pages":{"/":{"mobile":{"performance":…,"cls":…,"tbt_ms":…,"lcp_ms":…,"fcp_ms":…,"si_ms":…},
 *             "desktop":{…}},"/docs/api":{…},"/dashboard":{…}},"runs":N}  (medians)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/chromium.ts';
import { apiClient, median, startServer } from '../lib/harness.ts';

/** The signed-in dashboard: `/` with a session (a name of the bench's own, not a route). */
const DASHBOARD = '/dashboard';
const DEFAULT_PAGES = ['/', '/docs/api', DASHBOARD];

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, url: { type: 'string', multiple: true }, details: { type: 'boolean', default: false } },
});
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a positive integer, got ${args.runs}`);
const PAGES = args.url?.length ? args.url : DEFAULT_PAGES;
const ROOT = path.resolve(import.meta.dirname, '../..');
const log = (line = '') => process.stdout.write(`${line}\n`);

const targets = (page: string) => ({ mobile: { performance: page === '/' ? 90 : 80, cls: 0.05, tbt_ms: 200 }, desktop: { performance: 95 } });

type Figures = { performance: number; cls: number; tbt_ms: number; lcp_ms: number; fcp_ms: number; si_ms: number };

/** `npm start`'s first half: builds dist/web when its sources changed, bundles the server. */
async function prepareStart(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/prepare-start.ts'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`scripts/prepare-start.ts exited with ${code}`);
}

/** A new person signed up on the started server: their session cookie. */
async function signedInCookie(base: string): Promise<string> {
  const client = apiClient(base);
  const email = `lighthouse-${Date.now()}@example.com`;
  await client.call('POST', '/api/auth/sign-up', { firstName: 'Bench', lastName: 'Lighthouse', email, password: 'benchmark password' });
  const check = await (await fetch(`${base}/api/auth/session`, { headers: { cookie: client.cookie } })).json();
  if (!(check as { user: unknown }).user) throw new Error('the bench could not sign in: the dashboard would be the landing page');
  return client.cookie;
}

/** One audit; a trace Lighthouse failed to record (NO_NAVSTART and the like, on a busy machine) is taken again, once. */
async function audit(url: string, port: number, preset: 'mobile' | 'desktop', cookie?: string): Promise<Figures> {
  try {
    return await auditOnce(url, port, preset, cookie);
  } catch (error) {
    log(`  (${preset} audit failed, taken again: ${(error as Error).message})`);
    return auditOnce(url, port, preset, cookie);
  }
}

async function auditOnce(url: string, port: number, preset: 'mobile' | 'desktop', cookie?: string): Promise<Figures> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}) },
    preset === 'desktop' ? desktopConfig : undefined,
  );
  if (!result) throw new Error('Lighthouse returned no result');
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  if (args.details) logDetails(preset, lhr.audits);
  return {
    performance: Math.round((lhr.categories['performance']?.score ?? 0) * 100),
    cls: Math.round(metric('cumulative-layout-shift') * 1000) / 1000,
    tbt_ms: Math.round(metric('total-blocking-time')),
    lcp_ms: Math.round(metric('largest-contentful-paint')),
    fcp_ms: Math.round(metric('first-contentful-paint')),
    si_ms: Math.round(metric('speed-index')),
  };
}

type TAudits = Record<string, { details?: unknown }>;
/** A table audit's rows; other kinds of details have none. */
const itemsOf = (audits: TAudits, id: string) => (audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];

/** The longest main-thread tasks (as Lighthouse simulates them on the preset's device) and the LCP element. */
function logDetails(preset: string, audits: TAudits): void {
  const tasks = itemsOf(audits, 'long-tasks') as { url?: string; duration?: number; startTime?: number }[];
  for (const task of tasks.slice(0, 8))
    log(`    ${preset} long task ${Math.round(task.duration ?? 0)} ms at ${Math.round(task.startTime ?? 0)} ms: ${task.url ?? '?'}`);
  // Lighthouse 12 names the LCP element in its LCP breakdown insight, beside the subparts' durations.
  const lcp = itemsOf(audits, 'lcp-breakdown-insight') as {
    type?: string;
    nodeLabel?: string;
    selector?: string;
    items?: { label?: string; duration?: number }[];
  }[];
  const node = lcp.find((item) => item.type === 'node');
  const subparts = lcp.find((item) => item.type === 'table')?.items ?? [];
  if (node) log(`    ${preset} LCP element: ${node.selector ?? '?'} "${(node.nodeLabel ?? '').slice(0, 80)}"`);
  if (subparts.length) log(`    ${preset} LCP subparts: ${subparts.map((s) => `${s.label} ${Math.round(s.duration ?? 0)} ms`).join(', ')}`);
}

function medians(runs: Figures[]): Figures {
  const pick = (k: keyof Figures) => median(runs.map((r) => r[k]));
  return { performance: pick('performance'), cls: pick('cls'), tbt_ms: pick('tbt_ms'), lcp_ms: pick('lcp_ms'), fcp_ms: pick('fcp_ms'), si_ms: pick('si_ms') };
}

async function main() {
  await prepareStart();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'formwork-bench-lighthouse-'));
  const { child, base } = await startServer({ NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: '' });
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: [...CHROMIUM_ARGS, '--headless=new'] });
  try {
    const cookie = PAGES.includes(DASHBOARD) ? await signedInCookie(base) : undefined;
    const pages: Record<string, Record<'mobile' | 'desktop', Figures>> = {};
    for (const page of PAGES) {
      const signedIn = page === DASHBOARD;
      const url = `${base}${signedIn ? '/' : page}`;
      const session = signedIn ? cookie : undefined;
      // One unmeasured load: the server's first answers (compression caches, file reads) are not the page's.
      await audit(url, chrome.port, 'desktop', session);
      const results: Record<'mobile' | 'desktop', Figures[]> = { mobile: [], desktop: [] };
      for (let run = 1; run <= RUNS; run++) {
        for (const preset of ['mobile', 'desktop'] as const) {
          const figures = await audit(url, chrome.port, preset, session);
          results[preset].push(figures);
          log(
            `${page} run ${run} ${preset.padEnd(7)} performance ${figures.performance}  CLS ${figures.cls}  TBT ${figures.tbt_ms} ms  LCP ${figures.lcp_ms} ms  FCP ${figures.fcp_ms} ms`,
          );
        }
      }
      pages[page] = { mobile: medians(results.mobile), desktop: medians(results.desktop) };
    }
    log();
    for (const [page, { mobile, desktop }] of Object.entries(pages)) {
      const target = targets(page);
      log(`median of ${RUNS}, ${page}${page === DASHBOARD ? ' (/ signed in)' : ''}:`);
      log(
        `  mobile   performance ${mobile.performance} (target ≥ ${target.mobile.performance}), CLS ${mobile.cls} (≤ ${target.mobile.cls}), TBT ${mobile.tbt_ms} ms (≤ ${target.mobile.tbt_ms}), LCP ${mobile.lcp_ms} ms`,
      );
      log(
        `  desktop  performance ${desktop.performance} (target ≥ ${target.desktop.performance}), CLS ${desktop.cls}, TBT ${desktop.tbt_ms} ms, LCP ${desktop.lcp_ms} ms`,
      );
    }
    log(JSON.stringify({ pages, runs: RUNS }));
  } finally {
    chrome.kill();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
