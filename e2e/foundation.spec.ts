import { existsSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { STARTER_FORMATS } from '../src/contract/starter-formats.ts';
import { linkFromLog } from './own-server.ts';
import { clickOnceHydrated } from './navigation.ts';
import { collectConsoleErrors } from './console-errors.ts';

/** Where playwright.config.ts sends the shared server's log. */
const SERVER_LOG = process.env.E2E_SERVER_LOG ?? '';

async function expectLanding(page: Page) {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Generate professional documents');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
}

test('foundation journey: landing, plan choice, sign-up, every sidebar page, 404, sign-out', async ({ page }) => {
  const consoleErrors = collectConsoleErrors(page);
  const firstName = 'Robin';
  const email = `robin.${Date.now()}@example.com`;

  // 1. A new visitor opens / and sees the landing page.
  await page.goto('/');
  await expectLanding(page);
  for (const name of ['Get Started Free', 'Watch Demo', 'Try Live Demo', 'Learn More']) {
    await expect(
      page
        .getByRole('main')
        .getByRole(name === 'Watch Demo' ? 'button' : 'link', { name })
        .first(),
    ).toBeVisible();
  }
  await expect(page.locator('link[rel="canonical"]')).toHaveCount(1);

  // The walkthrough dialog is keyboard navigable.
  const watchDemo = page.getByRole('button', { name: 'Watch Demo' }).first();
  await clickOnceHydrated(watchDemo);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Step 1 of 4');
  await page.keyboard.press('ArrowRight');
  await expect(dialog).toContainText('Step 2 of 4');
  await dialog.getByRole('button', { name: 'Back' }).click();
  await expect(dialog).toContainText('Step 1 of 4');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Hero buttons scroll to their sections.
  await page.getByRole('main').getByRole('link', { name: 'Try Live Demo' }).click();
  await expect(page.locator('#demo')).toBeInViewport();
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await page.getByRole('main').getByRole('link', { name: 'Learn More' }).click();
  await expect(page.locator('#features')).toBeInViewport();
  await page.getByRole('banner').getByRole('link', { name: 'Documentation' }).click();
  await expect(page.locator('#api')).toBeInViewport();
  await expect(page.locator('#api')).toContainText('POST /api/documents/generate');
  await expect(page.locator('#api')).toContainText('"document_url"');

  // Pricing: the top-bar button scrolls to it; monthly by default, annual prices on the toggle.
  await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click();
  const pricing = page.locator('#pricing');
  await expect(pricing).toBeInViewport();
  await expect(pricing.getByText('25% off')).toBeVisible();
  await expect(pricing.getByTestId('price-basic')).toHaveText('$20');
  await pricing.getByRole('radio', { name: 'Annually' }).click();
  await expect(pricing.getByTestId('price-basic')).toHaveText('$15');
  await expect(pricing.getByTestId('plan-basic')).toContainText('billed annually ($180/year)');
  await pricing.getByRole('radio', { name: 'Monthly' }).click();

  // 2. They pick Basic: the button shows Processing..., the three keys are stored, then sign-in.
  // The page unloads right after the click, so record the button's labels into sessionStorage
  // (which survives the navigation) and read them on the next page.
  await pricing.getByTestId('plan-basic').evaluate((card) => {
    const button = card.querySelector('button');
    if (!button) return;
    new MutationObserver(() => {
      const seen = JSON.parse(sessionStorage.getItem('basicLabels') ?? '[]') as string[];
      seen.push(button.textContent?.trim() ?? '');
      sessionStorage.setItem('basicLabels', JSON.stringify(seen));
    }).observe(button, { childList: true, subtree: true, characterData: true });
  });
  await pricing.getByRole('button', { name: 'Choose Basic' }).click();
  await page.waitForURL('**/login?mode=signup');
  expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('basicLabels') ?? '[]'))).toContain('Processing...');
  const stored = await page.evaluate(() => ({
    plan: localStorage.getItem('selectedPlan'),
    name: localStorage.getItem('selectedPlanName'),
    cycle: localStorage.getItem('selectedBillingCycle'),
  }));
  expect(stored).toEqual({ plan: 'basic_monthly', name: 'Basic', cycle: 'monthly' });

  // 3. They create an account and land on the dashboard, which shows their first name.
  await page.getByRole('tab', { name: 'Create account' }).click();
  const signUp = page.getByRole('form', { name: 'Create account' });
  await signUp.getByRole('button', { name: 'Create account' }).click();
  await expect(signUp.getByText('Enter your first name.')).toBeVisible(); // inline validation
  await signUp.getByLabel('First name').fill(firstName);
  await signUp.getByLabel('Last name').fill('Quill');
  await signUp.getByLabel('Email').fill(email);
  await signUp.getByLabel('Password').fill('short');
  await signUp.getByRole('button', { name: 'Create account' }).click();
  await expect(signUp.getByText('Use at least 10 characters.')).toBeVisible();
  await signUp.getByLabel('Password').fill('a-long-enough-password');
  await signUp.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('greeting-name')).toHaveText(firstName);
  await expect(page.getByTestId('user-indicator')).toContainText(firstName);
  await expect(page.getByTestId('plan-indicator')).toContainText('Free');
  await expect(page.getByTestId('plan-indicator')).toContainText('Active');
  // A first-time user is led to a first PDF: the starter templates, not statistics of nothing.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome to Formwork, ${firstName}`);
  await expect(page.getByRole('list', { name: 'Starter templates' }).getByRole('listitem')).toHaveCount(STARTER_FORMATS.length);
  await expect(page.getByTestId('stat-card')).toHaveCount(0);

  // 4. They visit every page in the sidebar.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
  const pages: Array<[string, RegExp, string]> = [
    ['My Formats', /\/formats$/, 'My Formats'],
    ['Recent Documents', /\/documents$/, 'Recent Documents'],
    ['Settings', /\/settings$/, 'Settings'],
    ['Help & Support', /\/help$/, 'Help & Support'],
    ['Dashboard', /\/$/, `Welcome to Formwork, ${firstName}`],
  ];
  for (const [link, url, heading] of pages) {
    await nav.getByRole('link', { name: link }).click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(nav.getByRole('link', { name: link })).toHaveAttribute('aria-current', 'page');
    if (link === 'Settings') {
      await expect(page.getByRole('main').getByText(email, { exact: true })).toBeVisible();
      await expect(page.getByLabel('First name')).toHaveValue(firstName);
      await expect(page.getByTestId('profile-plan')).toHaveText('Free');
    }
    if (link === 'My Formats') await expect(page.getByText('No formats yet')).toBeVisible();
    if (link === 'Recent Documents') await expect(page.getByText('No documents yet')).toBeVisible();
  }

  // 5. An unknown path shows the 404 page.
  await page.goto('/this/page/does-not-exist');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');

  // 6. They sign out and are back on the landing page.
  await page.getByRole('link', { name: 'Sign Out' }).click();
  await expectLanding(page);
  // The answer to the way to sign-in waits until the toast has been read (see the 401 test below).
  let releaseLogin = (): void => undefined;
  const toastRead = new Promise<void>((resolve) => (releaseLogin = resolve));
  await page.route('**/api/login', async (route) => {
    await toastRead;
    await route.continue();
  });
  await page.goto('/settings');
  await expect(page.getByText('You are logged out. Logging in again...', { exact: true })).toBeVisible();
  releaseLogin();
  await page.waitForURL('**/login');

  expect(consoleErrors, 'browser console errors during the journey').toEqual([]);
});

