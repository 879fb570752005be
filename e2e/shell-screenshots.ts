/**
 * Screenshots of what a signed-in person sees first, at 1280 px and 375 px, for looking at by eye.
 * Not a test. Run against a running server (it signs a new person up):
 *   BASE_URL=http://localhost:5193 npx tsx e2e/shell-screenshots.ts [outDir=docs/screenshots/second-look]
 * Shots: the app's frame as `/` arrives for a signed-in person (before the script runs), the
 * dashboard, and `/docs/api` signed in and signed out. It reports console errors (a hydration
 * mismatch among them).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:5193';
const OUT = process.argv[2] ?? 'docs/screenshots/second-look';
const problems: string[] = [];

async function sessionCookie(): Promise<{ name: string; value: string }[]> {
  const response = await fetch(`${BASE_URL}/api/auth/sign-up`, {
    method: 'POST',
    headers: { origin: BASE_URL, 'content-type': 'application/json' },
    body: JSON.stringify({ firstName: 'Shots', lastName: 'Shell', email: `shots.${Date.now()}@example.com`, password: 'correct horse battery' }),
  });
  if (!response.ok) throw new Error(`sign-up: ${response.status} ${await response.text()}`);
  return response.headers.getSetCookie().map((line) => {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    return { name: pair!.slice(0, eq), value: pair!.slice(eq + 1) };
  });
}

function watch(page: Page, label: string) {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${label}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${label}: ${error.message}`));
}

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const cookies = await sessionCookie();
try {
  for (const [width, height] of [
    [1280, 800],
    [375, 760],
  ] as const) {
    const signedIn = await browser.newContext({ viewport: { width, height } });
    await signedIn.addCookies(cookies.map((c) => ({ ...c, url: BASE_URL })));
    const noScript = await browser.newContext({ viewport: { width, height }, javaScriptEnabled: false });
    await noScript.addCookies(cookies.map((c) => ({ ...c, url: BASE_URL })));
    const frame = await noScript.newPage();
    await frame.goto(`${BASE_URL}/`);
    await frame.screenshot({ path: path.join(OUT, `shell-frame-${width}.png`) });

    const page = await signedIn.newPage();
    watch(page, `signed in ${width}`);
    await page.goto(`${BASE_URL}/`);
    await page.getByTestId('greeting-name').waitFor();
    await page.screenshot({ path: path.join(OUT, `shell-dashboard-${width}.png`) });
    await page.goto(`${BASE_URL}/docs/api`);
    await page.getByTestId('open-app').waitFor();
    await page.getByRole('heading', { name: 'Introduction' }).waitFor();
    await page.screenshot({ path: path.join(OUT, `shell-docs-signed-in-${width}.png`) });

    const visitor = await browser.newContext({ viewport: { width, height } });
    const docs = await visitor.newPage();
    watch(docs, `visitor ${width}`);
    await docs.goto(`${BASE_URL}/docs/api`);
    await docs.getByRole('heading', { name: 'Introduction' }).waitFor();
    await docs.screenshot({ path: path.join(OUT, `shell-docs-visitor-${width}.png`) });
    await Promise.all([signedIn.close(), noScript.close(), visitor.close()]);
  }
} finally {
  await browser.close();
}
console.log(problems.length ? `problems:\n${problems.join('\n')}` : 'no console errors');
