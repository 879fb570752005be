import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, test, type Download, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';

/**
 * Bulk generation in the browser: the Excel template from the Bulk Upload tab, filled with 25 rows
 * (two of them invalid), uploaded, previewed with its two errors, started with invalid rows
 * skipped, watched to 23 of 23, and downloaded as a ZIP of 23 PDFs.
 */

const FORMAT = {
  name: 'Welcome Letter',
  description: 'Sent to every new member',
  content: {
    elements: [
      { id: '1', type: 'heading', content: 'Welcome, {{client_name}}', fontSize: 'text-2xl' },
      { id: '2', type: 'paragraph', content: 'We will write to {{email}} about your {{plan}} plan.' },
    ],
  },
  placeholders: [
    { name: 'client_name', label: 'Client name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: true },
    { name: 'plan', type: 'select', required: false, options: ['Starter', 'Growth', 'Scale'] },
  ],
};

const ROWS = 25;
/** Spreadsheet rows (the template's data starts on row 3) that are made invalid. */
const BAD_EMAIL_ROW = 7;
const MISSING_NAME_ROW = 12;

function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/** A download started from a link that opens a new tab arrives on the new page, not the opener. */
function nextDownload(page: Page): Promise<Download> {
  return new Promise((resolve) => {
    page.on('download', resolve);
    page.context().on('page', (popup) => popup.on('download', resolve));
  });
}

/** The names of the entries of a ZIP, and the first bytes of each; each entry's CRC-32 is checked. */
function readZip(bytes: Buffer): Promise<{ name: string; head: string }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'));
      const entries: { name: string; head: string }[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const data = Buffer.concat(chunks);
            if (zlib.crc32(data) !== entry.crc32) return reject(new Error(`${entry.fileName}: CRC-32 does not match its bytes`));
            entries.push({ name: entry.fileName, head: data.subarray(0, 5).toString('latin1') });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

test('bulk journey: template, 25 rows with 2 invalid, preview, skip, progress to 23 of 23, ZIP of 23 PDFs', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const pageErrors = collectPageErrors(page);
  const origin = new URL(baseURL ?? 'http://localhost:5055').origin;
  const work = mkdtempSync(path.join(tmpdir(), 'formwork-e2e-bulk-'));

  // Sign up through the form, then create the format through the API.
  await page.goto('/login?mode=signup');
  const signUp = page.getByRole('form', { name: 'Create account' });
  await signUp.getByLabel('First name').fill('Robin');
  await signUp.getByLabel('Last name').fill('Batch');
  await signUp.getByLabel('Email').fill(`robin.${Date.now()}@example.com`);
  await signUp.getByLabel('Password').fill('a-long-enough-password');
  await signUp.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('greeting-name')).toHaveText('Robin');
  const created = await page.request.post('/api/formats', { headers: { origin }, data: FORMAT });
  expect(created.status()).toBe(201);
  const format = (await created.json()) as { id: string };
  // One document made the ordinary way, to sit beside the batch on Recent Documents.
  const single = await page.request.post('/api/documents', {
    headers: { origin },
    data: { formatId: format.id, data: { client_name: 'Solo Member', email: 'solo@example.com' } },
  });
  expect(single.status()).toBe(201);

  // 1. Download the Excel template from the Bulk Upload tab.
  await page.goto(`/data-entry/${format.id}`);
  await page.getByRole('tab', { name: 'Bulk Upload' }).click();
  const panel = page.getByRole('tabpanel');
  const templateDownload = nextDownload(page);
  await panel.getByRole('link', { name: 'Download Excel template' }).click();
  const template = await templateDownload;
  expect(template.suggestedFilename()).toMatch(/\.xlsx$/);
  for (const popup of page.context().pages()) if (popup !== page) await popup.close();

  // 2. Fill 25 rows, two of them invalid (a bad email, a missing required name), and save it.
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await template.path());
  const sheet = workbook.getWorksheet('Data');
  if (!sheet) throw new Error('the template has no Data sheet');
  const names = (sheet.getRow(2).values as unknown[]).slice(1).map(String);
  expect(names).toEqual(['client_name', 'email', 'plan']);
  for (let i = 0; i < ROWS; i++) {
    const rowNumber = 3 + i;
    const values: Record<string, string> = {
      client_name: rowNumber === MISSING_NAME_ROW ? '' : `Member ${String(i + 1).padStart(2, '0')}`,
      email: rowNumber === BAD_EMAIL_ROW ? 'not-an-email' : `member${i + 1}@example.com`,
      plan: ['Starter', 'Growth', 'Scale'][i % 3]!,
    };
    names.forEach((name, col) => {
      if (values[name]) sheet.getCell(rowNumber, col + 1).value = values[name];
    });
  }
  const filled = path.join(work, 'members.xlsx');
  await workbook.xlsx.writeFile(filled);

  // 3. Upload it: every column matches, and the preview marks the two invalid cells.
  await panel.getByLabel('Spreadsheet file').setInputFiles(filled);
  await expect(panel.getByTestId('uploaded-file')).toHaveText('members.xlsx');
  await expect(panel.getByTestId('mapping-summary')).toHaveText('All 3 fields matched a column.');
  const counts = panel.getByTestId('row-counts');
  await expect(counts.getByTestId('count-total').locator('dd')).toHaveText('25');
  await expect(counts.getByTestId('count-valid').locator('dd')).toHaveText('23');
  await expect(counts.getByTestId('count-invalid').locator('dd')).toHaveText('2');
  const invalidCells = panel.getByTestId('preview-table').locator('td[data-invalid="true"]');
  await expect(invalidCells).toHaveCount(2);
  await expect(invalidCells.first()).toContainText('not-an-email');
  const problems = panel.getByTestId('preview-problems');
  await expect(problems).toContainText(`Row ${BAD_EMAIL_ROW}`);
  await expect(problems).toContainText('Enter a valid email address.');
  await expect(problems).toContainText(`Row ${MISSING_NAME_ROW}`);
  await expect(panel.getByTestId('quota')).toContainText('You can make 29 more documents this month. This batch uses 23.');

  // Starting waits for a decision about the invalid rows; choose to skip them.
  const start = panel.getByTestId('start-batch');
  await expect(start).toBeDisabled();
  await panel.getByLabel('Skip invalid rows').check();
  await expect(start).toHaveText('Generate 23 documents');
  await start.click();

  // 4. The batch page shows the progress until 23 of 23 are done; it survives a reload.
  await expect(page).toHaveURL(/\/batches\/[^/]+$/);
  const progress = page.getByTestId('job-progress');
  await expect(progress.getByRole('progressbar', { name: 'Batch progress' })).toBeVisible();
  await page.reload();
  await expect(progress.getByRole('progressbar', { name: 'Batch progress' })).toHaveAttribute('aria-valuenow', '23', { timeout: 90_000 });
  await expect(progress.getByTestId('job-status')).toHaveText('Completed');
  await expect(progress).toContainText('23 of 23 rows done');
  await expect(progress).toContainText('2 rows with invalid values were skipped.');

  // The rows left out are listed, and the batch's documents are there with their actions.
  const rowErrors = page.getByTestId('row-errors');
  await expect(rowErrors.locator('tbody tr')).toHaveCount(2);
  await expect(rowErrors).toContainText('Enter a valid email address.');
  await expect(page.getByRole('region', { name: /^Documents/ }).getByTestId('document-row')).toHaveCount(23);

  // 5. Download the ZIP: 23 PDFs.
  const zipDownload = page.waitForEvent('download');
  await progress.getByRole('link', { name: /Download ZIP/ }).click();
  const zip = await zipDownload;
  expect(zip.suggestedFilename()).toMatch(/\.zip$/);
  const entries = await readZip(readFileSync(await zip.path()));
  expect(entries).toHaveLength(23);
  for (const entry of entries) {
    expect(entry.name).toMatch(/\.pdf$/);
    expect(entry.head).toBe('%PDF-');
  }
  expect(new Set(entries.map((e) => e.name)).size).toBe(23);

  // The error report holds the two skipped rows.
  const csvDownload = page.waitForEvent('download');
  await progress.getByRole('link', { name: 'Download error CSV' }).click();
  const csv = readFileSync(await (await csvDownload).path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv[0]).toBe('row,column,message');
  expect(
    csv
      .slice(1)
      .map((line) => Number(line.split(',')[0]))
      .sort((a, b) => a - b),
  ).toEqual([BAD_EMAIL_ROW, MISSING_NAME_ROW]);

  // Recent Documents shows the batch as one row that leads back to its page.
  await page.goto('/documents');
  const batchRow = page.getByTestId('batch-row');
  await expect(batchRow).toHaveCount(1);
  await expect(batchRow).toContainText('Welcome Letter batch');
  await expect(batchRow).toContainText('23 of 23 documents');
  const singleRow = page.getByTestId('document-row');
  await expect(singleRow).toHaveCount(1);
  await expect(singleRow).toContainText('Welcome Letter');
  await batchRow.getByRole('link', { name: 'Welcome Letter batch', exact: true }).click();
  await expect(page).toHaveURL(/\/batches\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome Letter batch');

  expect(pageErrors).toEqual([]);
});

