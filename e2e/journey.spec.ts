import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import sharp from 'sharp';
import { navigate } from './navigation.ts';

/*
 * The whole journey through the UI only: sign up, build a format with every element type and three
 * typed placeholders (one a required select), reorder by mouse drag, save, preview, fill the form
 * (required-field message first), generate and download the PDF, then delete the document and the
 * format. No API calls drive the steps; the API is only read to check what the UI produced.
 */

function pdfText(bytes: Buffer): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'formwork-e2e-pdf-')), 'doc.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** The images a PDF draws, as `pdfimages -list` rows: [width, height]. */
function pdfImages(bytes: Buffer): [number, number][] {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'formwork-e2e-pdf-')), 'doc.pdf');
  writeFileSync(file, bytes);
  const rows = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).split('\n').slice(2);
  return rows
    .map((r) => r.trim().split(/\s+/))
    .filter((cols) => cols.length > 5 && cols[2] === 'image')
    .map((cols) => [Number(cols[3]), Number(cols[4])]);
}

/** The notifications region holds the toasts themselves (role="status" announcements are short-lived). */
function toasts(page: Page) {
  return page.getByRole('region', { name: /Notifications/ });
}

/** A download started from a link that opens a new tab arrives on the new page, not the opener. */
function nextDownload(page: Page): Promise<Download> {
  return new Promise((resolve) => {
    page.on('download', resolve);
    page.context().on('page', (popup) => popup.on('download', resolve));
  });
}

async function types(page: Page): Promise<string[]> {
  return page.getByTestId('canvas-element').evaluateAll((els) => els.map((e) => e.getAttribute('data-element-type') ?? ''));
}

const HEADING = 'Consulting Engagement Letter';
const FORMAT_NAME = `Engagement ${Date.now()}`;

// Tall enough that the whole canvas is on screen while dragging with the mouse.
test.use({ viewport: { width: 1280, height: 1500 } });

