/**
 * Screenshots of the builder's accessibility work at 1280 px and 375 px, for looking at by eye. Not a test.
 *   BASE_URL=http://localhost:5177 npx tsx e2e/accessible-output-screenshots.ts [outDir=docs/screenshots/accessible-output]
 * Signs up a fresh user per width, builds a format with a level 1 heading, a paragraph with a link,
 * a table, a heading at level 3, an image without alternative text and a link named by its address,
 * and shoots the link dialog,
 * the table's, the heading's and the image's properties, the check beside the preview, with
 * problems and without, and the format's Language under Page. Reports console errors and
 * horizontal overflow.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Locator, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:5177';
const OUT = process.argv[2] ?? 'docs/screenshots/accessible-output';

/** A 40x24 PNG (solid indigo). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACgAAAAYCAIAAAAH5iiXAAAAKElEQVR4nGPwd3s6IIhh1OJRi0ctHrV41OJRi0ctHrV41OJRi4ePxQCR4YnMcvRTDgAAAABJRU5ErkJggg==',
  'base64',
);

const problems: string[] = [];

/** The viewport, with `focus` scrolled to the middle of it; where the live preview shows, once it is up to date. */
async function shot(page: Page, name: string, width: number, focus: Locator) {
  await focus.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const preview = page.getByTestId('preview-status');
  if (await preview.isVisible()) await preview.getByText('Up to date').waitFor({ timeout: 20_000 });
  await page.waitForTimeout(400);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) problems.push(`[${name}@${width}] horizontal overflow of ${overflow}px`);
  const file = path.join(OUT, `${name}-${width}.png`);
  await page.screenshot({ path: file });
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
      data: { firstName: 'Shot', lastName: 'Taker', email: `a11y-shots.${width}.${Date.now()}@example.com`, password: 'longenough1' },
    });
    if (!res.ok()) throw new Error(`sign-up ${res.status()} ${await res.text()}`);

    const tools = async () => {
      if (mobile) await page.getByRole('tab', { name: 'Elements' }).click();
    };
    const view = (name: 'Canvas' | 'Preview') => (mobile ? page.getByRole('tab', { name }).click() : Promise.resolve());
    const sidebar = page.getByTestId('builder-sidebar');
    const done = () => page.getByRole('button', { name: 'Done' }).click();
    const editing = page.locator('[data-editing]');
    const check = page.getByRole('region', { name: 'Accessibility' });

    await page.goto(`${BASE_URL}/builder`, { waitUntil: 'networkidle' });
    await page.getByLabel('Format name').fill('Offer Letter');

    await tools();
    await sidebar.getByRole('button', { name: 'Add Heading' }).click();
    await page.getByLabel('Heading text').fill('Offer of employment');
    await page.getByLabel('Heading level').selectOption('Heading 1');
    await page.getByLabel('Heading size').selectOption('Extra Large');
    await done();
    await tools();
    await sidebar.getByRole('button', { name: 'Add Paragraph' }).click();
    const paragraph = page.getByLabel('Paragraph text');
    await paragraph.fill('We are delighted to offer you the position of Product Designer. Read the full terms online.');
    await paragraph.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(el.value.indexOf('full terms'), el.value.indexOf('full terms') + 10));
    await page.keyboard.press('Control+k');
    const linkDialog = page.getByRole('dialog', { name: 'Add a link' });
    await linkDialog.getByLabel('Address').fill('https://example.com/terms');
    await shot(page, 'link-dialog', width, linkDialog);
    await linkDialog.getByRole('button', { name: 'Add link' }).click();
    await done();
    await tools();
    await sidebar.getByRole('button', { name: 'Add Table' }).click();
    await shot(page, 'table-properties', width, editing);
    await page.getByRole('checkbox', { name: 'Header row' }).check();
    await done();
    await tools();
    await sidebar.getByRole('button', { name: 'Add Heading' }).click();
    await page.getByLabel('Heading text').fill('Terms of the offer');
    await page.getByLabel('Heading level').selectOption('Heading 3');
    await shot(page, 'heading-properties', width, editing);
    await done();

    await tools();
    await sidebar.getByRole('button', { name: 'Add Image' }).click();
    await page.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByText('Image Uploaded').first().waitFor();
    await page.getByRole('button', { name: 'Dismiss notification' }).click();
    await page.getByLabel('Image URL').blur();
    await shot(page, 'image-properties-missing-alt', width, page.getByLabel('Alternative text'));
    await page.getByRole('switch', { name: 'Decorative (screen readers skip it)' }).click();
    await shot(page, 'image-properties-decorative', width, page.getByLabel('Alternative text'));
    await page.getByRole('switch', { name: 'Decorative (screen readers skip it)' }).click();
    await done();
    await tools();
    await sidebar.getByRole('button', { name: 'Add Paragraph' }).click();
    await page.getByLabel('Paragraph text').fill('Prices: [https://example.com/prices](https://example.com/prices).');
    await done();
    // Beside the check at 1280 px, where check-findings shows them.
    if (mobile) await shot(page, 'canvas-level-badges', width, page.getByRole('list', { name: 'Format elements' }));

    await view('Preview');
    await check.getByTestId('accessibility-finding').first().waitFor();
    await shot(page, 'check-findings', width, check);

    await check.getByRole('button', { name: 'Go to heading' }).click();
    await page.getByLabel('Heading level').selectOption('Heading 2');
    await done();
    await view('Preview');
    await check.getByRole('button', { name: 'Go to image' }).click();
    await page.keyboard.type('The Acme logo: a blue anchor');
    await done();
    await view('Preview');
    // The link's markup comes selected: Ctrl+K edits it.
    await check.getByRole('button', { name: 'Go to paragraph' }).click();
    await page.keyboard.press('Control+k');
    const editLink = page.getByRole('dialog', { name: 'Edit link' });
    await editLink.getByLabel('Words to show').fill('our price list');
    await shot(page, 'link-finding-edit', width, editLink);
    await editLink.getByRole('button', { name: 'Update link' }).click();
    await done();
    await view('Preview');
    await check.getByText('No accessibility problems found').waitFor();
    await shot(page, 'check-none', width, check);

    await tools();
    const language = sidebar.getByLabel('Language');
    await language.selectOption('de-DE');
    await shot(page, 'page-language', width, language);
    await context.close();
  }
  await browser.close();
  console.log(problems.length ? `PROBLEMS:\n${problems.join('\n')}` : 'no problems');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
