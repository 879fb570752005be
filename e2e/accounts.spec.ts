import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startSmtpStandIn, type TSmtpStandIn } from '../src/server/test/smtp-stand-in.ts';
import { expectAccessible } from './axe.ts';
import { freePort, startOwnServer, type TOwnServer } from './own-server.ts';
import { collectConsoleErrors, isClientErrorAnswer } from './console-errors.ts';

/**
 * Getting back into an account, as a person does it: "Forgot password?" on the sign-in page, the
 * link from the email (read from a real SMTP server on loopback that the installation's admin set
 * up), a new password (a common one refused with its reason first), and signing in with it. Then
 * Settings → Profile. Every new screen is checked with axe at 1280 and 375 px. With
 * ACCOUNT_SCREENSHOTS=docs/screenshots/accounts the journey also saves the screenshots the docs show.
 */
const ADMIN = { firstName: 'Ada', lastName: 'Admin', email: 'accounts-admin@e2e.formwork.test', password: 'admin-password-123' };
const USER = { firstName: 'Rita', lastName: 'Reset', email: 'rita@e2e.formwork.test', password: 'first-password-1' };
const NEW_PASSWORD = 'a new and long passphrase';
const RELAY = { user: 'relay', password: 'relay-pass' };
const NEAR = Number(process.env.E2E_PORT ?? 0);
const SHOTS = process.env.ACCOUNT_SCREENSHOTS;

let smtp: TSmtpStandIn;
let server: TOwnServer | undefined;
let base = '';

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  smtp = await startSmtpStandIn({ accounts: { [RELAY.user]: RELAY.password }, port: await freePort(NEAR ? NEAR + 4 : 0) });
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'formwork-e2e-smtp-')), 'smtp-ca.pem');
  writeFileSync(caFile, smtp.ca);
  server = await startOwnServer({ ADMIN_EMAILS: ADMIN.email, NODE_EXTRA_CA_CERTS: caFile }, 'accounts', NEAR ? NEAR + 3 : 0);
  base = server.base;
  const headers = { origin: base };
  expect((await request.post(`${base}/api/auth/sign-up`, { data: ADMIN, headers })).ok()).toBe(true);
  // ADMIN_EMAILS counts once the address is verified: with no mail server yet, its link is in the log.
  const adminLink = new URL(await server.verificationLink(ADMIN.email), base);
  const verified = await request.post(`${base}/api/auth/verify-email`, { headers, data: { token: adminLink.searchParams.get('token') } });
  expect(verified.ok(), await verified.text()).toBe(true);
  const mail = await request.put(`${base}/api/admin/mail-settings`, {
    headers,
    data: { host: smtp.host, port: smtp.port, user: RELAY.user, password: RELAY.password, fromAddress: 'accounts@e2e.formwork.test' },
  });
  expect(mail.ok(), await mail.text()).toBe(true);
  expect((await request.post(`${base}/api/auth/sign-up`, { data: USER, headers })).ok()).toBe(true);
});