test('signed-out visit to a signed-in route shows the 401 toast and goes to sign-in', async ({ page }) => {
  const consoleErrors = collectConsoleErrors(page);
  // The app leaves for the login route 500 ms after the toast, sooner than a loaded machine may
  // read it: the page reports every text its notifications region shows, as it shows it.
  const shown: string[] = [];
  await page.exposeBinding('reportNotifications', (_source, text: string) => void shown.push(text));
  await page.addInitScript(() => {
    const report = (window as unknown as { reportNotifications: (text: string) => void }).reportNotifications;
    new MutationObserver(() => {
      const region = [...document.querySelectorAll('[role="region"]')].find((r) => /Notifications/.test(r.getAttribute('aria-label') ?? ''));
      const text = region?.textContent?.trim();
      if (text) report(text);
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto('/formats');
  await page.waitForURL('**/login');
  expect(
    shown.some((text) => /Unauthorized\s*You are logged out\. Logging in again\.\.\./.test(text)),
    JSON.stringify(shown),
  ).toBe(true);
  await expect(page.getByLabel('Email')).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('sign-in errors from the server are shown; /login?error= words its code, and shows no text of its own', async ({ page }) => {
  // The address is anyone's to write, so a text in it is never shown, only the general words.
  await page.goto('/login?error=Your%20account%20is%20locked.%20Call%20%2B1%20555%200100.');
  await expect(page.getByRole('alert').filter({ hasText: 'Sign-in failed. Please try again.' })).toBeVisible();
  await expect(page.getByText('Call +1 555 0100')).toHaveCount(0);
  await page.goto('/login?error=oauth_provider_not_found');
  await expect(page.getByRole('alert').filter({ hasText: 'The sign-in provider is not reachable right now.' })).toBeVisible();
  const signIn = page.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('Email').fill('nobody@example.com');
  await signIn.getByLabel('Password').fill('not-the-password');
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await expect(signIn.getByRole('alert')).toContainText('Invalid email or password.');
});

test('creating an account with a taken email shows the server message', async ({ page, request }) => {
  const email = `taken.${Date.now()}@example.com`;
  const created = await request.post('/api/auth/sign-up', {
    data: { firstName: 'Tak', lastName: 'En', email, password: 'first-password-1' },
  });
  expect(created.ok()).toBe(true);
  await page.goto('/login?mode=signup');
  const signUp = page.getByRole('form', { name: 'Create account' });
  await signUp.getByLabel('First name').fill('Second');
  await signUp.getByLabel('Last name').fill('Try');
  await signUp.getByLabel('Email').fill(email);
  await signUp.getByLabel('Password').fill('second-password-2');
  await signUp.getByRole('button', { name: 'Create account' }).click();
  // The form says it once with the way out, and the field it concerns is marked with the reason.
  await expect(signUp.getByRole('alert').filter({ hasText: 'Sign in instead' })).toContainText('already exists');
  await expect(signUp.getByLabel('Email')).toHaveAccessibleDescription(/already exists/);
  await expect(page).toHaveURL(/\/login/);
  await signUp.getByRole('button', { name: 'Go to Sign in' }).click();
  await expect(page.getByRole('form', { name: 'Sign in' }).getByLabel('Email')).toHaveValue(email);
});

test('landing page at 375 px has no horizontal overflow and a working menu', async ({ page }) => {
  const consoleErrors = collectConsoleErrors(page);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/');
  await expectLanding(page);
  await page.evaluate(() => document.fonts.ready);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // This journey is the app's menu, which closes when a link is chosen and scrolls smoothly, so it
  // waits until React has taken the drawn menu over (it marks each node it hydrates). Before then
  // the menu opens and its links work too: the next journey, with scripts off.
  await clickOnceHydrated(page.getByLabel('Open menu'));
  const menu = page.getByRole('navigation', { name: 'Site menu' });
  await menu.getByRole('link', { name: 'Pricing' }).click();
  await expect(menu).toBeHidden();
  await expect(page.locator('#pricing')).toBeInViewport();
  expect(consoleErrors).toEqual([]);
});

test('landing page at 375 px: the menu opens and its links work before any script runs', async ({ browser }) => {
  // A slow phone shows the page the server drew for a while before the app takes over; without
  // scripts at all, that page is what it shows.
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto('/');
  const menu = page.getByRole('navigation', { name: 'Site menu' });
  await expect(menu).toBeHidden();
  await page.getByLabel('Open menu').click();
  await expect(menu).toBeVisible();
  await menu.getByRole('link', { name: 'Pricing' }).click();
  // A real link: the browser goes to the section itself.
  await expect(page).toHaveURL(/\/#pricing$/);
  await context.close();
});

test('an admin sees the Admin Panel link; a user gets Access Denied there', async ({ page, browser }) => {
  const consoleErrors = collectConsoleErrors(page);
  await page.goto('/login?mode=signup');
  const signUp = page.getByRole('form', { name: 'Create account' });
  await signUp.getByLabel('First name').fill('Ada');
  await signUp.getByLabel('Last name').fill('Admin');
  await signUp.getByLabel('Email').fill('admin@e2e.formwork.test');
  await signUp.getByLabel('Password').fill('admin-password-123');
  await signUp.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('greeting-name')).toHaveText('Ada');
  // Listed in ADMIN_EMAILS, but not an admin until the address is verified. With no mail server,
  // the link is in the server's log.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
  await page.goto(await linkFromLog(() => (existsSync(SERVER_LOG) ? readFileSync(SERVER_LOG, 'utf8') : ''), 'admin@e2e.formwork.test'));
  await page.getByRole('button', { name: 'Verify my email address' }).click();
  await expect(page.getByText('Your email address is verified')).toBeVisible();
  await page.getByRole('link', { name: 'Continue to Formwork' }).click();
  await expect(page.getByTestId('greeting-name')).toHaveText('Ada');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Admin Panel' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Panel');
  expect(consoleErrors).toEqual([]);

  // A second browser context: an ordinary user is refused.
  const other = await browser.newContext();
  const userPage = await other.newPage();
  await userPage.goto('/login?mode=signup');
  const form = userPage.getByRole('form', { name: 'Create account' });
  await form.getByLabel('First name').fill('Uma');
  await form.getByLabel('Last name').fill('User');
  await form.getByLabel('Email').fill(`uma.${Date.now()}@example.com`);
  await form.getByLabel('Password').fill('user-password-123');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(userPage.getByTestId('greeting-name')).toHaveText('Uma');
  await expect(userPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
  await userPage.goto('/admin');
  await expect(userPage.getByText('Access Denied')).toBeVisible();
  await other.close();
});

test('the landing page arrives already drawn, and the app takes it over without a mismatch', async ({ page }) => {
  const html = await (await page.request.get('/')).text();
  expect(html).toMatch(/<h1[^>]*id="hero-title"[^>]*>Generate professional documents/);
  expect(html).not.toContain('__PUBLIC_URL__');
  const elsewhere = await (await page.request.get('/formats')).text();
  expect(elsewhere).toContain('<div id="root"></div>');

  const consoleErrors = collectConsoleErrors(page);
  await page.goto('/');
  // Interactive only once hydrated: the walkthrough opens.
  const watchDemo = page.getByRole('button', { name: 'Watch Demo' }).first();
  await clickOnceHydrated(watchDemo);
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  expect(consoleErrors).toEqual([]);
});

test('before its script runs, the drawn landing page already takes a visitor to the live demo and the pricing', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('main').getByRole('link', { name: 'Try Live Demo' }).click();
  await expect(page).toHaveURL(/\/#demo$/);
  await expect(page.locator('#demo')).toBeInViewport();
  await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click();
  await expect(page.locator('#pricing')).toBeInViewport();
  await context.close();
});
