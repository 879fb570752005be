import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, request, test, type Page } from '@playwright/test';
import { startSmtpStandIn, type TSmtpStandIn } from '../src/server/test/smtp-stand-in.ts';
import { expectAccessible } from './axe.ts';
import { startOwnServer, type TOwnServer } from './own-server.ts';

/**
 * Sign-up on an installation with a mail server: the verification email arrives at a real SMTP
 * server on loopback, its link verifies the address, and the app stops holding the account back.
 * Its own server, because setting up the mail server changes sign-up for every other journey.
 * With SCREENSHOTS_DIR set, the new screens are saved there (docs/screenshots/accounts/).
 */
const ROOT = { firstName: 'Vera', lastName: 'Root', email: 'verify-admin@e2e.formwork.test', password: 'verify-admin-password' };
const RELAY = { user: 'relay-user', password: 'relay-pass' };
const LINK_RE = /\/verify-email\?token=[A-Za-z0-9_-]{43}/;
const SHOTS = process.env.SCREENSHOTS_DIR;
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
] as const;

let server: TOwnServer | undefined;
let smtp: TSmtpStandIn;
let base = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startSmtpStandIn({ accounts: { [RELAY.user]: RELAY.password } });
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'formwork-e2e-verify-ca-')), 'ca.pem');
  writeFileSync(caFile, smtp.ca);
  server = await startOwnServer({ ADMIN_EMAILS: ROOT.email, NODE_EXTRA_CA_CERTS: caFile }, 'verify');
  base = server.base;
  // The first admin proves the address with the link in the log, then sets up the mail server.
  const admin = await request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  expect((await admin.post('/api/auth/sign-up', { data: ROOT })).ok()).toBe(true);
  const link = new URL(await server.verificationLink(ROOT.email), base);
  expect((await admin.post('/api/auth/verify-email', { data: { token: link.searchParams.get('token') } })).ok()).toBe(true);
  const mail = await admin.put('/api/admin/mail-settings', {
    data: { host: smtp.host, port: smtp.port, user: RELAY.user, password: RELAY.password, fromAddress: 'accounts@e2e.formwork.test' },
  });
  expect(mail.ok(), await mail.text()).toBe(true);
  await admin.dispose();
});

test.afterAll(async () => {
  server?.stop();
  await smtp?.close();
});

async function shot(page: Page, name: string, width: number) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
}

/** The newest verification link that reached `to`. */
async function newestLink(to: string, count: number): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const messages = smtp.messages.filter((m) => m.to.includes(to));
    if (messages.length >= count) {
      const text = (await smtp.parse(messages[messages.length - 1]!)).text ?? '';
      const match = LINK_RE.exec(text);
      if (match) return match[0];
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no verification email ${count} to ${to}`);
}

async function fillSignUp(page: Page, person: { firstName: string; lastName: string; email: string; password: string }) {
  await page.goto(`${base}/login?mode=signup`);
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByLabel('First name').fill(person.firstName);
  await form.getByLabel('Last name').fill(person.lastName);
  await form.getByLabel('Email').fill(person.email);
  await form.getByLabel('Password').fill(person.password);
  await form.getByRole('button', { name: 'Create account' }).click();
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: size });

    test(`sign-up, the verification email, a verified account (${size.width} px)`, async ({ page }) => {
      const person = { firstName: 'Nia', lastName: 'New', email: `nia-${size.width}-${Date.now()}@example.com`, password: 'nia-password-123' };
      await fillSignUp(page, person);

      // Signed in at once, building allowed; the banner says what waits for the link, with Resend.
      const banner = page.getByTestId('verify-email-banner');
      await expect(banner).toContainText('Verify your email address');
      await expect(banner).toContainText(person.email);
      await expectAccessible(page, 'dashboard with the verification banner');
      await shot(page, 'verify-banner', size.width);

      // A document made while unverified: its share dialog says why no link can be made yet.
      const headers = { origin: base };
      const format = await page.request.post(`${base}/api/formats`, {
        headers,
        data: {
          name: 'Welcome Letter',
          content: { elements: [{ id: 'p', type: 'paragraph', content: 'Dear {{client_name}}, welcome.' }] },
          placeholders: [{ name: 'client_name', type: 'text', required: true }],
        },
      });
      expect(format.status(), await format.text()).toBe(201);
      const made = await page.request.post(`${base}/api/documents`, {
        headers,
        data: { formatId: ((await format.json()) as { id: string }).id, data: { client_name: 'Jane Doe' } },
      });
      expect(made.status(), await made.text()).toBe(201);
      await page.goto(`${base}/documents`);
      await page
        .getByRole('button', { name: `Share and emails of ${((await made.json()) as { name: string }).name}` })
        .first()
        .click();
      const shareDialog = page.getByRole('dialog', { name: 'Share and emails' });
      await expect(shareDialog.getByTestId('verify-email-notice')).toContainText('Verify your email address to share links');
      await expect(shareDialog.getByRole('button', { name: 'Create and copy link' })).toBeDisabled();
      await expectAccessible(page, 'share dialog of an unverified account');
      await shot(page, 'verify-share-dialog', size.width);
      await page.keyboard.press('Escape');
      await expect(shareDialog).toBeHidden();
      await banner.getByRole('button', { name: 'Resend the link' }).click();
      await expect(page.getByText('Verification email sent', { exact: true })).toBeVisible();

      // The newest link works; the page asks before it verifies (mail scanners open links).
      const link = await newestLink(person.email, 2);
      await page.goto(`${base}${link}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your email address');
      await expect(page).toHaveURL(/\/verify-email$/);
      await expectAccessible(page, 'verify email page');
      await shot(page, 'verify-page', size.width);
      await page.getByRole('button', { name: 'Verify my email address' }).click();
      await expect(page.getByText('Your email address is verified')).toBeVisible();
      await expectAccessible(page, 'verify email page, verified');
      await shot(page, 'verify-done', size.width);
      await page.getByRole('link', { name: 'Continue to Formwork' }).click();
      await expect(page.getByTestId('greeting-name')).toHaveText('Nia');
      await expect(page.getByTestId('verify-email-banner')).toHaveCount(0);

      // The same link again: one answer for used, unknown and expired links.
      await page.goto(`${base}${link}`);
      await page.getByRole('button', { name: 'Verify my email address' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'The link did not work' })).toContainText('not valid any more');
      await expectAccessible(page, 'verify email page, used link');
    });

    test(`a taken address looks like a new one, and its owner is told (${size.width} px)`, async ({ page }) => {
      const before = smtp.messages.filter((m) => m.to.includes(ROOT.email)).length;
      await fillSignUp(page, { firstName: 'Ivy', lastName: 'Intruder', email: ROOT.email, password: 'not-the-owners-password' });
      const status = page.getByRole('status').filter({ hasText: 'Check your email' });
      await expect(status).toContainText(ROOT.email);
      await expectAccessible(page, 'sign-up, check your email');
      await shot(page, 'verify-check-email', size.width);
      if (size.width === 1280) {
        // One notice an hour at most: the first run of this journey gets it.
        await expect.poll(() => smtp.messages.filter((m) => m.to.includes(ROOT.email)).length).toBe(before + 1);
        expect((await smtp.parse(smtp.messages.filter((m) => m.to.includes(ROOT.email)).at(-1)!)).subject).toMatch(/tried to create a Formwork account/);
      }
    });
  });
}
