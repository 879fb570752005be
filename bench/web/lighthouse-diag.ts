// Temporary diagnostics (not committed).
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/chromium.ts';
import { apiClient, startServer } from '../lib/harness.ts';

const page = process.argv[2] ?? '/docs/api';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'formwork-diag-'));
const { child, base } = await startServer({ NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: '' });
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: [...CHROMIUM_ARGS, '--headless=new'] });
try {
  let cookie: string | undefined;
  if (page === '/dashboard') {
    const c = apiClient(base);
    await c.call('POST', '/api/auth/sign-up', { firstName: 'D', lastName: 'D', email: `d${Date.now()}@example.com`, password: 'benchmark password' });
    cookie = c.cookie;
  }
  const url = `${base}${page === '/dashboard' ? '/' : page}`;
  await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}) });
  const r = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}) });
  const lhr = r!.lhr;
  writeFileSync('/tmp/shell-diag.json', JSON.stringify(lhr));
  for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']) console.log(id, lhr.audits[id]?.displayValue);
  const show = (id: string) => console.log(id, JSON.stringify(lhr.audits[id]?.details, null, 0).slice(0, 2500));
  show('largest-contentful-paint-element');
  show('render-blocking-resources');
  show('long-tasks');
  show('bootup-time');
  show('mainthread-work-breakdown');
  show('layout-shifts');
} finally {
  chrome.kill();
  child.kill('SIGTERM');
}