test('bulk review: a file of one’s own mapped by hand, kept across a reload, server and client errors shown inline', async ({ page, baseURL }) => {
  const pageErrors = collectPageErrors(page);
  const origin = new URL(baseURL ?? 'http://localhost:5055').origin;
  await page.goto('/login?mode=signup');
  const signUp = page.getByRole('form', { name: 'Create account' });
  await signUp.getByLabel('First name').fill('Morgan');
  await signUp.getByLabel('Last name').fill('Map');
  await signUp.getByLabel('Email').fill(`morgan.${Date.now()}@example.com`);
  await signUp.getByLabel('Password').fill('a-long-enough-password');
  await signUp.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('greeting-name')).toHaveText('Morgan');
  const created = await page.request.post('/api/formats', { headers: { origin }, data: FORMAT });
  const format = (await created.json()) as { id: string };

  await page.goto(`/data-entry/${format.id}`);
  await page.getByRole('tab', { name: 'Bulk Upload' }).click();
  const panel = page.getByRole('tabpanel');

  // Client-side: a type the server cannot read never leaves the browser.
  await panel.getByLabel('Spreadsheet file').setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7') });
  await expect(panel.getByTestId('upload-error')).toHaveText('.pdf files cannot be read. Upload an .xlsx, .xls or .csv file.');
  // Server-side: a text file named .xlsx is refused with the server's message.
  await panel
    .getByLabel('Spreadsheet file')
    .setInputFiles({ name: 'fake.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from('name,email\nA,a@example.com\n') });
  await expect(panel.getByTestId('upload-error')).toHaveText('This file is named .xlsx, but it is a text (CSV) file. Rename it to .csv and upload it again.');

  // A CSV with its own headers: nothing matches the required fields until mapped by hand.
  const csv = [
    'Full name,E-mail address,Tier,Notes',
    'Ann Lee,ann@example.com,Growth,VIP',
    'Bo Chan,bo@example.com,Scale,',
    'Cy Diaz,cy@example.com,Gold,',
  ].join('\n');
  await panel.getByLabel('Spreadsheet file').setInputFiles({ name: 'crm.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const mapping = panel.getByTestId('mapping-panel');
  await expect(mapping.getByRole('combobox', { name: 'Client name (required)' })).toHaveValue('');
  await expect(panel.getByTestId('count-valid').locator('dd')).toHaveText('0');
  await expect(panel.getByTestId('start-batch')).toBeDisabled();
  await mapping.getByRole('combobox', { name: 'Client name (required)' }).selectOption({ label: 'A · Full name' });
  await expect(mapping.getByRole('combobox', { name: 'Client name (required)' })).toBeEnabled();
  await mapping.getByRole('combobox', { name: 'Email (required)' }).selectOption({ label: 'B · E-mail address' });
  await expect(mapping.getByRole('combobox', { name: 'Email (required)' })).toBeEnabled();
  await mapping.getByRole('combobox', { name: 'Plan' }).selectOption({ label: 'C · Tier' });
  await expect(mapping.getByRole('combobox', { name: 'Plan' })).toBeEnabled();
  await expect(mapping.getByTestId('mapping-summary')).toHaveText('All 3 fields matched a column.');
  await expect(mapping.getByTestId('unused-columns')).toContainText('D · Notes');
  // "Gold" is not a plan: one row stays invalid, two are valid.
  await expect(panel.getByTestId('count-valid').locator('dd')).toHaveText('2');
  await expect(panel.getByTestId('count-invalid').locator('dd')).toHaveText('1');
  await expect(panel.getByTestId('preview-problems')).toContainText('Row 4');

  // The draft, with its mapping, is still there after a reload.
  await page.reload();
  await page.getByRole('tab', { name: 'Bulk Upload' }).click();
  await expect(panel.getByTestId('uploaded-file')).toHaveText('crm.csv');
  await expect(panel.getByTestId('mapping-panel').getByRole('combobox', { name: 'Email (required)' })).toHaveValue('1');
  await expect(panel.getByTestId('count-valid').locator('dd')).toHaveText('2');

  // Fix first: no Start, an upload button instead. Start over returns to the picker.
  await panel.getByLabel('Fix first').check();
  await expect(panel.getByTestId('start-batch')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Upload corrected file' })).toBeVisible();
  await panel.getByRole('button', { name: 'Start over' }).click();
  await expect(panel.getByTestId('drop-zone')).toBeVisible();
  expect(pageErrors).toEqual([]);
});
