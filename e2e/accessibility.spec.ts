import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe.ts';
import { clickOnceHydrated } from './navigation.ts';

/**
 * Every screen, at desktop and phone widths, with its dialogs and the open mobile menu: no serious
 * or critical axe violation. The Admin Panel is checked in admin.spec.ts, which has its own admin.
 */
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 740 },
] as const;

const FORMAT = {
  name: 'Service Agreement',
  description: 'Consulting engagement for new clients',
  content: {
    elements: [
      { id: '1', type: 'heading', content: 'Agreement with {{client_name}}', fontSize: 'text-2xl' },
      { id: '2', type: 'paragraph', content: 'Plan: {{plan}}. Starts on {{start_date}}.' },
      { id: '3', type: 'list', items: ['Kick-off', 'Delivery'] },
      {
        id: '4',
        type: 'table',
        rows: [
          ['Item', 'Price'],
          ['Design', '{{amount}}'],
        ],
        headerRow: true,
      },
    ],
  },
  placeholders: [
    { name: 'client_name', label: 'Client name', type: 'text', required: true },
    { name: 'start_date', type: 'date', required: false },
    { name: 'amount', type: 'number', required: false },
    { name: 'plan', type: 'select', required: true, options: ['Starter', 'Growth', 'Scale'] },
  ],
};

/** The landing page's menu is a disclosure (a `summary`, named by its label); the app's navigation is a side sheet. */
async function openMobileMenu(page: Page) {
  await page.getByLabel(/^Open (menu|navigation)$/).click();
  await expect(page.getByRole('navigation', { name: 'Site menu' }).or(page.getByRole('dialog'))).toBeVisible();
}

for (const size of WIDTHS) {
  test.describe(`at ${size.name} width`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test(`public screens have no serious accessibility violations (${size.name})`, async ({ page }) => {
      // Eight screens and dialogs, each with a full axe pass.
      test.slow();
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectAccessible(page, 'landing');
      const watchDemo = page.getByRole('button', { name: 'Watch Demo' }).first();
      await clickOnceHydrated(watchDemo);
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page, 'landing walkthrough dialog');
      await page.keyboard.press('Escape');
      if (size.name === 'phone') {
        await openMobileMenu(page);
        await expectAccessible(page, 'landing with the mobile menu open');
        await page.keyboard.press('Escape');
      }
      for (const url of ['/about', '/login', '/login?mode=signup', '/payment-success', '/no-such-page']) {
        await page.goto(url);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectAccessible(page, url);
      }
    });

    test(`signed-in screens have no serious accessibility violations (${size.name})`, async ({ page }) => {
      // A dozen screens, each with a full axe pass: over a minute on a loaded two-core machine.
      test.slow();
      const email = `a11y.${size.name}.${Date.now()}@example.com`;
      const signUp = await page.request.post('/api/auth/sign-up', {
        data: { firstName: 'Alex', lastName: 'Access', email, password: 'longenough1' },
      });
      expect(signUp.ok()).toBeTruthy();

      // First run, then every page with something on it.
      await page.goto('/');
      await expect(page.getByTestId('first-run')).toBeVisible();
      await expectAccessible(page, 'first-run dashboard');
      if (size.name === 'phone') {
        await openMobileMenu(page);
        await expectAccessible(page, 'app with the mobile menu open');
        await page.keyboard.press('Escape');
      }
      await page.goto('/formats');
      await expectAccessible(page, 'empty My Formats');
      await page.getByRole('button', { name: 'Start from a template' }).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page, 'starter gallery dialog');
      await page.keyboard.press('Escape');

      // Writes that carry the session cookie show our Origin, as the app's own calls do.
      const origin = new URL(page.url()).origin;
      const created = await page.request.post('/api/formats', { headers: { origin }, data: FORMAT });
      expect(created.status()).toBe(201);
      const format = (await created.json()) as { id: string };
      const document = await page.request.post('/api/documents', {
        headers: { origin },
        data: { formatId: format.id, data: { client_name: 'Harbor & Pine', plan: 'Growth', start_date: '2026-03-09', amount: '1200' } },
      });
      expect(document.status()).toBe(201);

      for (const url of ['/', '/formats', '/documents', '/settings', '/settings?tab=api', '/help']) {
        await page.goto(url);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectAccessible(page, url);
      }
      await page.goto('/formats');
      await page
        .getByRole('button', { name: /^Delete/ })
        .first()
        .click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await expectAccessible(page, 'delete confirmation');
      await page.keyboard.press('Escape');

      // The builder: canvas, an element being edited, the New dialog.
      await page.goto(`/builder/${format.id}`);
      await expect(page.getByTestId('canvas-element')).toHaveCount(4);
      await expectAccessible(page, 'builder');
      await page
        .getByTestId('canvas-element')
        .nth(3)
        .getByRole('button', { name: /press Enter to edit/ })
        .click();
      await expectAccessible(page, 'builder editing a table');
      await page.getByRole('button', { name: 'New', exact: true }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page, 'builder New dialog');
      await page.keyboard.press('Escape');
      if (size.name === 'phone') {
        await page.getByRole('tab', { name: 'Elements' }).click();
        await expectAccessible(page, 'builder tools on a phone');
      }

      // The form, its bulk tab, and the success dialog.
      await page.goto(`/data-entry/${format.id}`);
      await expect(page.getByLabel('Client name')).toBeVisible();
      await expectAccessible(page, 'form');
      await page.getByRole('button', { name: 'Generate Document' }).click();
      await expect(page.getByTestId('form-error')).toBeVisible();
      await expectAccessible(page, 'form with errors');
      await page.getByLabel('Client name').fill('Harbor & Pine');
      await page.getByLabel('Plan').selectOption('Growth');
      await page.getByRole('button', { name: 'Generate Document' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page, 'generated dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: 'Bulk Upload' }).click();
      await expectAccessible(page, 'bulk upload tab');
    });
  });
}

test('with reduced motion asked for, spinners and skeletons stand still instead of flickering', async ({ browser }) => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto('/login');
  // The app's own spinner and skeleton classes, styled by the stylesheet the app ships.
  await page.evaluate(() => {
    document.body.insertAdjacentHTML('beforeend', '<div class="animate-spin size-6 border-2"></div><div class="animate-pulse h-6 w-40 bg-secondary"></div>');
  });
  await expect.poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length)).toBe(0);
  const opacity = () => page.locator('.animate-pulse').evaluate((element) => getComputedStyle(element).opacity);
  const seen = new Set<string>();
  for (let frame = 0; frame < 10; frame++) seen.add(await opacity());
  expect([...seen]).toEqual(['1']);
  await context.close();
});