test.afterAll(async () => {
  server?.stop();
  await smtp?.close();
});

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()?.width}.png`), fullPage: true });
}

/** The link of the `count`-th reset email `email` has received (its verification email aside). */
async function resetLinkFor(email: string, count: number): Promise<string> {
  const resetLinks = async () => {
    const links: string[] = [];
    for (const message of smtp.messages.filter((m) => m.to.includes(email))) {
      const link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec((await smtp.parse(message)).text ?? '')?.[0];
      if (link) links.push(link);
    }
    return links;
  };
  await expect.poll(async () => (await resetLinks()).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  const url = new URL((await resetLinks())[count - 1]!);
  return `${base}${url.pathname}${url.search}`;
}

test('forgot password → email → new password → sign in', async ({ page }) => {
  test.setTimeout(120_000);
  const consoleErrors = collectConsoleErrors(page, isClientErrorAnswer);

  await page.goto(`${base}/login`);
  await expectAccessible(page, 'sign-in with Forgot password? at 1280');
  await shot(page, 'sign-in-forgot-password');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Forgot your password?');
  await expectAccessible(page, 'forgot password at 1280');

  await page.getByLabel('Email').fill(USER.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('Check your email');
  await expectAccessible(page, 'forgot password sent at 1280');

  const link = await resetLinkFor(USER.email, 1);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a new password');
  // The token leaves the address bar once read.
  await expect(page).toHaveURL(/\/reset-password$/);
  await expectAccessible(page, 'reset password at 1280');

  const newPassword = page.getByLabel('New password');
  await newPassword.fill('short');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Use at least 10 characters.')).toBeVisible();
  await newPassword.fill('sunshine2024');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('This is a common password with characters added at the end.').first()).toBeVisible();
  await expectAccessible(page, 'reset password refused at 1280');

  await newPassword.fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password has been changed');
  await page.getByRole('link', { name: 'Sign in with your new password' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(USER.email);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);

  // The link worked once.
  await page.goto(link);
  await page.getByLabel('New password').fill('another long passphrase');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert').first()).toContainText('not valid any more');
  expect(consoleErrors).toEqual([]);
});

test('Settings → Profile: name, email, password and sessions, accessible at 1280 and 375 px', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const consoleErrors = collectConsoleErrors(page, isClientErrorAnswer);
  const email = 'profile@e2e.formwork.test';
  const headers = { origin: base };
  expect((await page.request.post(`${base}/api/auth/sign-up`, { data: { ...USER, email }, headers })).ok()).toBe(true);
  // With a mail server, sign-up signs nobody in (docs/decisions.md); the web app signs in next, as here.
  expect((await page.request.post(`${base}/api/auth/sign-in`, { data: { email, password: USER.password }, headers })).ok()).toBe(true);
  // A second session, on another device.
  const other = await browser.newContext();
  expect((await other.request.post(`${base}/api/auth/sign-in`, { data: { email, password: USER.password }, headers })).ok()).toBe(true);

  await page.goto(`${base}/settings?tab=profile`);
  await expect(page.getByTestId('account-session')).toHaveCount(2);
  await expect(page.getByText('This device')).toBeVisible();
  await expectAccessible(page, 'settings profile at 1280');
  await shot(page, 'settings-profile');

  await page.getByLabel('First name').fill('Margarita');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Name saved').first()).toBeVisible();

  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('This is not your current password.')).toBeVisible();
  await page.getByLabel('Current password').fill(USER.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed').first()).toBeVisible();
  await expect(page.getByTestId('account-session')).toHaveCount(1);
  expect((await other.request.get(`${base}/api/user/stats`)).status()).toBe(401);

  await page.getByLabel('New email address').fill('profile-new@e2e.formwork.test');
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Check profile-new@e2e.formwork.test' })).toBeVisible();
  await expectAccessible(page, 'settings profile after changes at 1280');

  await expect.poll(() => smtp.messages.filter((m) => m.to.includes('profile-new@e2e.formwork.test')).length, { timeout: 15_000 }).toBe(1);
  const confirmation = await smtp.parse(smtp.messages.find((m) => m.to.includes('profile-new@e2e.formwork.test'))!);
  const confirmLink = new URL(/https?:\/\/\S+\/confirm-email\?token=\S+/.exec(confirmation.text ?? '')![0]);
  await page.goto(`${base}${confirmLink.pathname}${confirmLink.search}`);
  await expectAccessible(page, 'confirm email at 1280');
  await page.getByRole('button', { name: 'Confirm new email address' }).click();
  await expect(page.getByRole('status')).toContainText('Your email address is now profile-new@e2e.formwork.test');

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${base}/settings?tab=profile`);
  await expect(page.getByTestId('account-session')).toHaveCount(1);
  await expectAccessible(page, 'settings profile at 375');
  await shot(page, 'settings-profile');
  await page.goto(`${base}/confirm-email?token=x.y.z`);
  await expectAccessible(page, 'confirm email at 375');
  await other.close();
  expect(consoleErrors).toEqual([]);
});

test('the sign-in, forgot and reset screens at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${base}/login`);
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toBeVisible();
  await expectAccessible(page, 'sign-in at 375');
  await shot(page, 'sign-in-forgot-password');
  await page.goto(`${base}/forgot-password`);
  await expectAccessible(page, 'forgot password at 375');
  await page.goto(`${base}/reset-password?token=not-a-real-token`);
  await expect(page.getByLabel('New password')).toBeVisible();
  await expectAccessible(page, 'reset password at 375');
  await page.goto(`${base}/reset-password`);
  await expect(page.getByText('This page needs the link from the password reset email.')).toBeVisible();
  await expectAccessible(page, 'reset password without a link at 375');
});
