import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import { expect, request as apiRequest, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { startSmtpStandIn, type TSmtpStandIn } from '../src/server/test/smtp-stand-in.ts';
import { expectAccessible } from './axe.ts';
import { freePort, startOwnServer, type TOwnServer } from './own-server.ts';
import { collectConsoleErrors, isClientErrorAnswer } from './console-errors.ts';

/**
 * Two-factor sign-in as a person meets it: turning it on in Settings → Profile (a QR code, the key
 * to type in, a code from the app, ten recovery codes), then a forgotten password (the link from a
 * real SMTP server on loopback), a new password, and a sign-in that still asks for the code. The
 * code an authenticator app would show is computed here from the key the page shows. Every new
 * screen is checked with axe at 1280 and 375 px. With ACCOUNT_SCREENSHOTS=docs/screenshots/accounts
 * the journey saves the screenshots the docs show.
 */
const ADMIN = { firstName: 'Ada', lastName: 'Admin', email: 'tfa-admin@e2e.formwork.test', password: 'admin-password-123' };
const USER = { firstName: 'Tomas', lastName: 'Totp', email: 'tomas@e2e.formwork.test', password: 'first-password-1' };
const NEW_PASSWORD = 'a new and long passphrase';
const RELAY = { user: 'relay', password: 'relay-pass' };
const NEAR = Number(process.env.E2E_PORT ?? 0);
const SHOTS = process.env.ACCOUNT_SCREENSHOTS;

let smtp: TSmtpStandIn;
let server: TOwnServer | undefined;
let base = '';

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  smtp = await startSmtpStandIn({ accounts: { [RELAY.user]: RELAY.password }, port: await freePort(NEAR ? NEAR + 6 : 0) });
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'formwork-e2e-smtp-')), 'smtp-ca.pem');
  writeFileSync(caFile, smtp.ca);
  server = await startOwnServer({ ADMIN_EMAILS: ADMIN.email, NODE_EXTRA_CA_CERTS: caFile }, 'two-factor', NEAR ? NEAR + 5 : 0);
  base = server.base;
  const headers = { origin: base };
  expect((await request.post(`${base}/api/auth/sign-up`, { data: ADMIN, headers })).ok()).toBe(true);
  const adminLink = new URL(await server.verificationLink(ADMIN.email), base);
  const verified = await request.post(`${base}/api/auth/verify-email`, { headers, data: { token: adminLink.searchParams.get('token') } });
  expect(verified.ok(), await verified.text()).toBe(true);
  const mail = await request.put(`${base}/api/admin/mail-settings`, {
    headers,
    data: { host: smtp.host, port: smtp.port, user: RELAY.user, password: RELAY.password, fromAddress: 'accounts@e2e.formwork.test' },
  });
  expect(mail.ok(), await mail.text()).toBe(true);
});

test.afterAll(async () => {
  server?.stop();
  await smtp?.close();
});

async function shot(page: Page, name: string, of?: Locator) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  const size = page.viewportSize()!;
  const file = path.join(SHOTS, `${name}-${size.width}.png`);
  if (!of) return page.screenshot({ path: file, fullPage: true });
  // Tall enough for the whole card, and centred, so the sticky header covers none of it.
  await page.setViewportSize({ width: size.width, height: 1600 });
  await of.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await of.screenshot({ path: file });
  await page.setViewportSize(size);
}

/** The code an authenticator app shows now for the key the page showed ("ABCD EFGH …"). */
function codeFor(key: string): Promise<string> {
  const secret = new TextDecoder().decode(base32.decode(key.replace(/\s+/g, '')));
  return createOTP(secret).totp();
}

