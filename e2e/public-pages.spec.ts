import { expect, test } from '@playwright/test';
import { expectAccessible } from './axe.ts';
import { clickOnceHydrated } from './navigation.ts';
import { startOwnServer, type TOwnServer } from './own-server.ts';
import { collectConsoleErrors } from './console-errors.ts';

/**
 * The installation speaks in its own words: a new one claims no customers, numbers or people and
 * writes to no outside address; what an admin writes under Settings → Public pages is on the
 * landing page before any script runs, and the page hydrates without a mismatch. Its own server,
 * as the content it saves would show on every other journey's landing page.
 */
const ADMIN = { firstName: 'Wendy', lastName: 'Words', email: 'words-admin@e2e.formwork.test', password: 'admin-password-123' };
let server: TOwnServer | undefined;
let base = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer({ ADMIN_EMAILS: ADMIN.email }, 'words');
  base = server.base;
});

test.afterAll(() => {
  server?.stop();
});

const INVENTED = ['500+', '95%', '10,000+', 'Margaret Ellison', 'Amara Nwosu', 'formwork.app', 'Unlimited everything', 'Custom integrations'];

test('a new installation claims nothing and writes to no outside address', async ({ page, request }) => {
  const landing = await (await request.get(`${base}/`)).text();
  for (const claim of INVENTED) expect(landing, claim).not.toContain(claim);
  expect(landing).not.toContain('mailto:');

  const errors = collectConsoleErrors(page);
  await page.goto(`${base}/`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Generate professional documents');
  await expect(page.getByRole('heading', { name: 'What people say' })).toHaveCount(0);
  await expect(page.getByTestId('public-figures')).toHaveCount(0);
  await expect(page.locator('footer a[href^="mailto:"]')).toHaveCount(0);
  await expect(page.getByTestId('plan-enterprise').getByRole('link', { name: 'Contact Sales' })).toHaveCount(0);

  await page.goto(`${base}/about`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const claim of INVENTED) await expect(page.getByText(claim)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'The team' })).toHaveCount(0);
  await expect(page.locator('a[href^="mailto:"]')).toHaveCount(0);

  // Signed in, Help says there is no address instead of writing to someone else's.
  const signUp = await page.request.post(`${base}/api/auth/sign-up`, {
    data: { firstName: 'Una', lastName: 'User', email: `una.${Date.now()}@example.com`, password: 'user-password-123' },
  });
  expect(signUp.ok()).toBe(true);
  await page.goto(`${base}/help`);
  await expect(page.getByTestId('no-support-address')).toBeVisible();
  await expect(page.locator('main a[href^="mailto:"]')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('an admin writes the public pages; the landing page arrives with them drawn and hydrates without a mismatch', async ({ browser, request }) => {
  for (const width of [1280, 375]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const signIn = await page.request.post(`${base}/api/auth/sign-in`, { data: { email: ADMIN.email, password: ADMIN.password } });
    if (!signIn.ok()) {
      expect((await page.request.post(`${base}/api/auth/sign-up`, { data: ADMIN })).ok()).toBe(true);
      // ADMIN_EMAILS counts once the address is verified: with no mail server, its link is in the log.
      const link = new URL(await server!.verificationLink(ADMIN.email), base);
      const verified = await page.request.post(`${base}/api/auth/verify-email`, { headers: { origin: base }, data: { token: link.searchParams.get('token') } });
      expect(verified.ok(), await verified.text()).toBe(true);
    }
    await page.goto(`${base}/admin?tab=settings`);
    const card = page.getByRole('form', { name: 'Public pages' });
    await expect(card.getByText('None: the pages show no figures section.')).toBeVisible();
    await expectAccessible(page, `public pages settings, empty, ${width}px`);
    await context.close();
  }

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  expect((await page.request.post(`${base}/api/auth/sign-in`, { data: { email: ADMIN.email, password: ADMIN.password } })).ok()).toBe(true);
  await page.goto(`${base}/admin?tab=settings`);
  const form = page.getByRole('form', { name: 'Public pages' });

  await form.getByRole('button', { name: 'Add figure' }).click();
  await form.getByLabel('Figure', { exact: true }).fill('14');
  await form.getByLabel('What it counts').fill('teams on board');
  await form.getByRole('button', { name: 'Add figure' }).click();
  // A figure without its label is refused in the form, at the field.
  await form.getByRole('button', { name: 'Save public pages' }).click();
  await expect(form.getByText('Enter the figure, such as 1,200.')).toBeVisible();
  await form.locator('#public-figures-1-value').fill('1,204');
  await form.locator('#public-figures-1-label').fill('documents last month');
  await form.getByRole('button', { name: 'Move figure 2 up' }).click();
  await expect(form.locator('#public-figures-0-value')).toHaveValue('1,204');

  await form.getByRole('button', { name: 'Add testimonial' }).click();
  await form.getByLabel('Quote').fill('Our offer letters go out the same day.');
  await form.locator('#public-testimonials-0-name').fill('Ingrid Solberg');
  await form.locator('#public-testimonials-0-company').fill('Acme Tools');
  await form.getByRole('button', { name: 'Add person' }).click();
  await form.locator('#public-team-0-name').fill('Jonas Berg');
  await form.locator('#public-team-0-role').fill('Operations');
  await form.getByRole('button', { name: 'Add person' }).click();
  await form.locator('#public-team-1-name').fill('To be removed');
  await form.getByRole('button', { name: 'Remove person 2' }).click();
  await expectAccessible(page, 'public pages settings, filled, 1280px');
  await form.getByRole('button', { name: 'Save public pages' }).click();
  await expect(page.getByText('Public pages saved').first()).toBeVisible();
  for (const [key, value] of [
    ['support.email', 'help@words.example'],
    ['sales.email', 'deals@words.example'],
  ]) {
    expect((await page.request.post(`${base}/api/admin/settings`, { data: { key, value }, headers: { origin: base } })).ok()).toBe(true);
  }

  // Drawn by the server before any script runs, in the order saved, for a visitor (the signed-in admin gets the app at /).
  const html = await (await request.get(`${base}/`)).text();
  const root = html.slice(html.indexOf('<div id="root">'));
  expect(root).toContain('Our offer letters go out the same day.');
  expect(root.indexOf('1,204')).toBeLessThan(root.indexOf('teams on board'));
  expect(root).toContain('mailto:help@words.example');

  // Signed out, the browser hydrates that page: the same content, nothing redrawn, no mismatch.
  const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const visitorPage = await visitor.newPage();
  const visitorErrors = collectConsoleErrors(visitorPage);
  await visitorPage.goto(`${base}/`);
  await expect(visitorPage.getByTestId('public-figures')).toContainText('1,204');
  // Interactive only once hydrated: the walkthrough opens; a mismatch would have been reported by then.
  const watchDemo = visitorPage.getByRole('button', { name: 'Watch Demo' }).first();
  await clickOnceHydrated(watchDemo);
  await expect(visitorPage.getByRole('dialog')).toBeVisible();
  await visitorPage.keyboard.press('Escape');
  await expect(visitorPage.getByRole('heading', { name: 'What people say' })).toBeVisible();
  await expect(visitorPage.getByText('Ingrid Solberg')).toBeVisible();
  await expect(visitorPage.locator('footer').getByRole('link', { name: 'help@words.example' })).toHaveAttribute('href', /^mailto:help@words\.example/);
  await expect(visitorPage.getByTestId('plan-enterprise').getByRole('link', { name: 'Contact Sales' })).toHaveAttribute('href', /^mailto:deals@words\.example/);
  await visitorPage.goto(`${base}/about`);
  await expect(visitorPage.getByRole('heading', { name: 'The team' })).toBeVisible();
  await expect(visitorPage.getByText('Jonas Berg')).toBeVisible();
  await expect(visitorPage.getByText('To be removed')).toHaveCount(0);
  await expectAccessible(visitorPage, 'About page with content');
  expect(visitorErrors).toEqual([]);
  await visitor.close();

  // Emptied again, the sections go.
  await page.reload();
  for (const name of ['Remove figure 2', 'Remove figure 1', 'Remove testimonial 1', 'Remove person 1']) {
    await page.getByRole('form', { name: 'Public pages' }).getByRole('button', { name }).click();
  }
  await page.getByRole('button', { name: 'Save public pages' }).click();
  await expect(page.getByText('Public pages saved').first()).toBeVisible();
  const emptied = await (await page.request.get(`${base}/`)).text();
  expect(emptied).not.toContain('Ingrid Solberg');
  expect(errors).toEqual([]);
  await context.close();
});
