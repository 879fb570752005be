import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';

/**
 * Writes that carry the session cookie must show where they come from (our Origin, or
 * `Sec-Fetch-Site: same-origin`). Chromium's own requests are the proof that the app's forms and
 * calls do: a sign-out link on another site opens the confirmation page, whose form signs out,
 * and a form on another site that posts to us is refused.
 */

let other: http.Server;
let otherBase = '';

test.beforeAll(async ({ baseURL }) => {
  // Another site: 127.0.0.2 is not the app's localhost, so Chromium calls its requests cross-site.
  other = http.createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><title>Elsewhere</title>
      <a href="${baseURL}/api/logout">Sign out of Formwork</a>
      <form method="post" action="${baseURL}/api/formats" enctype="text/plain"><button type="submit">Post to Formwork</button></form>`);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
  otherBase = `http://127.0.0.2:${(other.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => other.close(resolve));
});

async function signUp(page: import('@playwright/test').Page) {
  await page.goto('/login?mode=signup');
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByLabel('First name').fill('Sam');
  await form.getByLabel('Last name').fill('Signout');
  await form.getByLabel('Email').fill(`sam.${Date.now()}@example.com`);
  await form.getByLabel('Password').fill('sign-out-password-1');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('greeting-name')).toHaveText('Sam');
}

test('a sign-out link on another site asks first, and the page’s own button signs out', async ({ page }) => {
  await signUp(page);
  await page.goto(otherBase);
  await page.getByRole('link', { name: 'Sign out of Formwork' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign out of Formwork?');
  expect((await page.request.get('/api/auth/user')).status()).toBe(200);
  // Chromium posts this form with `Origin: null` (the page's no-referrer policy hides it) and
  // `Sec-Fetch-Site: same-origin`.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
});

test('a form on another site cannot write with the session cookie', async ({ page }) => {
  await signUp(page);
  await page.goto(otherBase);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/formats')),
    page.getByRole('button', { name: 'Post to Formwork' }).click(),
  ]);
  expect(response.status()).toBe(403);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe('csrf_rejected');
});
