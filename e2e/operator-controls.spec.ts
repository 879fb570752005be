import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startSmtpStandIn, type TSmtpStandIn } from '../src/server/test/smtp-stand-in.ts';
import { expectAccessible } from './axe.ts';
import { freePort, startOwnServer, type TOwnServer } from './own-server.ts';
import { collectConsoleErrors, isClientErrorAnswer } from './console-errors.ts';

/**
 * The operator's controls, as an admin uses them: Admin Panel → Settings → Sign-ups set to
 * invitation only, Users → Invite people (the email read from a real SMTP server on loopback),
 * the per-row account menu and a suspension with its confirmation, and the sign-up page in each
 * case. Every screen is checked with axe at 1280 and 375 px. With
 * ACCOUNT_SCREENSHOTS=docs/screenshots/accounts the journey also saves the screenshots the docs show.
 */
const ADMIN = { firstName: 'Olga', lastName: 'Operator', email: 'operator-admin@e2e.formwork.test', password: 'admin-password-123' };
const USER = { firstName: 'Sam', lastName: 'Suspended', email: 'sam@e2e.formwork.test', password: 'first-password-1' };
const INVITEE = 'ines.invited@example.com';
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
  server = await startOwnServer({ ADMIN_EMAILS: ADMIN.email, NODE_EXTRA_CA_CERTS: caFile }, 'operator', NEAR ? NEAR + 5 : 0);
  base = server.base;
  const headers = { origin: base };
  expect((await request.post(`${base}/api/auth/sign-up`, { data: ADMIN, headers })).ok()).toBe(true);
  const adminLink = new URL(await server.verificationLink(ADMIN.email), base);
  const verified = await request.post(`${base}/api/auth/verify-email`, { headers, data: { token: adminLink.searchParams.get('token') } });
  expect(verified.ok(), await verified.text()).toBe(true);
  expect((await request.post(`${base}/api/auth/sign-in`, { data: ADMIN, headers })).ok()).toBe(true);
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

