/**
 * Screenshots of Admin Panel → Settings → Public pages and of the landing page without and with
 * the content it saves, at 1280 px and 375 px, for looking at by eye. Not a test. Run against a
 * running server whose ADMIN_EMAILS holds ADMIN_EMAIL (it leaves the content saved):
 *   BASE_URL=http://localhost:5361 ADMIN_EMAIL=shots-admin@example.com \
 *     npx tsx e2e/public-pages-screenshots.ts [outDir=docs/screenshots/accounts]
 * It reports console errors (a hydration mismatch among them) and horizontal overflow.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import type { TPublicPages } from '../src/contract/public-pages.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:5361';
const ADMIN_EMAIL = process.env.ADMIN_EMAIL ?? 'shots-admin@example.com';
const OUT = process.argv[2] ?? 'docs/screenshots/accounts';
const PASSWORD = 'correct horse battery';
const headers = { origin: BASE_URL };
const problems: string[] = [];

const CONTENT: TPublicPages = {
  figures: [
    { value: '1,204', label: 'documents made last month' },
    { value: '14', label: 'teams in our company' },
    { value: '3', label: 'offices' },
    { value: '2019', label: 'in use since' },
  ],
  testimonials: [
    {
      quote: 'Offer letters now go out the same day, with the approved wording every time.',
      name: 'Ingrid Solberg',
      role: 'People Lead',
      company: 'Acme Tools',
    },
    { quote: 'Our leases come out of one short form.', name: 'Tomás Ruiz', role: 'Office Manager', company: '' },
  ],
  team: [
    { name: 'Jonas Berg', role: 'Operations', bio: 'Runs this installation and answers the support address.' },
    { name: 'Mia Chen', role: 'Templates', bio: '' },
  ],
};

function watch(page: Page, label: string) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`[${label}] console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`[${label}] page error: ${err.message}`));
}

async function shot(page: Page, name: string, width: number, fullPage = true) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) problems.push(`[${name}@${width}] horizontal overflow of ${overflow}px`);
  const file = path.join(OUT, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage });
  console.log(`wrote ${file}`);
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const adminPage = await admin.newPage();
  const signIn = await adminPage.request.post(`${BASE_URL}/api/auth/sign-in`, { data: { email: ADMIN_EMAIL, password: PASSWORD } });
  if (!signIn.ok()) {
    const created = await adminPage.request.post(`${BASE_URL}/api/auth/sign-up`, {
      data: { firstName: 'Shots', lastName: 'Admin', email: ADMIN_EMAIL, password: PASSWORD },
    });
    if (!created.ok()) throw new Error(`sign-up failed: ${await created.text()}`);
  }
  const api = adminPage.request;
  await api.put(`${BASE_URL}/api/admin/public-pages`, { data: { figures: [], testimonials: [], team: [] }, headers });
  for (const key of ['support.email', 'sales.email']) await api.delete(`${BASE_URL}/api/admin/settings/${key}`, { headers });

  for (const width of [1280, 375]) {
    const context = await browser.newContext({ viewport: { width, height: width > 600 ? 800 : 740 } });
    const page = await context.newPage();
    watch(page, `landing-default-${width}`);
    await page.goto(`${BASE_URL}/`);
    await shot(page, 'landing-default', width);
    await context.close();
  }

  const saved = await api.put(`${BASE_URL}/api/admin/public-pages`, { data: CONTENT, headers });
  if (!saved.ok()) throw new Error(`saving the public pages failed: ${await saved.text()}`);
  await api.post(`${BASE_URL}/api/admin/settings`, { data: { key: 'support.email', value: 'help@acme.example' }, headers });
  await api.post(`${BASE_URL}/api/admin/settings`, { data: { key: 'sales.email', value: 'deals@acme.example' }, headers });

  for (const width of [1280, 375]) {
    await adminPage.setViewportSize({ width, height: width > 600 ? 900 : 740 });
    watch(adminPage, `settings-${width}`);
    await adminPage.goto(`${BASE_URL}/admin?tab=settings`);
    await adminPage.getByRole('form', { name: 'Public pages' }).waitFor();
    await adminPage.waitForLoadState('networkidle');
    await adminPage.evaluate(() => document.fonts.ready);
    // A window as tall as the page, so the sticky top bar rests at the top instead of over the form.
    const height = await adminPage.evaluate(() => document.documentElement.scrollHeight);
    await adminPage.setViewportSize({ width, height });
    await adminPage.waitForTimeout(300);
    const overflow = await adminPage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) problems.push(`[public-pages-settings@${width}] horizontal overflow of ${overflow}px`);
    const file = path.join(OUT, `public-pages-settings-${width}.png`);
    await adminPage.screenshot({ path: file });
    console.log(`wrote ${file}`);

    const context = await browser.newContext({ viewport: { width, height: width > 600 ? 800 : 740 } });
    const page = await context.newPage();
    watch(page, `landing-content-${width}`);
    await page.goto(`${BASE_URL}/`);
    await shot(page, 'landing-content', width);
    await page.goto(`${BASE_URL}/about`);
    await shot(page, 'about-content', width);
    await context.close();
  }
  await browser.close();
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
}

await main();
