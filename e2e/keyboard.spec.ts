import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { STARTER_FORMATS } from '../src/contract/starter-formats.ts';
import { expectAccessible } from './axe.ts';

/*
 * The keyboard and the second look (#28): where focus lands when the builder opens, after Save and
 * after the success dialog closes; Save a few keys from the top; the ? dialog; the invoice form's
 * number cells wide enough for their values; axe on the invoice builder and form.
 */

const invoice = STARTER_FORMATS.find((s) => s.id === 'invoice')!;

async function signUp(request: APIRequestContext, baseURL: string | undefined, who: string) {
  const res = await request.post('/api/auth/sign-up', {
    headers: { origin: baseURL ?? '' },
    data: { firstName: 'Kim', lastName: 'Keys', email: `keys.${who}.${Date.now()}@example.com`, password: 'longenough1' },
  });
  expect(res.ok()).toBeTruthy();
}

async function createInvoice(request: APIRequestContext, baseURL: string | undefined): Promise<string> {
  const res = await request.post('/api/formats', {
    headers: { origin: baseURL ?? '' },
    data: { name: 'Invoice', description: invoice.description, content: invoice.content, placeholders: invoice.placeholders },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const focusedName = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim() ?? '');

test('focus: opening the builder, saving, the success dialog, and Save a few keys from the top', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signUp(page.request, baseURL, 'focus');
  const id = await createInvoice(page.request, baseURL);

  // Opening a format puts focus on its name.
  await page.goto(`/builder/${id}`);
  await expect(page.getByLabel('Format name')).toBeFocused();

  // From the top of the page: the first Tab stop is Skip to editor, the second Skip to Save, and Enter reaches Save.
  const firstStop = await page.evaluate(
    () =>
      [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')].find(
        (el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled,
      )?.textContent,
  );
  expect(firstStop?.trim()).toBe('Skip to editor');
  await page.getByRole('link', { name: 'Skip to editor' }).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to Save' })).toBeFocused();
  await page.keyboard.press('Enter');
  const save = page.getByRole('button', { name: 'Save Format' });
  await expect(save).toBeFocused();
  await expect(save).toHaveAttribute('title', /^Save \((Ctrl|Cmd)\+S\)$/);

  // The skip link to the editor lands on the canvas.
  await page.getByRole('link', { name: 'Skip to editor' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Canvas' })).toBeFocused();

  // ? outside a field lists the shortcuts (before saving: Escape would close a toast above it first).
  await page.keyboard.press('?');
  const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(shortcuts).toBeVisible();
  await expect(shortcuts.getByText('Save the format')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(shortcuts).toBeHidden();
  await expect(page.getByRole('region', { name: 'Canvas' })).toBeFocused();

  // Saving keeps focus on Save.
  await page.getByLabel('Format name').fill('Invoice (keys)');
  await save.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('save-status')).toHaveText('All changes saved');
  await expect(save).toBeFocused();

  // The success dialog focuses Download; closed, focus is back on Generate.
  // The Free plan holds one format: the invoice makes room for a one-field note.
  expect((await page.request.delete(`/api/formats/${id}`, { headers: { origin: baseURL ?? '' } })).ok()).toBe(true);
  const format = await page.request.post('/api/formats', {
    headers: { origin: baseURL ?? '' },
    data: {
      name: 'Note',
      content: { elements: [{ id: 'p', type: 'paragraph', content: 'For {{client_name}}' }] },
      placeholders: [{ name: 'client_name', type: 'text', required: true }],
    },
  });
  expect(format.ok(), await format.text()).toBe(true);
  const noteId = ((await format.json()) as { id: string }).id;
  await page.goto(`/data-entry/${noteId}`);
  await page.getByLabel(/^Client name/).fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Generate Document' }).click();
  const success = page.getByRole('dialog', { name: 'Document generated' });
  await expect(success).toBeVisible();
  await expect(success.getByRole('link', { name: /^Download/ })).toBeFocused();
  expect(await focusedName(page)).toMatch(/^Download/);
  await page.keyboard.press('Escape');
  await expect(success).toBeHidden();
  await expect(page.getByRole('button', { name: 'Generate Document' })).toBeFocused();
});

for (const width of [1024, 1280]) {
  test(`the invoice form's number cells show 12500.75 whole at ${width} px`, async ({ page, baseURL }) => {
    await page.setViewportSize({ width, height: 900 });
    await signUp(page.request, baseURL, `cells${width}`);
    const id = await createInvoice(page.request, baseURL);
    await page.goto(`/data-entry/${id}`);
    const list = page.getByTestId('field-items');
    for (const column of ['Qty', 'Unit price']) {
      const cell = list.getByLabel(`Line items, row 1, ${column}`);
      await cell.fill('12500.75');
      const { scrollWidth, clientWidth } = await cell.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
      expect(scrollWidth, `${column} at ${width}`).toBeLessThanOrEqual(clientWidth);
    }
  });
}

for (const size of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 740 },
] as const) {
  test(`axe: the invoice builder with its list placeholder dialog, and the invoice form (${size.name})`, async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await signUp(page.request, baseURL, `axe${size.name}`);
    const id = await createInvoice(page.request, baseURL);

    await page.goto(`/builder/${id}`);
    await expect(page.getByTestId('canvas-element').first()).toBeVisible();
    await expectAccessible(page, `invoice builder (${size.name})`);
    if (size.name === 'phone') await page.getByRole('tab', { name: 'Elements' }).click();
    await page.getByRole('button', { name: 'Edit placeholder items' }).click();
    await expect(page.getByRole('dialog').getByTestId('columns-editor')).toBeVisible();
    await expectAccessible(page, `invoice builder, list placeholder dialog (${size.name})`);
    await page.keyboard.press('Escape');

    await page.goto(`/data-entry/${id}`);
    const list = page.getByTestId('field-items');
    await list.getByLabel('Line items, row 1, Description').fill('Design work');
    await list.getByLabel('Line items, row 1, Qty').fill('2');
    await list.getByLabel('Line items, row 1, Unit price').fill('12500.75');
    await expectAccessible(page, `invoice form (${size.name})`);
  });
}
