import { expect, test, type Page } from '@playwright/test';
import { encryptedDocx, offerLetterDocx } from '../src/server/modules/template-import/test/fixtures.ts';

/*
 * Import Template: sign up, refuse a password-protected file with a toast, import a .docx from the
 * Dashboard, review the unsaved draft in the builder (headings, table, image, placeholders),
 * survive a reload, save it, and find it in My Formats.
 */

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function toasts(page: Page) {
  return page.getByRole('region', { name: /Notifications/ });
}

async function chooseFile(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: /Import Template/ }).click();
  const picker = await chooser;
  expect(picker.isMultiple()).toBe(false);
  await picker.setFiles(file);
}

test('import a .docx from the Dashboard, review it in the builder, save it, see it in My Formats', async ({ page }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));

  await page.goto('/login?mode=signup');
  const signUp = page.getByRole('form', { name: 'Create account' });
  await signUp.getByLabel('First name').fill('Imogen');
  await signUp.getByLabel('Last name').fill('Porter');
  await signUp.getByLabel('Email').fill(`imogen.${Date.now()}@example.com`);
  await signUp.getByLabel('Password').fill('a-long-enough-password');
  await signUp.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('greeting-name')).toHaveText('Imogen');

  // The picker is filtered to the three types.
  await expect(page.getByTestId('import-template-input')).toHaveAttribute('accept', /\.docx,\.pdf,\.txt/);

  // A file of another type is refused before upload; a password-protected one by the server.
  await chooseFile(page, { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('not really') });
  await expect(toasts(page).getByText('Only .docx, .pdf and .txt files can be imported.')).toBeVisible();
  await chooseFile(page, { name: 'locked.docx', mimeType: DOCX_TYPE, buffer: encryptedDocx() });
  await expect(toasts(page).getByText('Import Failed', { exact: true })).toBeVisible();
  await expect(toasts(page).getByText(/This Word document is password-protected/)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // The real import.
  await chooseFile(page, { name: 'offer_letter.docx', mimeType: DOCX_TYPE, buffer: await offerLetterDocx() });
  await expect(page).toHaveURL(/\/builder\?from=import$/);
  await expect(toasts(page).getByText('Template Imported', { exact: true })).toBeVisible();
  await expect(toasts(page).getByText('11 elements and 8 placeholders imported. Review them, then save the format.')).toBeVisible();

  const checkDraft = async () => {
    await expect(page.getByLabel('Format name')).toHaveValue('Offer letter');
    await expect(page.getByTestId('save-status')).toHaveText('Unsaved changes');
    await expect(page.getByTestId('import-notice')).toContainText('Imported from offer_letter.docx');
    const elements = page.getByTestId('canvas-element');
    await expect(elements).toHaveCount(11);
    const types = await elements.evaluateAll((els) => els.map((e) => e.getAttribute('data-element-type')));
    expect(types).toEqual(['heading', 'heading', 'paragraph', 'paragraph', 'heading', 'list', 'list', 'heading', 'table', 'image', 'paragraph']);
    // Headings.
    await expect(elements.nth(0)).toContainText('Offer Letter');
    await expect(elements.nth(1)).toContainText('Position Details');
    await expect(elements.nth(7)).toContainText('Compensation');
    // Bold and italic kept; tags rewritten and known.
    await expect(elements.nth(2).locator('strong')).toHaveText('{{client_name}}');
    await expect(elements.nth(2).locator('em')).toHaveText('delighted');
    await expect(elements.nth(2)).toContainText('the role of {{job_title}} starting on {{start_date}}.');
    // The table with its header row.
    const table = elements.nth(8).locator('table');
    await expect(table.locator('tr')).toHaveCount(3);
    await expect(table.locator('tr').nth(0)).toHaveText('ItemAmount');
    await expect(table.locator('tr').nth(1)).toHaveText('Base salary{{salary}}');
    // The image is a stored asset that loads.
    const img = elements.nth(9).locator('img');
    await expect(img).toHaveAttribute('src', /^\/api\/assets\//);
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(120);
    // Placeholders with guessed types.
    const items = page.getByTestId('placeholder-item');
    await expect(items).toHaveCount(8);
    await expect(page.getByTestId('placeholder-panel')).toContainText('{{start_date}}');
  };
  await checkDraft();

  // A reload reopens the draft (the browser asks first, as for any unsaved format).
  page.once('dialog', (d) => void d.accept());
  await page.reload();
  await checkDraft();

  // Nothing was saved yet.
  const before = await page.request.get('/api/formats');
  expect(await before.json()).toEqual([]);

  await page.getByLabel('Format name').fill('Imported Offer Letter');
  await page.getByRole('button', { name: 'Save Format' }).click();
  await expect(toasts(page).getByText('Format saved successfully!')).toBeVisible();
  await expect(page.getByTestId('save-status')).toHaveText('All changes saved');
  await expect(page.getByTestId('import-notice')).toBeHidden();

  await page.goto('/formats');
  const card = page.getByTestId('format-card').filter({ hasText: 'Imported Offer Letter' });
  await expect(card).toHaveCount(1);
  const formats = (await (await page.request.get('/api/formats')).json()) as { name: string; content: { elements: unknown[] }; placeholders: unknown[] }[];
  expect(formats).toHaveLength(1);
  expect(formats[0]!.content.elements).toHaveLength(11);
  expect(formats[0]!.placeholders).toHaveLength(8);

  // The stored draft is gone: the import link now opens a blank builder with a note.
  await page.goto('/builder?from=import');
  await expect(toasts(page).getByText('Import Not Found', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/builder$/);
  await expect(page.getByTestId('canvas-empty')).toBeVisible();

  expect(pageErrors).toEqual([]);
});