async function newAccount(request: APIRequestContext, account: { email: string; password: string; firstName: string; lastName: string }) {
  const response = await request.post(`${base}/api/auth/sign-up`, { data: account, headers: { origin: base } });
  expect(response.ok(), await response.text()).toBe(true);
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Settings → Profile → Two-factor sign-in, up to the QR code; answers the key the page shows. */
async function startSetup(page: Page, password: string): Promise<string> {
  await page.goto(`${base}/settings?tab=profile`);
  const card = page.locator('#two-factor');
  await card.getByRole('button', { name: 'Turn on two-factor' }).click();
  await card.getByLabel('Your password').fill(password);
  await card.getByRole('button', { name: 'Continue' }).click();
  await expect(card.getByRole('img', { name: /QR code/ })).toBeVisible();
  return (await card.getByTestId('two-factor-secret').textContent()) ?? '';
}

async function finishSetup(page: Page, key: string): Promise<string[]> {
  const card = page.locator('#two-factor');
  await card.getByLabel(/Enter the 6-digit code/).fill(await codeFor(key));
  await card.getByRole('button', { name: 'Turn on two-factor' }).click();
  await expect(card.getByTestId('recovery-codes')).toBeVisible();
  return card.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
}

/** The reset link in the newest reset email `email` has received. */
async function resetLinkFor(email: string): Promise<string> {
  const links = async () => {
    const found: string[] = [];
    for (const message of smtp.messages.filter((m) => m.to.includes(email))) {
      const link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec((await smtp.parse(message)).text ?? '')?.[0];
      if (link) found.push(link);
    }
    return found;
  };
  await expect.poll(async () => (await links()).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  const url = new URL((await links()).at(-1)!);
  return `${base}${url.pathname}${url.search}`;
}

test('two-factor on, then forgot password → email → new password → sign in with a code', async ({ page }) => {
  test.setTimeout(150_000);
  const consoleErrors = collectConsoleErrors(page, isClientErrorAnswer);
  await newAccount(page.request, USER);
  await signInWithPassword(page, USER.email, USER.password);
  await expect(page).not.toHaveURL(/\/login/);

  const key = await startSetup(page, USER.password);
  const card = page.locator('#two-factor');
  await expectAccessible(page, 'two-factor setup at 1280');
  await shot(page, 'two-factor-setup', card);
  await card.getByLabel(/Enter the 6-digit code/).fill('000000');
  await card.getByRole('button', { name: 'Turn on two-factor' }).click();
  await expect(card.getByText('That code is not right.').first()).toBeVisible();
  const recoveryCodes = await finishSetup(page, key);
  expect(recoveryCodes).toHaveLength(10);
  await expectAccessible(page, 'recovery codes at 1280');
  await shot(page, 'two-factor-recovery-codes', card);
  await card.getByRole('button', { name: 'I have saved them' }).click();
  await expect(card.getByText('On', { exact: true })).toBeVisible();

  // Signed out, the password forgotten.
  await page.context().clearCookies();
  await page.goto(`${base}/login`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByLabel('Email').fill(USER.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('Check your email');
  await page.goto(await resetLinkFor(USER.email));
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password has been changed');
  await page.getByRole('link', { name: 'Sign in with your new password' }).click();

  // A new password is not a way around the second factor.
  await page.getByLabel('Email').fill(USER.email);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const step = page.getByTestId('two-factor-step');
  await expect(step.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  expect((await page.request.get(`${base}/api/auth/user`)).status()).toBe(401);
  await expectAccessible(page, 'sign-in code step at 1280');
  await shot(page, 'sign-in-two-factor');

  await step.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await expect(step.getByRole('textbox', { name: 'Recovery code' })).toBeVisible();
  await expectAccessible(page, 'sign-in recovery code step at 1280');
  await step.getByRole('button', { name: 'Use your authenticator app instead' }).click();

  await step.getByLabel('Authentication code').fill('123 45');
  await step.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(step.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
  await step.getByLabel('Authentication code').fill(await codeFor(key));
  await step.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  expect((await page.request.get(`${base}/api/auth/user`)).status()).toBe(200);
  expect(consoleErrors).toEqual([]);
});

test('setup and the code step at 375 px, signing in with a recovery code', async ({ page }) => {
  test.setTimeout(120_000);
  const consoleErrors = collectConsoleErrors(page, isClientErrorAnswer);
  await page.setViewportSize({ width: 375, height: 800 });
  const account = { ...USER, email: 'tomas-phone@e2e.formwork.test' };
  await newAccount(page.request, account);
  await signInWithPassword(page, account.email, account.password);
  await expect(page).not.toHaveURL(/\/login/);

  const key = await startSetup(page, account.password);
  await expectAccessible(page, 'two-factor setup at 375');
  await shot(page, 'two-factor-setup', page.locator('#two-factor'));
  const recoveryCodes = await finishSetup(page, key);
  await expectAccessible(page, 'recovery codes at 375');
  await shot(page, 'two-factor-recovery-codes', page.locator('#two-factor'));

  await page.context().clearCookies();
  await signInWithPassword(page, account.email, account.password);
  const step = page.getByTestId('two-factor-step');
  await expect(step.getByLabel('Authentication code')).toBeVisible();
  await expectAccessible(page, 'sign-in code step at 375');
  await shot(page, 'sign-in-two-factor');
  await step.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await expectAccessible(page, 'sign-in recovery code step at 375');
  await step.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[0]!);
  await step.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/);

  // The same recovery code does not work twice.
  await page.context().clearCookies();
  await signInWithPassword(page, account.email, account.password);
  await step.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await step.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[0]!);
  await step.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(step.getByText('That recovery code is not right, or it has been used already.').first()).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('when admins must use two-factor, an admin without it is sent to set it up first', async ({ page }) => {
  test.setTimeout(120_000);
  const consoleErrors = collectConsoleErrors(page, isClientErrorAnswer);
  const headers = { origin: base };
  // The first admin turns it on for themselves, then for every admin.
  const admin = await apiRequest.newContext();
  try {
    expect((await admin.post(`${base}/api/auth/sign-in`, { headers, data: { email: ADMIN.email, password: ADMIN.password } })).ok()).toBe(true);
    const setup = (await (await admin.post(`${base}/api/user/two-factor/enable`, { headers, data: { password: ADMIN.password } })).json()) as {
      secret: string;
    };
    expect((await admin.post(`${base}/api/user/two-factor/verify`, { headers, data: { code: await codeFor(setup.secret) } })).ok()).toBe(true);
    const on = await admin.post(`${base}/api/admin/settings`, { headers, data: { key: 'security.admin_two_factor', value: 'true' } });
    expect(on.ok(), await on.text()).toBe(true);
    const second = { ...USER, firstName: 'Sam', email: 'second-admin@e2e.formwork.test' };
    await newAccount(admin, second);
    const listed = (await (await admin.get(`${base}/api/admin/users`)).json()) as { id: string; email: string }[];
    const id = listed.find((u) => u.email === second.email)!.id;
    expect((await admin.patch(`${base}/api/admin/users/${id}/role`, { headers, data: { role: 'admin' } })).ok()).toBe(true);

    await signInWithPassword(page, second.email, second.password);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto(`${base}/admin`);
    await expect(page).toHaveURL(/\/settings\?tab=profile&notice=admin-two-factor/);
    await expect(page.getByText('Administrators need two-factor sign-in here')).toBeVisible();
    await expectAccessible(page, 'admin two-factor notice at 1280');
    await shot(page, 'admin-two-factor-notice', page.locator('#two-factor'));

    const key = await startSetup(page, second.password);
    await finishSetup(page, key);
    await page.locator('#two-factor').getByRole('link', { name: 'Open the Admin Panel' }).click();
    await expect(page.getByRole('heading', { name: 'Admin Panel' })).toBeVisible();
    await page.getByRole('tab', { name: 'Settings' }).click();
    const requirement = page.getByRole('switch', { name: 'Require two-factor sign-in for admins' });
    await expect(requirement).toBeChecked();
    await expectAccessible(page, 'admin settings with the two-factor switch at 1280');
    await shot(page, 'admin-two-factor-setting', page.locator('[data-slot=card]').filter({ has: requirement }));

    // Admin Panel → Users: the first admin lost their phone; the second resets their two-factor.
    await page.getByRole('tab', { name: 'Users' }).click();
    await page
      .getByRole('button', { name: `More actions for ${ADMIN.email}` })
      .filter({ visible: true })
      .click();
    await page.getByRole('menuitem', { name: 'Reset two-factor' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('will sign in with the password alone');
    await expectAccessible(page, 'reset two-factor dialog at 1280');
    await shot(page, 'admin-reset-two-factor');
    await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
    await expect(page.getByText('Two-factor sign-in reset').first()).toBeVisible();
    await page
      .getByRole('button', { name: `More actions for ${ADMIN.email}` })
      .filter({ visible: true })
      .click();
    await expect(page.getByRole('menuitem', { name: 'Sign out everywhere' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Reset two-factor' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    const audit = (await (await page.request.get(`${base}/api/admin/audit`)).json()) as { entries: { action: string; details: { email?: string } }[] };
    expect(audit.entries.some((e) => e.action === 'user.two_factor_reset' && e.details.email === ADMIN.email)).toBe(true);

    await page.setViewportSize({ width: 375, height: 800 });
    await expectAccessible(page, 'admin users with reset two-factor at 375');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expectAccessible(page, 'admin settings with the two-factor switch at 375');
    await shot(page, 'admin-two-factor-setting', page.locator('[data-slot=card]').filter({ has: requirement }));
  } finally {
    await admin.dispose();
  }
  expect(consoleErrors).toEqual([]);
});
