/**
 * Full-page screenshots of the bulk screens at 1280 px and 375 px, for looking at by eye: the Bulk
 * Upload tab (empty, client-side error, review of the Excel template, review of a CSV whose columns
 * need mapping, quota blocked), the batch page (running when caught, completed, unknown id) and
 * Recent Documents grouped by batch. Not a test. Run against a running server:
 *   BASE_URL=http://localhost:5096 npx tsx e2e/bulk-screenshots.ts [outDir=/tmp/formwork-bulk-shots]
 * It signs up a fresh user per width, and reports console errors and horizontal overflow.
 * With ADMIN_EMAIL=name@host and the server's ADMIN_EMAILS holding name-1280@host and name-375@host,
 * those accounts (signed up here) lift their own limit and run a 12,000-row batch, to catch it
 * running and cancel it; SERVER_LOG names the server's log file, where their verification links are.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { linkFromLogFile } from './own-server.ts';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:5096';
const ADMIN_EMAIL = process.env.ADMIN_EMAIL;
const OUT = process.argv[2] ?? '/tmp/formwork-bulk-shots';
const problems: string[] = [];
const work = mkdtempSync(path.join(tmpdir(), 'formwork-bulk-shots-'));

const FORMAT = {
  name: 'Welcome Letter',
  description: 'Sent to every new member',
  content: {
    elements: [
      { id: '1', type: 'heading', content: 'Welcome, {{client_name}}', fontSize: 'text-2xl' },
      { id: '2', type: 'paragraph', content: 'We will write to {{email}} about your {{plan}} plan, starting {{start_date}}.' },
    ],
  },
  placeholders: [
    { name: 'client_name', label: 'Client name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: true },
    { name: 'plan', type: 'select', required: false, options: ['Starter', 'Growth', 'Scale'] },
    { name: 'start_date', type: 'date', required: false },
  ],
};

function watch(page: Page, label: string) {
  page.on('console', (msg) => {
    // The unknown batch id answers 404 on purpose.
    if (msg.type() === 'error' && !msg.text().includes('404')) problems.push(`[${label}] console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`[${label}] page error: ${err.message}`));
}

async function shot(page: Page, name: string, width: number, opts: { fullPage?: boolean } = {}) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) problems.push(`[${name}@${width}] horizontal overflow of ${overflow}px`);
  const file = path.join(OUT, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: opts.fullPage ?? true });
  console.log(`wrote ${file}`);
}

/** The Excel template filled with `rows` rows; rows 7 and 12 are invalid. */
async function filledTemplate(page: Page, formatId: string, rows: number): Promise<string> {
  const res = await page.request.get(`${BASE_URL}/api/formats/${formatId}/excel-template`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await res.body()) as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Data')!;
  const names = (sheet.getRow(2).values as unknown[]).slice(1).map(String);
  for (let i = 0; i < rows; i++) {
    const r = 3 + i;
    const values: Record<string, string> = {
      client_name: r === 12 ? '' : `Member ${i + 1}`,
      email: r === 7 ? 'not-an-email' : `member${i + 1}@example.com`,
      plan: ['Starter', 'Growth', 'Scale'][i % 3]!,
      start_date: `2026-04-${String((i % 28) + 1).padStart(2, '0')}`,
    };
    names.forEach((n, c) => values[n] && (sheet.getCell(r, c + 1).value = values[n]));
  }
  const file = path.join(work, 'members-march.xlsx');
  await workbook.xlsx.writeFile(file);
  return file;
}

/** A CSV of the person's own making: other headers, an extra column, one field missing. */
function ownCsv(rows: number): string {
  const lines = ['Full name,E-mail address,Tier,Notes'];
  for (let i = 0; i < rows; i++) lines.push(`Guest ${i + 1},guest${i + 1}@example.com,${['Starter', 'Growth', 'Gold'][i % 3]},VIP`);
  const file = path.join(work, 'crm-export.csv');
  writeFileSync(file, lines.join('\n'));
  return file;
}

