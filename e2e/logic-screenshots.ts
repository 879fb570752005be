/**
 * Screenshots of format logic at 1280 px and 375 px, for looking at by eye. Not a test.
 *   BASE_URL=http://localhost:5150 npx tsx e2e/logic-screenshots.ts [outDir=/tmp/logic-shots]
 * Signs up a fresh user per width, saves the Invoice starter (a list of line items with a
 * repeating row, formulas, a checkbox and a condition), then shoots the builder with the list
 * placeholder open and the form with three lines filled in. Reports console errors and
 * horizontal overflow. At 1280 px it also makes a 60-line invoice through POST /api/documents
 * and writes its first and last page as images (pdftoppm).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { STARTER_FORMATS } from '../src/contract/starter-formats.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:5150';
const OUT = process.argv[2] ?? '/tmp/logic-shots';
const problems: string[] = [];

async function shot(page: Page, name: string, width: number, fullPage = true) {
  await page.waitForTimeout(400);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) problems.push(`[${name}@${width}] horizontal overflow of ${overflow}px`);
  const file = path.join(OUT, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage });
  console.log(`wrote ${file}`);
}

const LINES = [
  ['Brand identity workshop', '1', '1200'],
  ['Website design, 8 pages', '8', '450'],
  ['Hosting, first year', '1', '0.10'],
];

const SERVICES: [string, number][] = [
  ['Discovery workshop (half day)', 650],
  ['Information architecture and sitemap', 1200],
  ['Page design, desktop and mobile', 450],
  ['Front-end build, per template', 380],
  ['Copy editing, per 1,000 words', 85.5],
  ['Stock photography licence', 29.99],
  ['Accessibility review (WCAG 2.2 AA)', 720],
  ['Content migration, per 25 pages', 210],
  ['Analytics set-up and dashboard', 340],
  ['Hosting and backups, per month', 24.9],
];

/** A 60-line invoice made as any API caller would make it; its first and last page as images. */
async function invoicePages(request: import('playwright-core').APIRequestContext, formatId: string) {
  const items = Array.from({ length: 60 }, (_, i) => {
    const [description, price] = SERVICES[(i * 7) % SERVICES.length]!;
    return { description: `${description}, phase ${Math.floor(i / 10) + 1}`, qty: String((i % 5) + 1), unit_price: price.toFixed(2) };
  });
  const data = {
    business_name: 'Northwind Studio',
    business_address: '12 Harbour Road\nBristol BS1 4QA\nUnited Kingdom',
    invoice_number: 'INV-2041',
    issue_date: '2026-03-02',
    due_date: '2026-04-01',
    client_name: 'Acme Corporation',
    client_email: 'accounts@acme.example',
    client_address: '500 Market Street\nSan Francisco, CA 94105',
    items,
    tax_rate: '8.25',
    reverse_charge: 'false',
    payment_terms: '30 days',
    payment_details: 'Bank transfer to Northwind Studio Ltd, IBAN GB29 NWBK 6016 1331 9268 19, BIC NWBKGB2L',
  };
  const made = await request.post(`${BASE_URL}/api/documents`, { headers: { origin: BASE_URL }, data: { formatId, name: 'INV-2041', data } });
  if (!made.ok()) throw new Error(`document ${made.status()} ${await made.text()}`);
  const { id } = (await made.json()) as { id: string };
  const pdf = await request.get(`${BASE_URL}/api/documents/${id}/download`);
  const file = path.join(tmpdir(), `invoice-60-lines-${process.pid}.pdf`);
  writeFileSync(file, await pdf.body());
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1] ?? 1);
  for (const [name, n] of [
    ['invoice-first-page', 1],
    ['invoice-last-page', pages],
  ] as const) {
    execFileSync('pdftoppm', ['-png', '-r', '80', '-singlefile', '-f', String(n), '-l', String(n), file, path.join(OUT, name)]);
    console.log(`wrote ${path.join(OUT, `${name}.png`)} (page ${n} of ${pages})`);
  }
  rmSync(file);
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const invoice = STARTER_FORMATS.find((s) => s.id === 'invoice')!;
  for (const width of [1280, 375]) {
    const mobile = width < 1024;
    const context = await browser.newContext({ viewport: { width, height: mobile ? 760 : 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && problems.push(`[w${width}] console: ${m.text()} ${m.location().url}`));
    page.on('pageerror', (e) => problems.push(`[w${width}] page error: ${e.message}`));
    const res = await context.request.post(`${BASE_URL}/api/auth/sign-up`, {
      headers: { origin: BASE_URL },
      data: { firstName: 'Shot', lastName: 'Taker', email: `logic.${width}.${Date.now()}@example.com`, password: 'longenough1' },
    });
    if (!res.ok()) throw new Error(`sign-up ${res.status()} ${await res.text()}`);
    const created = await context.request.post(`${BASE_URL}/api/formats`, {
      headers: { origin: BASE_URL },
      data: { name: 'Invoice', description: invoice.description, content: invoice.content, placeholders: invoice.placeholders },
    });
    if (!created.ok()) throw new Error(`format ${created.status()} ${await created.text()}`);
    const format = (await created.json()) as { id: string };

    // The builder: the list placeholder and its columns, the repeating row, a condition, a formula's check.
    await page.goto(`${BASE_URL}/builder/${format.id}`, { waitUntil: 'networkidle' });
    const canvasTab = async () => {
      if (mobile) await page.getByRole('tab', { name: 'Canvas' }).click();
    };
    await canvasTab();
    await shot(page, 'builder-canvas', width, false);
    const lines = page
      .getByTestId('canvas-element')
      .filter({ has: page.getByTestId('repeat-badge') })
      .first();
    await lines.getByRole('button', { name: /press Enter to edit/ }).click();
    await page.getByTestId('repeat-control').scrollIntoViewIfNeeded();
    await shot(page, 'builder-repeat-row', width, false);
    await page.keyboard.press('Escape');
    const note = page
      .getByTestId('canvas-element')
      .filter({ has: page.getByTestId('condition-badge') })
      .first();
    await note.getByRole('button', { name: /press Enter to edit/ }).click();
    await page.getByTestId('condition-editor').scrollIntoViewIfNeeded();
    await shot(page, 'builder-condition', width, false);
    await page.keyboard.press('Escape');
    if (mobile) await page.getByRole('tab', { name: 'Elements' }).click();
    await page.getByRole('button', { name: 'Edit placeholder items' }).click();
    await page.getByRole('dialog').getByTestId('columns-editor').waitFor();
    await shot(page, 'builder-list-placeholder', width, false);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Edit placeholder tax', exact: true }).click();
    await page.getByRole('dialog').getByTestId('formula-check').waitFor();
    await shot(page, 'builder-formula', width, false);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    if (!mobile) {
      // Fresh, at the top: the canvas shows the table that the preview fills with sample rows.
      await page.reload({ waitUntil: 'networkidle' });
      await page.getByTestId('preview-pane').getByText('Up to date').waitFor({ timeout: 20_000 });
      await shot(page, 'builder-preview-sample-rows', width, false);
    }

    // The form, three lines filled in.
    await page.goto(`${BASE_URL}/data-entry/${format.id}`, { waitUntil: 'networkidle' });
    const fill = async (label: string, value: string) =>
      page
        .getByLabel(new RegExp(`^${label.replace(/[()]/g, '\\$&')}`))
        .first()
        .fill(value);
    await fill('Your business name', 'Northwind Studio');
    await fill('Invoice number', 'INV-2041');
    await fill('Client name', 'Acme Corporation');
    await fill('Tax rate (%)', '18');
    const list = page.getByTestId('field-items');
    for (const [r, [description, qty, price]] of LINES.entries()) {
      if (r > 0) await list.getByRole('button', { name: 'Add row' }).click();
      await list.getByLabel(`Line items, row ${r + 1}, Description`).fill(description!);
      await list.getByLabel(`Line items, row ${r + 1}, Qty`).fill(qty!);
      await list.getByLabel(`Line items, row ${r + 1}, Unit price`).fill(price!);
    }
    // The whole page from the top (a full-page shot taken scrolled leaves the sticky bars mid-page),
    // then the list as it sits on screen.
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'form-list', width);
    await list.scrollIntoViewIfNeeded();
    await shot(page, 'form-list-viewport', width, false);
    if (width === 1280) await invoicePages(context.request, format.id);
    await context.close();
  }
  await browser.close();
  if (problems.length) {
    console.log(`\nproblems:\n${problems.join('\n')}`);
    process.exitCode = 1;
  } else console.log('\nno console errors, no horizontal overflow');
}

await main();
