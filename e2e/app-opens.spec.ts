import { expect, test, type Page } from '@playwright/test';

/**
 * A signed-in person's `/` opens as the app: the landing page's headline (and its Sign In) never
 * shows, not even for one frame, before the dashboard. A watcher installed before any of the
 * page's own scripts looks at the DOM on every animation frame from the first one on.
 */

const HEADLINE = 'Generate professional documents';

async function signUp(page: Page) {
  await page.goto('/login?mode=signup');
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByLabel('First name').fill('Olive');
  await form.getByLabel('Last name').fill('Opens');
  await form.getByLabel('Email').fill(`olive.${Date.now()}@example.com`);
  await form.getByLabel('Password').fill('app-opens-password-1');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('greeting-name')).toHaveText('Olive');
}

/** Runs in the page before its scripts: records each frame whether the headline or a Sign In is in the DOM. */
function watchFrames(headline: string) {
  const seen = { frames: 0, headline: 0, signIn: 0, dashboard: false };
  (window as unknown as { __appOpens: typeof seen }).__appOpens = seen;
  const look = () => {
    seen.frames += 1;
    const text = document.body?.textContent ?? '';
    if (text.includes(headline)) seen.headline += 1;
    if ([...document.querySelectorAll('a, button')].some((el) => /^\s*sign in\s*$/i.test(el.textContent ?? ''))) seen.signIn += 1;
    if (document.querySelector('[data-testid="greeting-name"]')) seen.dashboard = true;
    if (!seen.dashboard) requestAnimationFrame(look);
  };
  // The first look before any frame: the HTML as the server sent it, once the body exists.
  document.addEventListener('DOMContentLoaded', look, { once: true });
  requestAnimationFrame(look);
}

type TSeen = { frames: number; headline: number; signIn: number; dashboard: boolean };
const seenOn = (page: Page) => page.evaluate(() => (window as unknown as { __appOpens: TSeen }).__appOpens);

test('signed in, / opens as the app: the landing page never shows, frame by frame', async ({ page, browser }) => {
  await signUp(page);
  await page.addInitScript(watchFrames, HEADLINE);

  // Straight to `/`, as a bookmark or a typed address: the server sends the app's frame.
  await page.goto('/');
  await expect(page.getByTestId('greeting-name')).toHaveText('Olive');
  let seen = await seenOn(page);
  expect(seen.dashboard).toBe(true);
  expect(seen.frames).toBeGreaterThan(1);
  expect(seen.headline, 'frames that showed the landing headline').toBe(0);
  expect(seen.signIn, 'frames that showed Sign In').toBe(0);

  // A reload does the same.
  await page.reload();
  await expect(page.getByTestId('greeting-name')).toHaveText('Olive');
  seen = await seenOn(page);
  expect(seen.headline).toBe(0);
  expect(seen.signIn).toBe(0);

  // Signed out, `/` is still the landing page.
  const visitor = await browser.newPage();
  await visitor.goto('/');
  await expect(visitor.getByRole('heading', { level: 1 })).toContainText(HEADLINE);
  await expect(visitor.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
  await visitor.close();
});

test('signed in, /docs/api offers the way back to the app, not Sign In', async ({ page }) => {
  await signUp(page);
  await page.goto('/docs/api');
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: /Dashboard/ })).toBeVisible();
  await expect(page.getByText(/^\s*sign in\s*$/i)).toHaveCount(0);
  await header.getByRole('link', { name: /Dashboard/ }).click();
  await expect(page.getByTestId('greeting-name')).toHaveText('Olive');
});
