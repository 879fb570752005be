import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';

/*
 * Logic in a format, as a user builds and fills it: a list placeholder with a repeating table
 * row, a tax formula, a condition on a checkbox; then the form's editable table of lines (three
 * added, one removed, the total following), and the PDF's text.
 */

function pdfText(bytes: Buffer): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'formwork-e2e-logic-')), 'doc.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

test.use({ viewport: { width: 1280, height: 1100 } });

test('an invoice with a repeating row, a tax formula and a condition: built, filled with lines, generated', async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  const consoleErrors = collectConsoleErrors(page);
  const signUp = await page.request.post('/api/auth/sign-up', {
    headers: { origin: baseURL ?? '' },
    data: { firstName: 'Lina', lastName: 'Logic', email: `logic.${Date.now()}@example.com`, password: 'longenough1' },
  });
  expect(signUp.ok()).toBeTruthy();

  // 1. Build: placeholders first.
  await page.goto('/builder');
  await page.getByLabel('Format name').fill('Logic invoice');
  const panel = page.getByTestId('placeholder-panel');
  const addPlaceholder = async (name: string, type: string, more?: () => Promise<void>) => {
    await panel.getByLabel('Name', { exact: true }).fill(name);
    await panel.getByLabel('Type', { exact: true }).selectOption(type);
    await more?.();
    await panel.getByRole('button', { name: 'Add placeholder' }).click();
    await expect(panel.getByTestId('placeholder-item').filter({ hasText: `{{${name}}}` })).toBeVisible();
  };
  // A list starts as line items: description, qty, price, and amount = qty * price.
  await addPlaceholder('items', 'list', async () => {
    const columns = panel.getByTestId('column-draft');
    await expect(columns).toHaveCount(4);
    await expect(columns.nth(3).getByTestId('formula-check')).toHaveText('Gives 1, 4, 9 for three sample rows.');
  });
  await addPlaceholder('tax_rate', 'number');
  await addPlaceholder('subtotal', 'formula', async () => {
    await panel.getByLabel('Formula').fill('sum(items.amount');
    await expect(panel.getByTestId('formula-check')).toHaveText('A closing bracket ")" is missing at the end. (at character 17)');
    await panel.getByLabel('Formula').fill('sum(items.amount)');
    await expect(panel.getByTestId('formula-check')).toHaveText('Gives 14 with sample values.');
  });
  await addPlaceholder('tax', 'formula', () => panel.getByLabel('Formula').fill('round(subtotal * tax_rate / 100, 2)'));
  await addPlaceholder('total', 'formula', () => panel.getByLabel('Formula').fill('subtotal + tax'));
  await addPlaceholder('vip', 'checkbox');

  // A table whose second row repeats for each line; the list fills the row with its columns.
  const sidebar = page.getByTestId('builder-sidebar');
  await sidebar.getByRole('button', { name: 'Add Table' }).click();
  await page.getByLabel('Header row').check();
  await page.getByTestId('repeat-control').getByLabel('Repeat a row for each row of a list').selectOption('items');
  await expect(page.getByLabel('Table 1, row 1, column 1')).toHaveValue('Description');
  await expect(page.getByLabel('Table 1, row 2, column 4')).toHaveValue('{{amount}}');
  await page.getByLabel('Table 1, row 2, column 3').fill('{{price | currency}}');
  await page.getByLabel('Table 1, row 2, column 4').fill('{{amount | currency}}');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('repeat-badge')).toHaveText('Repeats for each row of Items (row 2)');

  await sidebar.getByRole('button', { name: 'Add Paragraph' }).click();
  await page.getByLabel('Paragraph text').fill('Subtotal {{subtotal | currency}}; tax {{tax | currency}}; total due {{total | currency}}.');
  await page.getByRole('button', { name: 'Done' }).click();

  // A thank-you shown only to VIPs.
  await sidebar.getByRole('button', { name: 'Add Paragraph' }).click();
  await page.getByLabel('Paragraph text').fill('Thank you for being a valued customer.');
  await page.getByRole('button', { name: 'Show only when…' }).click();
  const condition = page.getByTestId('condition-editor');
  await condition.getByLabel('Condition 1: field').selectOption('vip');
  await expect(condition.getByLabel('Condition 1: value')).toHaveValue('true');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('condition-badge')).toHaveText('Shown when Vip is ticked');
  // The live preview fills the list with three sample rows.
  await expect(page.getByTestId('preview-status')).toHaveText('Up to date', { timeout: 20_000 });

  await page.getByRole('button', { name: 'Save Format' }).click();
  await expect(page.getByTestId('save-status')).toHaveText('All changes saved');
  await page.getByRole('link', { name: 'Fill in' }).click();

  // 2. Fill: three lines, then one removed; the total follows.
  await expect(page.getByRole('heading', { name: 'Logic invoice' })).toBeVisible();
  await page.getByLabel('Tax rate').fill('10');
  const list = page.getByTestId('field-items');
  const lines = [
    ['Design', '2', '150'],
    ['Review', '1', '99.99'],
    ['Hosting', '3', '0.10'],
  ];
  for (const [r, [description, qty, price]] of lines.entries()) {
    if (r > 0) await list.getByRole('button', { name: 'Add row' }).click();
    await list.getByLabel(`Items, row ${r + 1}, Description`).fill(description!);
    await list.getByLabel(`Items, row ${r + 1}, Qty`).fill(qty!);
    await list.getByLabel(`Items, row ${r + 1}, Price`).fill(price!);
  }
  const total = page.getByTestId('field-total').getByTestId('computed-value');
  // 300 + 99.99 + 0.30 = 400.29; 10% tax 40.03; total 440.32.
  await expect(total).toHaveValue('$440.32');
  await expect(list.getByTestId('computed-cell').nth(1)).toHaveText('$99.99');
  await list.getByRole('button', { name: 'Remove row 2' }).click();
  await expect(list.getByTestId('list-row')).toHaveCount(2);
  // 300.30 + 30.03 = 330.33.
  await expect(total).toHaveValue('$330.33');

  // 3. Generate, and read the PDF.
  await page.getByRole('button', { name: 'Generate Document' }).click();
  await expect(page.getByRole('dialog')).toContainText('Logic invoice');
  const [document] = (await (await page.request.get('/api/documents')).json()) as { id: string; data: Record<string, unknown> }[];
  expect(document!.data.total).toBe('330.33');
  const text = pdfText(await (await page.request.get(`/api/documents/${document!.id}/download`)).body());
  expect(text).toContain('Description Qty Price Amount Design 2 $150.00 $300.00 Hosting 3 $0.10 $0.30');
  expect(text).not.toContain('Review');
  expect(text).toContain('Subtotal $300.30; tax $30.03; total due $330.33.');
  expect(text).not.toContain('valued customer');
  expect(consoleErrors).toEqual([]);
});
