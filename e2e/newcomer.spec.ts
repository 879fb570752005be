import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';

/**
 * The newcomer task, timed by effort: from the landing page to a downloaded offer letter with typed
 * placeholders (text, email, select, date, number). Before starter templates a practised user
 * needed 48 clicks and 564 keystrokes; the journey must take at most half of those clicks.
 */
const BASELINE_CLICKS = 48;

function pdfText(bytes: Buffer): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'formwork-e2e-pdf-')), 'doc.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** A download started from a link that opens a new tab arrives on the new page, not the opener. */
function nextDownload(page: Page): Promise<Download> {
  return new Promise((resolve) => {
    page.on('download', resolve);
    page.context().on('page', (popup) => popup.on('download', resolve));
  });
}

const EFFORT_KEY = 'formwork.e2e.effort';

/** Counts the person's own clicks and key presses on every page the journey loads. */
async function countEffort(page: Page): Promise<void> {
  await page.addInitScript((key) => {
    const bump = (what: 'clicks' | 'keys') => {
      const now = JSON.parse(localStorage.getItem(key) ?? '{"clicks":0,"keys":0}') as Record<string, number>;
      now[what] = (now[what] ?? 0) + 1;
      localStorage.setItem(key, JSON.stringify(now));
    };
    window.addEventListener('click', (e) => e.isTrusted && bump('clicks'), true);
    window.addEventListener('keydown', (e) => e.isTrusted && bump('keys'), true);
  }, EFFORT_KEY);
}

async function effort(page: Page): Promise<{ clicks: number; keys: number }> {
  return page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{"clicks":0,"keys":0}') as { clicks: number; keys: number }, EFFORT_KEY);
}

test.use({ viewport: { width: 1280, height: 900 } });

test('newcomer: landing page to a downloaded offer letter in at most half the clicks it took before', async ({ page }) => {
  await countEffort(page);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));

  // 1. Get Started Free opens Create account.
  await page.goto('/');
  await page.getByRole('link', { name: 'Get Started Free' }).first().click();
  await expect(page).toHaveURL(/\/login\?mode=signup$/);
  const signUp = page.getByRole('form', { name: 'Create account' });
  await signUp.getByLabel('First name').click();
  await page.keyboard.type('Nora');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Newman');
  await page.keyboard.press('Tab');
  await page.keyboard.type(`nora.${Date.now()}@example.com`);
  await page.keyboard.press('Tab');
  await page.keyboard.type('a-long-enough-password');
  await page.keyboard.press('Enter');

  // 2. A first-time dashboard leads to a first PDF: pick the offer letter.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to Formwork, Nora');
  await page.getByTestId('starter-offer-letter').click();
  await expect(page).toHaveURL(/\/builder\?from=import$/);
  await expect(page.getByTestId('import-notice')).toContainText('Started from the Offer letter template');

  // 3. Save: the builder stays and offers to fill the format in.
  await page.getByRole('button', { name: 'Save Format' }).click();
  await expect(page.getByTestId('save-status')).toHaveText('All changes saved');
  await expect(page).toHaveURL(/\/builder\/[^/?]+$/);
  await page.getByRole('link', { name: 'Fill in', exact: true }).click();
  await expect(page).toHaveURL(/\/data-entry\/[^/]+$/);

  // 4. Fill in the form with the keyboard: text, text, email, text, select, date, number, text.
  await page.getByLabel('Company name').click();
  await page.keyboard.type('Northwind Labs');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Jane Doe');
  await page.keyboard.press('Tab');
  await page.keyboard.type('jane.doe@example.com');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Product Designer');
  await page.keyboard.press('Tab');
  await page.keyboard.type('F'); // Full-time
  await expect(page.getByLabel('Employment type')).toHaveValue('Full-time');
  await page.keyboard.press('Tab');
  await page.keyboard.type('03022026');
  await expect(page.getByLabel('Start date')).toHaveValue('2026-03-02');
  // Tab stays inside a date field's parts, so the next field is clicked.
  await page.getByLabel('Annual salary').click();
  await page.keyboard.type('98000');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Sam Patel');
  await page.keyboard.press('Enter');

  // 5. Download the PDF and read it.
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const downloadPromise = nextDownload(page);
  await dialog.getByRole('link', { name: /Download/ }).click();
  const download = await downloadPromise;
  const text = pdfText(readFileSync(await download.path())).replace(/\s+/g, ' ');
  expect(text).toContain('Offer of employment: Product Designer');
  expect(text).toContain('Dear Jane Doe,');
  expect(text).toContain('March 2, 2026');
  expect(text).toContain('98,000');
  expect(text).toContain('Full-time');
  expect(text).not.toContain('{{');

  const spent = await effort(page);
  test.info().annotations.push({ type: 'effort', description: `${spent.clicks} clicks, ${spent.keys} keystrokes` });
  console.log(`newcomer journey: ${spent.clicks} clicks, ${spent.keys} keystrokes (before: ${BASELINE_CLICKS} clicks, 564 keystrokes)`);
  expect(spent.clicks).toBeLessThanOrEqual(BASELINE_CLICKS / 2);
  expect(errors).toEqual([]);
});
