/**
 * `npm run bench:lighthouse`: Lighthouse on the landing page (`/`), as a signed-out visitor gets it,
 * from the production build served by the server bundle, in Debian's Chromium.
 *
 * Runs the mobile preset (Lighthouse's default: a mid-range phone on a slow 4G, simulated) and the
 * desktop preset, 3 times each, and reports the median of each figure. Targets: mobile performance
 * at least 90 with CLS at most 0.05 and TBT at most 200 ms; desktop performance at least 95.
 *
 *   tsx bench/web/lighthouse.ts [--runs N] [--url /path]     (defaults 3 and /)
 *
 * Last line: {"mobile":{"performance":…,"cls":…,"tbt_ms":…,"lcp_ms":…,"fcp_ms":…,"si_ms":…},
 *             "desktop":{…},"runs":N}  (medians)
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
import { median, startServer } from '../lib/harness.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, url: { type: 'string', default: '/' } } });
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a positive integer, got ${args.runs}`);
const ROOT = path.resolve(import.meta.dirname, '../..');
const log = (line = '') => process.stdout.write(`${line}\n`);

const TARGETS = { mobile: { performance: 90, cls: 0.05, tbt_ms: 200 }, desktop: { performance: 95 } };

type Figures = { performance: number; cls: number; tbt_ms: number; lcp_ms: number; fcp_ms: number; si_ms: number };

/** `npm start`'s first half: builds dist/web when its sources changed, bundles the server. */
async function prepareStart(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/prepare-start.ts'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`scripts/prepare-start.ts exited with ${code}`);
}

async function audit(url: string, port: number, preset: 'mobile' | 'desktop'): Promise<Figures> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
    preset === 'desktop' ? desktopConfig : undefined,
  );
  if (!result) throw new Error('Lighthouse returned no result');
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: Math.round((lhr.categories['performance']?.score ?? 0) * 100),
    cls: Math.round(metric('cumulative-layout-shift') * 1000) / 1000,
    tbt_ms: Math.round(metric('total-blocking-time')),
    lcp_ms: Math.round(metric('largest-contentful-paint')),
    fcp_ms: Math.round(metric('first-contentful-paint')),
    si_ms: Math.round(metric('speed-index')),
  };
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
    const url = `${base}${args.url}`;
    // One unmeasured load: the server's first answers (compression caches, file reads) are not the page's.
    await audit(url, chrome.port, 'desktop');
    const results: Record<'mobile' | 'desktop', Figures[]> = { mobile: [], desktop: [] };
    for (let run = 1; run <= RUNS; run++) {
      for (const preset of ['mobile', 'desktop'] as const) {
        const figures = await audit(url, chrome.port, preset);
        results[preset].push(figures);
        log(
          `run ${run} ${preset.padEnd(7)} performance ${figures.performance}  CLS ${figures.cls}  TBT ${figures.tbt_ms} ms  LCP ${figures.lcp_ms} ms  FCP ${figures.fcp_ms} ms`,
        );
      }
    }
    const mobile = medians(results.mobile);
    const desktop = medians(results.desktop);
    log();
    log(`median of ${RUNS}, ${args.url}:`);
    log(
      `  mobile   performance ${mobile.performance} (target ≥ ${TARGETS.mobile.performance}), CLS ${mobile.cls} (≤ ${TARGETS.mobile.cls}), TBT ${mobile.tbt_ms} ms (≤ ${TARGETS.mobile.tbt_ms}), LCP ${mobile.lcp_ms} ms`,
    );
    log(
      `  desktop  performance ${desktop.performance} (target ≥ ${TARGETS.desktop.performance}), CLS ${desktop.cls}, TBT ${desktop.tbt_ms} ms, LCP ${desktop.lcp_ms} ms`,
    );
    log(JSON.stringify({ mobile, desktop, runs: RUNS }));
  } finally {
    chrome.kill();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
