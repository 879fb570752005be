/**
 * Screenshots of a format's developer handles at 1280 px and 375 px, for looking at by eye: My
 * Formats with its API button, the API details dialog, the builder's API menu, the API tab with a
 * format picked, and the sidebar's "Documents this month". Not a test. It starts its own server (a
 * fresh database, serving the dist/web built by `npx tsx scripts/build-web.ts`):
 *   npx tsx e2e/dev-handles-screenshots.ts [outDir=docs/screenshots/second-look]
 * and reports console errors and horizontal overflow.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { STARTER_FORMATS } from '../src/contract/starter-formats/index.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { startOwnServer, type TOwnServer } from './own-server.ts';

const OUT = process.argv[2] ?? 'docs/screenshots/second-look';
const PASSWORD = 'correct horse battery';
const problems: string[] = [];

async function shot(page: Page, name: string, width: number) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(400);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) problems.push(`[${name}@${width}] horizontal overflow of ${overflow}px`);
  const file = path.join(OUT, `dev-${name}-${width}.png`);
  await page.screenshot({ path: file });
  console.log(`wrote ${file}`);
}

async function post(context: BrowserContext, server: TOwnServer, url: string, data: unknown, method: 'post' | 'patch' = 'post') {
  const res = await context.request[method](`${server.base}${url}`, { headers: { origin: server.base }, data });
  if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
  return res.json().catch(() => undefined) as Promise<unknown>;
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const emails = { 1280: 'dev-1280@e2e.formwork.test', 375: 'dev-375@e2e.formwork.test' } as const;
  const server = await startOwnServer({ ADMIN_EMAILS: Object.values(emails).join(',') }, 'dev-shots', 5195);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    for (const width of [1280, 375] as const) {
      const context = await browser.newContext({ viewport: { width, height: width > 600 ? 860 : 760 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      page.on('console', (msg) => msg.type() === 'error' && problems.push(`[${width}] console error: ${msg.text()}`));
      page.on('pageerror', (err) => problems.push(`[${width}] page error: ${err.message}`));
      const email = emails[width];
      await post(context, server, '/api/auth/sign-up', { firstName: 'Dev', lastName: 'Eloper', email, password: PASSWORD });
      const user = (await post(context, server, '/api/auth/sign-in', { email, password: PASSWORD })) as { id: string };
      await post(context, server, '/api/auth/verify-email', { token: new URL(await server.verificationLink(email), server.base).searchParams.get('token') });
      await post(context, server, `/api/admin/users/${user.id}`, { subscriptionPlan: 'enterprise' }, 'patch');
      const invoice = STARTER_FORMATS.find((s) => s.id === 'invoice')!;
      const format = (await post(context, server, '/api/formats', { name: 'Invoice', content: invoice.content, placeholders: invoice.placeholders })) as {
        id: string;
      };

      await page.goto(`${server.base}/formats`);
      await page.getByRole('button', { name: 'API details for Invoice' }).waitFor();
      await shot(page, 'my-formats', width);
      await page.getByRole('button', { name: 'API details for Invoice' }).click();
      await page.getByRole('dialog', { name: 'API details: Invoice' }).waitFor();
      await shot(page, 'api-dialog', width);
      await page.keyboard.press('Escape');

      await page.goto(`${server.base}/builder/${format.id}`);
      await page.getByRole('button', { name: 'API', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Copy format id' }).waitFor();
      await shot(page, 'builder-menu', width);
      await page.keyboard.press('Escape');

      await page.goto(`${server.base}/settings?tab=api`);
      await page.getByRole('region', { name: 'Sample call' }).waitFor();
      await page.getByRole('region', { name: 'Sample call' }).scrollIntoViewIfNeeded();
      await shot(page, 'api-tab', width);

      await page.goto(`${server.base}/`);
      await page.getByText('Documents this month').locator('visible=true').first().waitFor();
      await shot(page, 'dashboard', width);
      await context.close();
    }
  } finally {
    await browser.close();
    server.stop();
  }
  console.log(problems.length === 0 ? 'No problems found.' : problems.join('\n'));
}

await main();
