import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './axe.ts';

/*
 * Numbers by what they mean (issue #28, part 1): the builder's Display select on a number and in
 * a list's columns (with axe on the list dialog), and the form's currency symbol and percent sign
 * in de-DE. With SCREENSHOTS_DIR=docs/screenshots/second-look the journey also saves the num-*.png
 * screenshots the docs show, at 1280 and 375 px.
 */

const OUT = process.env.SCREENSHOTS_DIR;

/** The docs' screenshot of `target`, when asked for; a test run leaves the repository as it was. */
async function shot(target: Page | Locator, name: string, fullPage = false) {
  if (OUT) await target.screenshot({ path: `${OUT}/${name}`, ...(fullPage ? { fullPage } : {}) });
}

async function signUp(page: Page, baseURL: string | undefined, width: number) {
  const response = await page.request.post('/api/auth/sign-up', {
    headers: { origin: baseURL ?? '' },
    data: { firstName: 'Nora', lastName: 'Numbers', email: `num.${width}.${Date.now()}@example.com`, password: 'longenough1' },
  });
  expect(response.ok()).toBeTruthy();
}

for (const width of [1280, 375]) {
  test(`number displays in the builder and on the form at ${width} px`, async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 812 });
    await signUp(page, baseURL, width);

    // The form of a format in euros: € after the amount, % after the rate.
    const created = await page.request.post('/api/formats', {
      headers: { origin: baseURL ?? '' },
      data: {
        name: 'Rechnung',
        description: null,
        content: {
          locale: 'de-DE',
          currency: 'EUR',
          elements: [{ id: 'p', type: 'paragraph', content: '{{fee}} {{tax_rate}} {{hours}} {{total}} {{items}}' }],
        },
        placeholders: [
          { name: 'fee', label: 'Honorar', type: 'number', display: 'currency', required: true },
          { name: 'tax_rate', label: 'Steuersatz', type: 'number', display: 'percent' },
          { name: 'hours', label: 'Stunden', type: 'number' },
          { name: 'total', label: 'Gesamt', type: 'formula', expression: 'fee * (1 + tax_rate / 100)', display: 'currency' },
          {
            name: 'items',
            label: 'Posten',
            type: 'list',
            columns: [
              { name: 'description', label: 'Beschreibung', type: 'text' },
              { name: 'price', label: 'Preis', type: 'number', display: 'currency' },
            ],
          },
        ],
      },
    });
    expect(created.ok()).toBeTruthy();
    const format = (await created.json()) as { id: string };
    await page.goto(`/data-entry/${format.id}`);
    await page.getByLabel('Honorar').fill('1234.5');
    await page.getByLabel('Steuersatz').fill('19');
    await expect(page.getByTestId('field-fee').getByTestId('number-adornment')).toHaveText('€');
    await expect(page.getByTestId('field-tax_rate').getByTestId('number-adornment')).toHaveText('%');
    await expect(page.getByTestId('field-total').getByTestId('computed-value')).toHaveValue('1.469,06\u00a0€');
    await expectAccessible(page, `form with number displays at ${width}`);
    await shot(page, `num-form-de-${width}.png`, true);

    // The builder: a number named like money starts as Currency; the list dialog's columns too.
    await page.goto('/builder');
    if (width === 375) await page.getByRole('tab', { name: 'Elements' }).click();
    const panel = page.getByTestId('placeholder-panel');
    await panel.getByLabel('Name', { exact: true }).fill('unit price');
    await panel.getByLabel('Type', { exact: true }).selectOption('number');
    await expect(panel.getByLabel('Display')).toHaveValue('currency');
    await panel.getByLabel('Display').selectOption('decimal');
    await panel.getByLabel(/Decimal places/).fill('3');
    await shot(panel, `num-builder-panel-${width}.png`);
    await panel.getByRole('button', { name: 'Add placeholder' }).click();

    await panel.getByLabel('Name', { exact: true }).fill('items');
    await panel.getByLabel('Type', { exact: true }).selectOption('list');
    await panel.getByRole('button', { name: 'Add placeholder' }).click();
    await panel.getByRole('button', { name: 'Edit placeholder items' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('Column 3 display')).toHaveValue('currency');
    await expect(dialog.getByLabel('Column 4 display')).toHaveValue('currency');
    await expectAccessible(page, `list placeholder dialog at ${width}`);
    await shot(page, `num-list-dialog-${width}.png`);
  });
}
