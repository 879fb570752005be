import { expect, test } from '@playwright/test';
import { STARTER_FORMATS } from '../src/contract/starter-formats/index.ts';

/*
 * A format's developer handles in a real browser: the id copied from My Formats is the format's,
 * the example data copied is JSON the API accepts, and the sidebar names the quota in documents.
 */

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('My Formats copies a format’s id and example data; the quota is in documents', async ({ page }) => {
  await page.goto('/login?mode=signup');
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByLabel('First name').fill('Dev');
  await form.getByLabel('Last name').fill('Handles');
  await form.getByLabel('Email').fill(`dev.${Date.now()}@example.com`);
  await form.getByLabel('Password').fill('dev-handles-password-1');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('greeting-name')).toHaveText('Dev');
  await expect(page.getByTestId('sidebar-usage')).toContainText('Documents this month');

  const invoice = STARTER_FORMATS.find((s) => s.id === 'invoice')!;
  const origin = new URL(page.url()).origin;
  const created = await page.request.post('/api/formats', {
    headers: { origin },
    data: { name: 'Invoice', content: invoice.content, placeholders: invoice.placeholders },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await page.goto('/formats');
  await page.getByRole('button', { name: 'API details for Invoice' }).click();
  const dialog = page.getByRole('dialog', { name: 'API details: Invoice' });
  await expect(dialog.getByLabel('Format id', { exact: true })).toHaveValue(id);
  await dialog.getByRole('button', { name: 'Copy format id' }).click();
  await expect(page.getByText('Format id copied').first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);

  await dialog.getByRole('button', { name: 'Copy example data' }).click();
  const example = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as Record<string, unknown>;
  expect(example).toMatchObject({ client_name: 'Jane Doe', payment_terms: '7 days' });
  // As it is, it makes a document (the API's own test posts it with a key).
  const made = await page.request.post('/api/documents', { headers: { origin }, data: { formatId: id, data: example } });
  expect(made.status()).toBe(201);
});
