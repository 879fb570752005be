import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import { untilHydrated } from './navigation.ts';

function pdfText(bytes: Buffer): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'formwork-e2e-pdf-')), 'doc.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/**
 * The visible toasts. Radix announces a toast through a short-lived role="status" element, so
 * assertions on that role race the announcement; the notifications region holds the toast itself.
 */
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

const FORMAT = {
  name: 'Service Agreement',
  description: 'Consulting engagement for new clients',
  content: {
    elements: [
      { id: '1', type: 'heading', content: 'Agreement with {{client_name}}', fontSize: 'text-2xl' },
      { id: '2', type: 'paragraph', content: 'Plan: {{plan}}. Starts on {{start_date}}.' },
    ],
  },
  placeholders: [
    { name: 'client_name', label: 'Client name', type: 'text', required: false },
    { name: 'start_date', type: 'date', required: false },
    { name: 'plan', type: 'select', required: true, options: ['Starter', 'Growth', 'Scale'] },
  ],
};

test('core journey: fill a format, generate and download the PDF, find it again, delete document and format', async ({ page, baseURL }) => {
  const pageErrors = collectPageErrors(page);
  const origin = new URL(baseURL ?? 'http://localhost:5055').origin;

  // 1. Sign up through the form.
  await page.goto('/login?mode=signup');
  const signUp = page.getByRole('form', { name: 'Create account' });
  await signUp.getByLabel('First name').fill('Jordan');
  await signUp.getByLabel('Last name').fill('Vale');
  await signUp.getByLabel('Email').fill(`jordan.${Date.now()}@example.com`);
  await signUp.getByLabel('Password').fill('a-long-enough-password');
  await signUp.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('greeting-name')).toHaveText('Jordan');

  // 2. A format with three placeholders of different types, one a required select.
  const created = await page.request.post('/api/formats', { headers: { origin }, data: FORMAT });
  expect(created.status()).toBe(201);
  const format = (await created.json()) as { id: string };

  // 3. The generated form: title, typed fields, required mark.
  await page.goto(`/data-entry/${format.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Service Agreement');
  await expect(page.getByText('Consulting engagement for new clients')).toBeVisible();
  const form = page.getByRole('form', { name: 'Generate document' });
  await expect(form.getByLabel('Start date')).toHaveAttribute('type', 'date');
  await expect(form.getByLabel('Plan')).toHaveAttribute('aria-required', 'true');

  // Import Multi Data opens the Bulk Upload tab, which offers the real template download.
  await form.getByRole('button', { name: 'Import Multi Data' }).click();
  await expect(page.getByRole('tab', { name: 'Bulk Upload' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel').getByRole('link', { name: 'Download Excel template' })).toHaveAttribute(
    'href',
    `/api/formats/${format.id}/excel-template`,
  );
  await page.getByRole('tab', { name: 'Manual Input' }).click();

  // 4. Submitting with the required select empty shows the form-level message and an inline error.
  await form.getByRole('button', { name: 'Generate Document' }).click();
  await expect(form.getByTestId('form-error')).toHaveText('Please fill in all required fields: Plan');
  await expect(form.getByText('This field is required.')).toBeVisible();
  await expect(form.getByLabel('Plan')).toHaveAttribute('aria-invalid', 'true');

  // 5. Fill it in and generate.
  await form.getByLabel('Client name').fill('Harbor & Pine LLC');
  await form.getByLabel('Start date').fill('2026-03-09');
  await form.getByLabel('Plan').selectOption('Growth');
  await expect(form.getByTestId('form-error')).toBeHidden();
  await form.getByRole('button', { name: 'Generate Document' }).click();

  const dialog = page.getByRole('dialog', { name: 'Document generated' });
  await expect(dialog).toContainText('Document generated');
  await expect(dialog).toContainText('Service Agreement - ');
  // Email opens its own dialog; with no mail server on this installation it offers a draft with a share link.
  await dialog.getByRole('button', { name: /Email/ }).click();
  const emailDialog = page.getByRole('dialog', { name: 'Email the document' });
  await expect(emailDialog).toContainText('No mail server is set up yet');
  await expect(emailDialog.getByRole('button', { name: 'Open a draft with a link' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(emailDialog).toBeHidden();

  // 6. Download from the dialog and check the PDF's text, values substituted.
  const downloadPromise = nextDownload(page);
  await dialog.getByRole('link', { name: /Download/ }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const text = pdfText(readFileSync(await download.path()));
  expect(text).toContain('Agreement with Harbor & Pine LLC');
  expect(text).toContain('Plan: Growth.');
  expect(text).toContain('March 9, 2026');
  expect(text).not.toContain('{{');
  // eSign sends it for signature here; signers are emailed, so with no mail server it says so.
  await dialog.getByRole('button', { name: /eSign/ }).click();
  const signDialog = page.getByRole('dialog', { name: 'Send for signature' });
  await expect(signDialog).toContainText('No mail server is set up yet');
  await signDialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(signDialog).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // 7. The dashboard shows the format and the document, and the live stats.
  await page.goto('/');
  const stats = page.getByRole('region', { name: 'Statistics' });
  await expect(stats.getByTestId('stat-card').filter({ hasText: 'Documents Generated' })).toContainText('1');
  await expect(page.getByTestId('dashboard-format')).toContainText('Service Agreement');
  await expect(page.getByTestId('dashboard-format')).toContainText('3 placeholders');
  const dashDoc = page.getByTestId('dashboard-document');
  await expect(dashDoc).toHaveCount(1);
  await expect(dashDoc).toContainText('Service Agreement - ');
  await expect(dashDoc).toContainText('Generated');
  await expect(dashDoc.getByRole('link', { name: /^Preview/ })).toHaveAttribute('target', '_blank');

  // 8. Recent Documents lists it with the format name; delete it there after confirming.
  await page.getByRole('link', { name: 'View All' }).nth(1).click();
  await expect(page).toHaveURL(/\/documents$/);
  const row = page.getByTestId('document-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Service Agreement');
  await row.getByRole('button', { name: /^Delete/ }).click();
  const confirmDoc = page.getByRole('alertdialog');
  await expect(confirmDoc).toContainText(/Are you sure you want to delete "Service Agreement - .*"\? This action cannot be undone\./);
  await confirmDoc.getByRole('button', { name: 'Delete document' }).click();
  await expect(toasts(page)).toContainText('Document Deleted');
  await expect(toasts(page)).toContainText('Document has been removed from your account.');
  await expect(page.getByText('No documents yet')).toBeVisible();

  // 9. Delete the format from My Formats.
  await page.getByRole('link', { name: 'My Formats' }).first().click();
  const card = page.getByTestId('format-card');
  await expect(card).toContainText('Consulting engagement for new clients');
  await card.getByRole('button', { name: /^Delete/ }).click();
  const confirmFormat = page.getByRole('alertdialog');
  await expect(confirmFormat).toContainText('Are you sure you want to delete this format? This action cannot be undone.');
  await confirmFormat.getByRole('button', { name: 'Delete format' }).click();
  await expect(toasts(page)).toContainText('Success');
  await expect(toasts(page)).toContainText('Format deleted successfully!');
  await expect(page.getByText('No formats yet')).toBeVisible();

  // A deleted format's form reads Format Not Found.
  await page.goto(`/data-entry/${format.id}`);
  await expect(page.getByText('Format Not Found')).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test('landing live demo renders a real PDF for a signed-out visitor', async ({ page }) => {
  const pageErrors = collectPageErrors(page);
  await page.goto('/');
  await page.getByRole('main').getByRole('link', { name: 'Try Live Demo' }).click();
  const demo = page.getByRole('form', { name: 'Live demo' });
  await expect(demo).toBeInViewport();
  // The landing page arrives drawn: its form checks nothing until React has taken it over.
  await untilHydrated(demo.getByRole('button', { name: 'Generate PDF' }));

  // Client-side validation uses the same schema as the server.
  await demo.getByLabel('Full name').fill('');
  await demo.getByLabel('Salary').fill('a lot');
  await demo.getByRole('button', { name: 'Generate PDF' }).click();
  await expect(demo.getByText('Enter a name.')).toBeVisible();
  await expect(demo.getByText('Enter a salary as a number.')).toBeVisible();

  await demo.getByLabel('Full name').fill('Alex Morgan');
  await demo.getByLabel('Position').fill('Staff Engineer');
  await demo.getByLabel('Start date').fill('2026-05-04');
  await demo.getByLabel('Salary').fill('150000');
  const rendered = page.waitForResponse((r) => r.url().endsWith('/api/demo/render') && r.request().method() === 'POST');
  await demo.getByRole('button', { name: 'Generate PDF' }).click();
  const response = await rendered;
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/pdf');
  const frame = page.getByTestId('demo-pdf');
  await expect(frame).toBeVisible();
  await expect(frame).toHaveAttribute('src', /^blob:/);
  // The Download link hands over the same blob the iframe shows: check its text.
  const downloadLink = page.locator('#demo').getByRole('link', { name: 'Download' });
  await expect(downloadLink).toHaveAttribute('download', 'Offer letter - Alex Morgan.pdf');
  await expect(downloadLink).toHaveAttribute('href', /^blob:/);
  const downloadPromise = page.waitForEvent('download');
  await downloadLink.click();
  const download = await downloadPromise;
  const text = pdfText(readFileSync(await download.path()));
  expect(text).toContain('Dear Alex Morgan');
  expect(text).toContain('Staff Engineer');
  expect(text).toContain('May 4, 2026');
  expect(pageErrors).toEqual([]);
});
