import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe.ts';
import { startOwnServer, type TOwnServer } from './own-server.ts';

/**
 * Settings → Profile → Your data and the danger zone, as a person uses them: an export downloaded
 * at once, a larger account's export prepared in the background with its progress and link (the
 * threshold is one document here), and deleting the account through its dialog (a wrong password
 * first). axe at 1280 and 375 px. With ACCOUNT_SCREENSHOTS=docs/screenshots/accounts the journey
 * saves export-{width}.png (the data section) and delete-account-dialog-{width}.png.
 */
const PASSWORD = 'a long enough passphrase';
const NEAR = Number(process.env.E2E_PORT ?? 0);
const SHOTS = process.env.ACCOUNT_SCREENSHOTS;

let server: TOwnServer | undefined;
let base = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer({ EXPORT_BACKGROUND_ABOVE: '1' }, 'account-data', NEAR ? NEAR + 6 : 0);
  base = server.base;
});
test.afterAll(() => {
  server?.stop();
});

async function shot(page: Page, name: string, selector?: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  const file = path.join(SHOTS, `${name}-${page.viewportSize()?.width}.png`);
  if (selector) await page.locator(selector).screenshot({ path: file });
  else await page.screenshot({ path: file });
}

/** Signs up (no mail server: signed in at once) with `documents` documents of one format. */
async function account(page: Page, email: string, documents: number) {
  const headers = { origin: base };
  const signUp = await page.request.post(`${base}/api/auth/sign-up`, { data: { firstName: 'Dana', lastName: 'Data', email, password: PASSWORD }, headers });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const format = await page.request.post(`${base}/api/formats`, {
    headers,
    data: {
      name: 'Lease',
      content: { elements: [{ id: 'p', type: 'paragraph', content: 'Lease for {{client_name}}.' }] },
      placeholders: [{ name: 'client_name', type: 'text' }],
    },
  });
  expect(format.ok(), await format.text()).toBe(true);
  const formatId = ((await format.json()) as { id: string }).id;
  for (let i = 0; i < documents; i++) {
    const created = await page.request.post(`${base}/api/documents`, { headers, data: { formatId, data: { client_name: `Client ${i + 1}` } } });
    expect(created.ok(), await created.text()).toBe(true);
  }
}

test('a small account downloads its export at once', async ({ page }) => {
  await account(page, 'small@e2e.formwork.test', 1);
  await page.goto(`${base}/settings?tab=profile`);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^formwork-data-\d{4}-\d{2}-\d{2}\.zip$/);
  await expect(page.getByText('2 left today')).toBeVisible();
});

test('a larger export is prepared in the background; the account is deleted through its dialog', async ({ page }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await account(page, 'large@e2e.formwork.test', 3);

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${base}/settings?tab=profile`);
    if (width === 1280) {
      await page.getByRole('button', { name: 'Export my data' }).click();
      await expect(page.getByText('Export started').first()).toBeVisible();
    }
    await expect(page.getByTestId('export-ready')).toBeVisible({ timeout: 30_000 });
    // The page as the owner finds it later (from the email), without the toast of starting it.
    await page.reload();
    await expect(page.getByTestId('export-ready')).toBeVisible();
    await page.locator('#your-data').scrollIntoViewIfNeeded();
    await expectAccessible(page, `your data at ${width}`);
    await shot(page, 'export', '#your-data');
    const href = await page.getByRole('link', { name: 'Download export' }).getAttribute('href');
    const zip = await page.request.get(`${base}${href}`);
    expect(zip.status()).toBe(200);
    expect(zip.headers()['content-type']).toBe('application/zip');

    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('your formats, documents and uploaded images');
    await dialog.getByLabel('Your password').fill('not the password');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByText('This is not your password.')).toBeVisible();
    await expectAccessible(page, `delete account dialog at ${width}`);
    await shot(page, 'delete-account-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  }

  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await page.waitForURL(`${base}/`);
  expect((await page.request.get(`${base}/api/auth/user`)).status()).toBe(401);
  const again = await page.request.post(`${base}/api/auth/sign-in`, {
    data: { email: 'large@e2e.formwork.test', password: PASSWORD },
    headers: { origin: base },
  });
  expect(again.status()).toBe(401);
  expect(errors).toEqual([]);
});
