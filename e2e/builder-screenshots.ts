/**
 * Screenshots of the Format Builder at 1280 px and 375 px, for looking at by eye. Not a test.
 *   BASE_URL=http://localhost:5081 npx tsx e2e/builder-screenshots.ts [outDir=/tmp/builder-shots]
 * Signs up a fresh user per width, builds a format with all five element types and three
 * placeholders, and reports console errors and horizontal overflow.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:5081';
const OUT = process.argv[2] ?? '/tmp/builder-shots';

/** A 40x24 PNG (solid indigo). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACgAAAAYCAIAAAAH5iiXAAAAKElEQVR4nGPwd3s6IIhh1OJRi0ctHrV41OJRi0ctHrV41OJRi4ePxQCR4YnMcvRTDgAAAABJRU5ErkJggg==',
  'base64',
);

const problems: string[] = [];

async function shot(page: Page, name: string, width: number, fullPage = true) {
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
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
  for (const width of [1280, 375]) {
    const mobile = width < 1024;
    const context = await browser.newContext({ viewport: { width, height: mobile ? 760 : 860 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && problems.push(`[w${width}] console: ${m.text()} ${m.location().url}`));
    page.on('pageerror', (e) => problems.push(`[w${width}] page error: ${e.message}`));
    const res = await context.request.post(`${BASE_URL}/api/auth/sign-up`, {
      headers: { origin: BASE_URL },
      data: { firstName: 'Shot', lastName: 'Taker', email: `shots.${width}.${Date.now()}@example.com`, password: 'longenough1' },
    });
    if (!res.ok()) throw new Error(`sign-up ${res.status()} ${await res.text()}`);

    await page.goto(`${BASE_URL}/builder`, { waitUntil: 'networkidle' });
    await shot(page, 'builder-empty', width);

    const tools = async () => {
      if (mobile) await page.getByRole('tab', { name: 'Elements' }).click();
    };
    const canvas = async () => {
      if (mobile) await page.getByRole('tab', { name: 'Canvas' }).click();
    };
    const sidebar = page.getByTestId('builder-sidebar');

    await page.getByLabel('Format name').fill('Offer Letter');
    // placeholders
    await tools();
    const panel = page.getByTestId('placeholder-panel');
    await panel.getByLabel('Name', { exact: true }).fill('Client Name');
    await panel.getByRole('button', { name: 'Add placeholder' }).click();
    await panel.getByLabel('Name', { exact: true }).fill('start_date');
    await panel.getByLabel('Type', { exact: true }).selectOption('date');
    await panel.getByRole('button', { name: 'Add placeholder' }).click();
    await panel.getByLabel('Name', { exact: true }).fill('employment_type');
    await panel.getByLabel('Label (optional)').fill('Employment type');
    await panel.getByLabel('Type', { exact: true }).selectOption('select');
    await panel.getByLabel('Required', { exact: true }).check();
    await panel.getByLabel('Options').fill('Full-time\n\nPart-time\nContract\n');
    await panel.getByRole('button', { name: 'Add placeholder' }).click();

    await sidebar.getByRole('button', { name: 'Add Heading' }).click();
    await page.getByLabel('Heading text').fill('Offer of Employment');
    await page.getByRole('button', { name: 'Done' }).click();
    await tools();
    await sidebar.getByRole('button', { name: 'Add Paragraph' }).click();
    await page
      .getByLabel('Paragraph text')
      .fill('Dear {{client_name}},\n\nWe are **delighted** to offer you a *{{employment_type}}* position starting {{start_date}}. Your salary is {{salary}}.');
    await page.getByRole('button', { name: 'Done' }).click();
    await tools();
    await sidebar.getByRole('button', { name: 'Add List' }).click();
    await page.getByRole('textbox', { name: 'Item 1', exact: true }).fill('Health insurance');
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.getByRole('textbox', { name: 'Item 2', exact: true }).fill('25 days of paid leave');
    await page.getByRole('button', { name: 'Done' }).click();
    await tools();
    await sidebar.getByRole('button', { name: 'Add Table' }).click();
    await page.getByLabel('Table 4, row 1, column 1').fill('Item');
    await page.getByLabel('Table 4, row 1, column 2').fill('Detail');
    await page.getByLabel('Table 4, row 2, column 1').fill('Start');
    await page.getByLabel('Table 4, row 2, column 2').fill('{{start_date}}');
    await page.getByLabel('Header row').check();
    await page.getByRole('button', { name: 'Add row' }).click();
    await shot(page, 'builder-editing', width);
    await page.getByRole('button', { name: 'Done' }).click();
    await tools();
    await sidebar.getByRole('button', { name: 'Add Image' }).click();
    await page.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByText('Image Uploaded').first().waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await canvas();
    await shot(page, 'builder-all-elements', width);

    await tools();
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'builder-placeholders', width, false);

    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByTestId('preview-status').getByText('Up to date').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(1500);
    await shot(page, 'builder-preview', width, false);
    await context.close();
  }
  await browser.close();
  console.log(problems.length ? `PROBLEMS:\n${problems.join('\n')}` : 'no problems');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