async function shot(page: Page, name: string, fullPage = true) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()?.width}.png`), fullPage });
}

async function signIn(page: Page, who: { email: string; password: string }) {
  const signedIn = await page.request.post(`${base}/api/auth/sign-in`, { data: { email: who.email, password: who.password }, headers: { origin: base } });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
}

async function invitationLink(email: string): Promise<string> {
  const links = async () => {
    const found: string[] = [];
    for (const message of smtp.messages.filter((m) => m.to.includes(email))) {
      const link = /https?:\/\/\S+\/sign-up\?invitation=[A-Za-z0-9_-]+/.exec((await smtp.parse(message)).text ?? '')?.[0];
      if (link) found.push(link);
    }
    return found;
  };
  await expect.poll(async () => (await links()).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  const url = new URL((await links()).at(-1)!);
  return `${base}${url.pathname}${url.search}`;
}

test('sign-ups: invitation only with allowed domains, saved from Settings', async ({ page }) => {
  const consoleErrors = collectConsoleErrors(page, isClientErrorAnswer);
  await signIn(page, ADMIN);
  await page.goto(`${base}/admin?tab=settings`);
  const card = page.getByRole('form', { name: 'Sign-ups' });
  await expect(card).toBeVisible();
  await card.getByLabel('Invitation only').check();
  await card.getByLabel('Allowed email domains').fill('example.com\ne2e.formwork.test');
  await card.getByRole('button', { name: 'Save sign-ups' }).click();
  await expect(page.getByText('Sign-ups saved').first()).toBeVisible();
  await expect(card.getByRole('button', { name: 'Save sign-ups' })).toBeDisabled();
  await expectAccessible(page, 'sign-ups settings at 1280');
  // Drawn again without the toast, tall enough for the whole card.
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.reload();
  await expect(page.getByRole('form', { name: 'Sign-ups' }).getByLabel('Invitation only')).toBeChecked();
  await shot(page, 'sign-ups-settings', false);

  await page.setViewportSize({ width: 375, height: 1500 });
  await page.reload();
  await expect(page.getByRole('form', { name: 'Sign-ups' }).getByLabel('Invitation only')).toBeChecked();
  await expectAccessible(page, 'sign-ups settings at 375');
  await shot(page, 'sign-ups-settings', false);
  expect(consoleErrors).toEqual([]);
});

test('the sign-up page says sign-ups are by invitation, and an invitation opens it', async ({ page, browser }) => {
  const consoleErrors = collectConsoleErrors(page, isClientErrorAnswer);
  await signIn(page, ADMIN);
  await page.goto(`${base}/admin?tab=users`);
  await page.getByRole('button', { name: 'Invite people' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite people' });
  await dialog.getByLabel('Email address').fill(INVITEE);
  await expectAccessible(page, 'invite dialog at 1280');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('list', { name: 'Pending invitations' }).getByText(INVITEE)).toBeVisible();

  for (const width of [1280, 375]) {
    const visitor = await browser.newContext({ viewport: { width, height: 800 } });
    const signUp = await visitor.newPage();
    const visitorErrors = collectConsoleErrors(signUp);
    await signUp.goto(`${base}/sign-up`);
    await expect(signUp.getByRole('status').filter({ hasText: 'Sign-ups are by invitation' })).toBeVisible();
    await expect(signUp.getByRole('button', { name: 'Create account' })).toHaveCount(0);
    await expectAccessible(signUp, `sign-up, invitation only, at ${width}`);
    await shot(signUp, 'sign-up-invitation-only');
    expect(visitorErrors).toEqual([]);
    await visitor.close();
  }

  const link = await invitationLink(INVITEE);
  const invited = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const invitee = await invited.newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole('status').filter({ hasText: 'You were invited' })).toContainText(INVITEE);
  await expect(invitee.getByLabel('Email')).toHaveValue(INVITEE);
  await expectAccessible(invitee, 'sign-up with an invitation at 375');
  await shot(invitee, 'sign-up-invited');
  await invitee.getByLabel('First name').fill('Ines');
  await invitee.getByLabel('Last name').fill('Invited');
  await invitee.getByLabel('Password').fill('an invited passphrase');
  await invitee.getByRole('button', { name: 'Create account' }).click();
  await expect(invitee).toHaveURL(`${base}/`);
  await invited.close();

  // The link works once: opened again, it says so, and offers no form.
  const again = await browser.newContext();
  const reused = await again.newPage();
  await reused.goto(link);
  await expect(reused.getByText('This invitation cannot be used')).toBeVisible();
  await expect(reused.getByRole('button', { name: 'Create account' })).toHaveCount(0);
  await expectAccessible(reused, 'sign-up with a used invitation at 1280');
  await again.close();

  await page.reload();
  await expect(page.getByRole('list', { name: 'Pending invitations' })).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test('users: the account menu, and a suspension confirmed first', async ({ page }) => {
  const consoleErrors = collectConsoleErrors(page, isClientErrorAnswer);
  await signIn(page, ADMIN);
  await page.goto(`${base}/admin?tab=users`);
  const table = page.getByRole('table', { name: 'Users' });
  // The whole table fits at 1280 px: nobody scrolls sideways to reach a user's name or actions.
  const overflow = await table.evaluate((el) => el.parentElement!.scrollWidth - el.parentElement!.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const row = table.getByTestId('admin-user-row').filter({ hasText: USER.email });
  await row.getByRole('button', { name: `More actions for ${USER.email}` }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Suspend account' })).toBeVisible();
  await expectAccessible(page, 'users with the account menu at 1280');
  await shot(page, 'users-actions', false);
  await expect(menu.getByRole('menuitem', { name: 'Mark address verified' })).toBeVisible();
  await menu.getByRole('menuitem', { name: 'Suspend account' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Suspend ${USER.email}?` });
  await expectAccessible(page, 'suspend confirmation at 1280');
  await confirm.getByRole('button', { name: 'Suspend' }).click();
  await expect(row.getByText('Suspended', { exact: true })).toBeVisible();

  // The suspended account cannot sign in, and says why.
  const refused = await page.request.post(`${base}/api/auth/sign-in`, { data: { email: USER.email, password: USER.password }, headers: { origin: base } });
  expect(refused.status()).toBe(403);

  await page.setViewportSize({ width: 375, height: 900 });
  await page.reload();
  const card = page.getByTestId('admin-user-card').filter({ hasText: USER.email });
  await expect(card.getByText('Suspended', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: `More actions for ${USER.email}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Restore account' })).toBeVisible();
  await expectAccessible(page, 'users with the account menu at 375');
  await shot(page, 'users-actions', false);
  await page.getByRole('menuitem', { name: 'Restore account' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Restore' }).click();
  await expect(card.getByText('Suspended', { exact: true })).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