test('journey: sign up, build, drag-reorder, save, preview, fill, generate, download, delete', async ({ page }) => {
  test.setTimeout(150_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));

  // A logo made here: a 60x30 two-colour PNG.
  const logo = await sharp({ create: { width: 60, height: 30, channels: 3, background: '#1f6feb' } })
    .composite([{ input: { create: { width: 30, height: 30, channels: 3, background: '#f0b429' } }, left: 30, top: 0 }])
    .png()
    .toBuffer();

  let formatId = '';

  await test.step('1. sign up through the form', async () => {
    await page.goto('/login?mode=signup');
    const signUp = page.getByRole('form', { name: 'Create account' });
    await signUp.getByLabel('First name').fill('Quinn');
    await signUp.getByLabel('Last name').fill('Journey');
    await signUp.getByLabel('Email').fill(`quinn.${Date.now()}@example.com`);
    await signUp.getByLabel('Password').fill('a-long-enough-password');
    await signUp.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByTestId('greeting-name')).toHaveText('Quinn');
  });

  await test.step('2. build a format: five element types, three typed placeholders, reorder by dragging', async () => {
    // From the first-run dashboard: a blank format rather than a starter template.
    await page.getByRole('link', { name: /^Blank format/ }).click();
    await expect(page).toHaveURL(/\/builder$/);
    await expect(page.getByTestId('canvas-empty')).toBeVisible();

    // Placeholders: a date, a number and a required select with options.
    const panel = page.getByTestId('placeholder-panel');
    const addPlaceholder = panel.getByRole('button', { name: 'Add placeholder' });
    await panel.getByLabel('Name', { exact: true }).fill('start_date');
    await panel.getByLabel('Type', { exact: true }).selectOption('date');
    await addPlaceholder.click();
    await panel.getByLabel('Name', { exact: true }).fill('monthly fee');
    await panel.getByLabel('Label (optional)').fill('Monthly fee');
    await panel.getByLabel('Type', { exact: true }).selectOption('number');
    await addPlaceholder.click();
    await panel.getByLabel('Name', { exact: true }).fill('plan');
    await panel.getByLabel('Label (optional)').fill('Service plan');
    await panel.getByLabel('Type', { exact: true }).selectOption('select');
    await panel.getByLabel('Required', { exact: true }).check();
    await panel.getByLabel('Options').fill('Starter\nGrowth\nScale');
    await addPlaceholder.click();
    const items = panel.getByTestId('placeholder-item');
    await expect(items).toHaveCount(3);
    await expect(items.nth(0)).toContainText('{{start_date}}');
    await expect(items.nth(1)).toContainText('{{monthly_fee}}');
    await expect(items.nth(2)).toContainText('{{plan}}');
    await expect(items.nth(2)).toContainText('Starter · Growth · Scale');
    await expect(items.nth(2)).toContainText('required');
    await expect(panel.getByTestId('placeholder-warnings')).toContainText('Not used in the format yet');

    const sidebar = page.getByTestId('builder-sidebar');
    const done = () => page.getByRole('button', { name: 'Done' }).click();

    await sidebar.getByRole('button', { name: 'Add Heading' }).click();
    await page.getByLabel('Heading text').fill(HEADING);
    await done();

    await sidebar.getByRole('button', { name: 'Add Paragraph' }).click();
    await page.getByLabel('Paragraph text').fill('Welcome to the {{plan}} plan.');
    await done();

    await sidebar.getByRole('button', { name: 'Add List' }).click();
    await page.getByRole('textbox', { name: 'Item 1', exact: true }).fill('Starts on {{start_date}}');
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.getByRole('textbox', { name: 'Item 2', exact: true }).fill('Billed every month');
    await done();

    await sidebar.getByRole('button', { name: 'Add Table' }).click();
    const cell = (r: number, c: number) => page.getByLabel(`Table 4, row ${r}, column ${c}`);
    await cell(1, 1).fill('Fee');
    await cell(1, 2).fill('{{monthly_fee}}');
    await cell(2, 1).fill('Plan');
    await cell(2, 2).fill('{{plan}}');
    await done();

    await sidebar.getByRole('button', { name: 'Add Image' }).click();
    await page.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
    await expect(toasts(page)).toContainText('Image Uploaded');
    await done();

    // Every placeholder is used now.
    await expect(panel.getByTestId('placeholder-warnings')).toBeHidden();
    for (let i = 0; i < 3; i++) await expect(items.nth(i).getByTestId('placeholder-uses')).toHaveText(/^used \d+×$/);
    expect(await types(page)).toEqual(['heading', 'paragraph', 'list', 'table', 'image']);

    // Drag the table (4th) above the list (3rd) with the mouse.
    const handles = page.getByTestId('drag-handle');
    const elements = page.getByTestId('canvas-element');
    await page.evaluate(() => window.scrollTo(0, 0));
    const to = await elements.nth(2).boundingBox();
    await elements.nth(3).hover();
    const from = await handles.nth(3).boundingBox();
    if (!from || !to) throw new Error('no boxes to drag between');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 20, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + 5, { steps: 20 });
    await page.mouse.up();
    await expect.poll(() => types(page)).toEqual(['heading', 'paragraph', 'table', 'list', 'image']);
  });

  await test.step('3. save (the name is asked for), then preview the saved format', async () => {
    // With the name emptied, Save asks for one.
    const name = page.getByLabel('Format name');
    await name.fill('');
    await page.getByRole('button', { name: 'Save Format' }).click();
    await expect(toasts(page)).toContainText('Missing Name');
    await expect(toasts(page)).toContainText('Please enter a format name.');
    await expect(name).toBeFocused();
    await expect(name).toHaveAttribute('aria-invalid', 'true');

    await name.fill(FORMAT_NAME);
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/formats');
    await page.getByRole('button', { name: 'Save Format' }).click();
    const createdRes = await created;
    expect(createdRes.status()).toBe(201);
    formatId = ((await createdRes.json()) as { id: string }).id;
    await expect(toasts(page)).toContainText('Format saved successfully!');
    await expect(toasts(page)).toContainText('Form Ready');
    // The first save keeps the builder, now at the format's address; the dashboard lists it.
    await expect(page).toHaveURL(new RegExp(`/builder/${formatId}$`));
    await navigate(page, 'Dashboard');
    await expect(page).toHaveURL(/\/$/);
    const dashFormat = page.getByTestId('dashboard-format');
    await expect(dashFormat).toHaveCount(1);
    await expect(dashFormat).toContainText(FORMAT_NAME);
    await expect(dashFormat).toContainText('3 placeholders');

    // Back into the builder from the dashboard; the saved order persisted; Preview opens the PDF.
    await dashFormat.getByRole('link', { name: `Edit ${FORMAT_NAME}` }).click();
    await expect(page).toHaveURL(new RegExp(`/builder/${formatId}$`));
    await expect(page.getByLabel('Format name')).toHaveValue(FORMAT_NAME);
    await expect(page.getByTestId('save-status')).toHaveText('All changes saved');
    expect(await types(page)).toEqual(['heading', 'paragraph', 'table', 'list', 'image']);

    const popupPromise = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const popup = await popupPromise;
    expect(popup.url()).toContain(`/api/formats/${formatId}/preview`);
    const preview = await page.request.get(popup.url());
    expect(preview.status()).toBe(200);
    expect(preview.headers()['content-type']).toContain('application/pdf');
    const bytes = await preview.body();
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(bytes)).toContain(HEADING);
    await popup.close();
  });

  await test.step('4. fill the form, first with the required select empty', async () => {
    await navigate(page, 'My Formats');
    await expect(page).toHaveURL(/\/formats$/);
    const card = page.getByTestId('format-card');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(FORMAT_NAME);
    await expect(card).toContainText('3 fields');
    await card.getByRole('link', { name: 'Fill data' }).click();
    await expect(page).toHaveURL(new RegExp(`/data-entry/${formatId}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(FORMAT_NAME);

    const form = page.getByRole('form', { name: 'Generate document' });
    await expect(form.getByLabel('Start date')).toHaveAttribute('type', 'date');
    await expect(form.getByLabel('Monthly fee')).toHaveAttribute('inputmode', 'decimal');
    await expect(form.getByTestId('number-adornment')).toHaveText('$');
    await expect(form.getByLabel('Service plan')).toHaveAttribute('aria-required', 'true');
    await expect(form.getByLabel('Service plan').locator('option')).toHaveText(['Select an option', 'Starter', 'Growth', 'Scale']);

    await form.getByLabel('Start date').fill('2026-03-09');
    await form.getByLabel('Monthly fee').fill('1234567.5');
    await form.getByRole('button', { name: 'Generate Document' }).click();
    await expect(form.getByTestId('form-error')).toHaveText('Please fill in all required fields: Service plan');
    await expect(form.getByText('This field is required.')).toBeVisible();
    await expect(form.getByLabel('Service plan')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('dialog')).toBeHidden();

    await form.getByLabel('Service plan').selectOption('Growth');
    await expect(form.getByTestId('form-error')).toBeHidden();
    await expect(form.getByLabel('Service plan')).not.toHaveAttribute('aria-invalid', 'true');
  });

  await test.step('5. generate and download the PDF; the values are substituted and formatted', async () => {
    const form = page.getByRole('form', { name: 'Generate document' });
    await form.getByRole('button', { name: 'Generate Document' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Document generated');
    await expect(dialog).toContainText(`${FORMAT_NAME} - `);

    const downloadPromise = nextDownload(page);
    await dialog.getByRole('link', { name: /Download/ }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = readFileSync(await download.path());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text).toContain(HEADING);
    expect(text).toContain('Welcome to the Growth plan.');
    // date: readable; a fee is money by its name: the format's currency, two decimals, no `| currency` needed.
    expect(text).toContain('Starts on March 9, 2026');
    expect(text).toMatch(/Fee\s+\$1,234,567\.50/);
    expect(text).toMatch(/Plan\s+Growth/);
    expect(text).toContain('Billed every month');
    expect(text).not.toContain('{{');
    expect(text).not.toContain('2026-03-09');
    // The uploaded logo is drawn (60x30 pixels, as made above).
    expect(pdfImages(bytes)).toContainEqual([60, 30]);
    // The dragged order holds in the document: paragraph, table, list.
    const para = text.indexOf('Welcome to the Growth plan.');
    const table = text.indexOf('$1,234,567.50');
    const list = text.indexOf('Starts on March 9, 2026');
    expect(para).toBeGreaterThanOrEqual(0);
    expect(table).toBeGreaterThan(para);
    expect(list).toBeGreaterThan(table);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  await test.step('6. delete the document, then the format', async () => {
    await navigate(page, 'Recent Documents');
    await expect(page).toHaveURL(/\/documents$/);
    const row = page.getByTestId('document-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(`${FORMAT_NAME} - `);
    await row.getByRole('button', { name: /^Delete/ }).click();
    const confirmDoc = page.getByRole('alertdialog');
    await expect(confirmDoc).toContainText(/Are you sure you want to delete ".*"\? This action cannot be undone\./);
    await confirmDoc.getByRole('button', { name: 'Delete document' }).click();
    await expect(confirmDoc).toBeHidden();
    await expect(toasts(page)).toContainText('Document Deleted');
    await expect(toasts(page)).toContainText('Document has been removed from your account.');
    await expect(row).toHaveCount(0);
    await expect(page.getByText('No documents yet')).toBeVisible();

    await navigate(page, 'My Formats');
    await expect(page).toHaveURL(/\/formats$/);
    const card = page.getByTestId('format-card');
    await expect(card).toHaveCount(1);
    await card.getByRole('button', { name: `Delete ${FORMAT_NAME}` }).click();
    const confirmFormat = page.getByRole('alertdialog');
    await expect(confirmFormat).toContainText(`Delete "${FORMAT_NAME}"?`);
    await expect(confirmFormat).toContainText('Are you sure you want to delete this format? This action cannot be undone.');
    await confirmFormat.getByRole('button', { name: 'Delete format' }).click();
    await expect(confirmFormat).toBeHidden();
    await expect(toasts(page)).toContainText('Success');
    await expect(toasts(page)).toContainText('Format deleted successfully!');
    await expect(card).toHaveCount(0);
    await expect(page.getByText('No formats yet')).toBeVisible();

    // Both lists stay empty after a reload (the deletions reached the server).
    await page.reload();
    await expect(page.getByText('No formats yet')).toBeVisible();
    await navigate(page, 'Recent Documents');
    await expect(page.getByText('No documents yet')).toBeVisible();
    await expect(page.getByTestId('document-row')).toHaveCount(0);
  });

  expect(pageErrors).toEqual([]);
});