/** A big batch, caught while it runs: progress, the Cancel dialog, then cancelled. */
async function runningBatch(page: Page, width: number) {
  await page.goto(`${BASE_URL}/login?mode=signup`);
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Admin');
  await page.getByLabel('Email').fill(ADMIN_EMAIL!.replace('@', `-${width}@`));
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).last().click();
  await page.getByTestId('greeting-name').waitFor();
  const link = new URL(await linkFromLogFile(ADMIN_EMAIL!.replace('@', `-${width}@`)), BASE_URL);
  await page.request.post(`${BASE_URL}/api/auth/verify-email`, { headers: { origin: BASE_URL }, data: { token: link.searchParams.get('token') } });
  const me = (await (await page.request.get(`${BASE_URL}/api/auth/user`)).json()) as { id: string };
  const lifted = await page.request.patch(`${BASE_URL}/api/admin/users/${me.id}`, {
    headers: { origin: BASE_URL },
    data: { subscriptionPlan: 'enterprise', apiCallsLimit: 100_000 },
  });
  if (!lifted.ok()) throw new Error(`could not lift the limit: ${lifted.status()} (is ${ADMIN_EMAIL} in ADMIN_EMAILS?)`);
  const created = await page.request.post(`${BASE_URL}/api/formats`, { headers: { origin: BASE_URL }, data: FORMAT });
  const format = (await created.json()) as { id: string };
  const lines = ['client_name,email,plan,start_date'];
  for (let i = 0; i < 12_000; i++) lines.push(`Member ${i + 1},member${i + 1}@example.com,Growth,2026-05-01`);
  const file = path.join(work, 'big.csv');
  writeFileSync(file, lines.join('\n'));
  await page.goto(`${BASE_URL}/data-entry/${format.id}`);
  await page.getByRole('tab', { name: 'Bulk Upload' }).click();
  await page.getByLabel('Spreadsheet file').setInputFiles(file);
  await page.getByTestId('start-batch').click();
  await page.waitForURL(/\/batches\//);
  await page.getByText('Time left').waitFor();
  await page.waitForTimeout(2500);
  await shot(page, 'batch-running', width);
  await page.getByRole('button', { name: 'Cancel batch' }).click();
  await page.getByRole('alertdialog').waitFor();
  await shot(page, 'batch-cancel-dialog', width, { fullPage: false });
  await page.getByRole('button', { name: 'Yes, cancel batch' }).click();
  await page.getByTestId('job-outcome').waitFor();
  await shot(page, 'batch-cancelled', width);
  await page.goto(`${BASE_URL}/documents`);
  await page.getByTestId('batch-row').waitFor();
  await shot(page, 'documents-cancelled-batch', width);
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  for (const width of [1280, 375]) {
    const context = await browser.newContext({ viewport: { width, height: width > 600 ? 800 : 740 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    watch(page, `w${width}`);

    await page.goto(`${BASE_URL}/login?mode=signup`);
    await page.getByLabel('First name').fill('Avery');
    await page.getByLabel('Last name').fill('Stone');
    await page.getByLabel('Email').fill(`bulk-shots-${width}-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).last().click();
    await page.getByTestId('greeting-name').waitFor();
    const created = await page.request.post(`${BASE_URL}/api/formats`, { headers: { origin: BASE_URL }, data: FORMAT });
    const format = (await created.json()) as { id: string };

    await page.goto(`${BASE_URL}/documents`);
    await page.getByText('No documents yet').waitFor();
    await shot(page, 'documents-empty', width);

    await page.goto(`${BASE_URL}/data-entry/${format.id}`);
    await page.getByRole('tab', { name: 'Bulk Upload' }).click();
    const panel = page.getByRole('tabpanel');
    await panel.getByTestId('drop-zone').waitFor();
    await shot(page, 'bulk-tab-empty', width);

    await panel.getByLabel('Spreadsheet file').setInputFiles({ name: 'contract.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7') });
    await panel.getByTestId('upload-error').waitFor();
    await shot(page, 'bulk-tab-type-error', width);

    // A CSV of one's own: one field not matched, an unused column, invalid choices.
    await panel.getByLabel('Spreadsheet file').setInputFiles(ownCsv(12));
    await panel.getByTestId('mapping-panel').waitFor();
    await shot(page, 'bulk-review-csv', width);
    await panel.getByRole('button', { name: 'Start over' }).click();

    // The Excel template: everything matches; two rows are invalid.
    await panel.getByLabel('Spreadsheet file').setInputFiles(await filledTemplate(page, format.id, 25));
    await panel.getByTestId('mapping-panel').waitFor();
    await shot(page, 'bulk-review-template', width);
    await panel.getByLabel('Fix first').check();
    await panel.getByTestId('preview-table').locator('td[data-invalid] button').first().focus();
    await page.waitForTimeout(900);
    await shot(page, 'bulk-review-tooltip', width, { fullPage: false });
    await panel.getByLabel('Skip invalid rows').check();
    await panel.getByTestId('start-batch').click();
    await page.waitForURL(/\/batches\//);
    await shot(page, 'batch-started', width);
    await page.getByTestId('job-outcome').waitFor({ timeout: 90_000 });
    await shot(page, 'batch-completed', width);
    const batchUrl = page.url();

    await page.goto(`${BASE_URL}/documents`);
    await page.getByTestId('batch-row').waitFor();
    await shot(page, 'documents-grouped', width);

    // 7 generations left on the free plan: a 25-row file is blocked.
    await page.goto(`${BASE_URL}/data-entry/${format.id}`);
    await page.getByRole('tab', { name: 'Bulk Upload' }).click();
    await panel.getByLabel('Spreadsheet file').setInputFiles(await filledTemplate(page, format.id, 25));
    await panel.getByTestId('quota').scrollIntoViewIfNeeded();
    await shot(page, 'bulk-review-quota', width);
    await panel.getByRole('button', { name: 'Start over' }).click();

    await page.goto(batchUrl);
    await page.getByRole('button', { name: 'Cancel batch' }).waitFor({ state: 'detached' });
    await page.goto(`${BASE_URL}/batches/no-such-batch`);
    await page.getByText('This batch does not exist').waitFor();
    await shot(page, 'batch-missing', width);
    await context.close();
    if (ADMIN_EMAIL) {
      const adminContext = await browser.newContext({ viewport: { width, height: width > 600 ? 800 : 740 }, deviceScaleFactor: 1 });
      const adminPage = await adminContext.newPage();
      watch(adminPage, `admin-w${width}`);
      await runningBatch(adminPage, width);
      await adminContext.close();
    }
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
