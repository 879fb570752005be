/**
 * Full-page screenshots of every screen at 1280 px and 375 px, for looking at by eye.
 * Not a test. Run against a running server:
 *   BASE_URL=http://localhost:5077 npx tsx e2e/screenshots.ts [outDir=/tmp/formwork-shots]
 * It signs up a fresh user through the page, and reports console errors and horizontal overflow.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { clickOnceHydrated } from './navigation.ts';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:5077';
const OUT = process.argv[2] ?? '/tmp/formwork-shots';
const ONLY = process.env.ONLY?.split(',');

const problems: string[] = [];

function watch(page: Page, label: string) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`[${label}] console error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => problems.push(`[${label}] page error: ${err.message}`));
}

async function shot(page: Page, name: string, width: number, opts: { fullPage?: boolean } = {}) {
  if (ONLY && !ONLY.some((o) => name.startsWith(o))) return;
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(250);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) problems.push(`[${name}@${width}] horizontal overflow of ${overflow}px`);
  const file = path.join(OUT, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: opts.fullPage ?? true });
  console.log(`wrote ${file}`);
}

async function visit(page: Page, url: string) {
  await page.goto(`${BASE_URL}${url}`, { waitUntil: 'networkidle' });
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  for (const width of [1280, 375]) {
    const context = await browser.newContext({ viewport: { width, height: width > 600 ? 800 : 740 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    watch(page, `w${width}`);

    // Signed out
    await visit(page, '/');
    await shot(page, 'landing', width);
    const watchDemo = page.getByRole('button', { name: 'Watch Demo' }).first();
    await clickOnceHydrated(watchDemo);
    await page.getByRole('dialog').waitFor();
    await shot(page, 'landing-demo-dialog-1', width, { fullPage: false });
    await page.getByRole('button', { name: 'Next' }).click();
    await shot(page, 'landing-demo-dialog-2', width, { fullPage: false });
    await page.getByRole('button', { name: 'Next' }).click();
    await shot(page, 'landing-demo-dialog-3', width, { fullPage: false });
    await page.keyboard.press('Escape');
    await visit(page, '/about');
    await shot(page, 'about', width);
    await visit(page, '/verify');
    await shot(page, 'verify', width);
    await visit(page, '/login');
    await shot(page, 'login', width);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await shot(page, 'login-errors', width);
    await visit(page, '/login?error=oauth_provider_not_found');
    await shot(page, 'login-oidc-error', width);
    await visit(page, '/no/such/page');
    await shot(page, 'notfound-signed-out', width);
    await visit(page, '/payment-success');
    await shot(page, 'payment-signed-out', width);
    await visit(page, '/admin');
    await shot(page, 'admin-signed-out', width);
    await page.route('**/api/login', (route) => route.abort());
    await page.goto(`${BASE_URL}/formats`);
    await page.getByText('You are logged out. Logging in again...', { exact: true }).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(OUT, `toast-unauthorized-${width}.png`) });
    await page.unroute('**/api/login');

    // Sign up through the page
    await visit(page, '/login?mode=signup');
    const email = `shots-${width}-${Date.now()}@example.com`;
    await page.getByLabel('First name').fill('Avery');
    await page.getByLabel('Last name').fill('Stone');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).last().click();
    await page.getByTestId('greeting-name').waitFor();
    await shot(page, 'dashboard', width);
    for (const [name, url] of [
      ['formats', '/formats'],
      ['documents', '/documents'],
      ['settings', '/settings'],
      ['help', '/help'],
      ['builder', '/builder'],
      ['builder-missing', '/builder/does-not-exist'],
      ['admin-denied', '/admin'],
      ['payment-missing', '/payment-success'],
      ['payment-failed', '/payment-success?razorpay_order_id=order_1&razorpay_payment_id=pay_1&razorpay_signature=sig&plan=basic_monthly'],
      ['notfound-signed-in', '/no/such/page'],
    ] as const) {
      await visit(page, url);
      await shot(page, name, width);
    }
    if (width < 600) {
      await visit(page, '/');
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await page.getByRole('dialog').waitFor();
      await shot(page, 'mobile-nav', width, { fullPage: false });
      await page.keyboard.press('Escape');
    }
    await context.close();
  }
  await browser.close();
  if (problems.length) {
    console.log(`\n${problems.length} problem(s):\n${problems.join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log('\nNo console errors, no horizontal overflow.');
  }
}

await main();
