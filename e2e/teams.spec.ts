import { expect, test, type Browser, type Page } from '@playwright/test';
import { startSmtpStandIn, type TSmtpStandIn } from '../src/server/test/smtp-stand-in.ts';
import { expectAccessible } from './axe.ts';
import { freePort, startOwnServer, type TOwnServer } from './own-server.ts';

/**
 * A team as its people use it: the owner signs up, creates a team from the switcher, starts its
 * offer letter from the template and invites a colleague from Settings → Team; the colleague, in a
 * browser of their own, follows the link the invitation email brings, creates an account from it,
 * joins and makes an offer letter; the owner finds it in the team's Recent Documents. Its own
 * server, for the mail server the invitation goes out through (an SMTP stand-in on loopback).
 */
const ADMIN = { firstName: 'Ada', lastName: 'Admin', email: 'teams-admin@e2e.formwork.test', password: 'teams-admin-password-1' };
const OWNER = { firstName: 'Maya', lastName: 'Patel', email: 'maya.patel@northwind.example', password: 'teams-owner-password-2' };
const COLLEAGUE = { firstName: 'Ravi', lastName: 'Kumar', email: 'ravi.kumar@northwind.example', password: 'teams-member-password-3' };
const TEAM = 'Northwind HR';
/** With E2E_PORT set (a developer's own range), the side servers take the ports just above it. */
const NEAR = Number(process.env.E2E_PORT ?? 0);
const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 800 };

let smtp: TSmtpStandIn;
let server: TOwnServer | undefined;
let base = '';

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  smtp = await startSmtpStandIn({ tls: false, authOptional: true, accounts: {}, port: await freePort(NEAR ? NEAR + 6 : 0) });
  server = await startOwnServer({ ADMIN_EMAILS: ADMIN.email }, 'teams', NEAR ? NEAR + 5 : 0);
  base = server.base;
  // The installation's admin, verified through the log's link (no mail server yet), gives it one.
  const admin = await browser.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  expect((await admin.request.post('/api/auth/sign-up', { data: ADMIN })).ok()).toBe(true);
  const token = new URL(await server.verificationLink(ADMIN.email), base).searchParams.get('token');
  expect((await admin.request.post('/api/auth/verify-email', { data: { token } })).ok()).toBe(true);
  const mail = await admin.request.put('/api/admin/mail-settings', {
    data: { host: '127.0.0.1', port: smtp.port, secure: false, fromAddress: 'notices@e2e.formwork.test', fromName: 'Formwork' },
  });
  expect(mail.ok(), await mail.text()).toBe(true);
  await admin.close();
});

test.afterAll(async () => {
  server?.stop();
  await smtp?.close();
});

/** A person's own browser: no cookie of anyone else's. */
async function personBrowser(browser: Browser) {
  const context = await browser.newContext({ baseURL: base, viewport: DESKTOP });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  return { context, page, errors };
}

/** The invitation link in the newest email to `address`, once it arrives. */
async function invitationLink(address: string): Promise<string> {
  const toThem = () => smtp.messages.filter((m) => m.to.includes(address));
  await expect.poll(() => toThem().length, { message: `an email to ${address}`, timeout: 20_000 }).toBeGreaterThan(0);
  const mail = await smtp.parse(toThem().at(-1)!);
  expect(mail.subject).toContain(TEAM);
  const link = /https?:\/\/\S+\/invite\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
  expect(link, `an invitation link in the email to ${address}`).toBeDefined();
  return link!;
}

/** axe as the screen is now, at desktop width and on a phone; `open` brings back what a resize closes. */
async function accessibleAtBothWidths(page: Page, where: string, open: () => Promise<void> = async () => {}) {
  await expectAccessible(page, `${where} at 1280 px`);
  await page.setViewportSize(PHONE);
  await open();
  await expectAccessible(page, `${where} at 375 px`);
  await page.setViewportSize(DESKTOP);
}

test('a team: the owner invites a colleague by email, who joins from the link and makes a document the owner sees', async ({ browser }) => {
  // 1. The owner signs up and creates a team from the workspace switcher.
  const owner = await personBrowser(browser);
  await owner.page.goto('/login?mode=signup');
  const signUp = owner.page.getByRole('form', { name: 'Create account' });
  await signUp.getByLabel('First name').fill(OWNER.firstName);
  await signUp.getByLabel('Last name').fill(OWNER.lastName);
  await signUp.getByLabel('Email').fill(OWNER.email);
  await signUp.getByLabel('Password').fill(OWNER.password);
  await signUp.getByRole('button', { name: 'Create account' }).click();
  await expect(owner.page.getByTestId('greeting-name')).toHaveText(OWNER.firstName);

  const switcher = owner.page.getByTestId('workspace-switcher');
  const createTeam = owner.page.getByRole('menuitem', { name: /Create team/ });
  const openSwitcher = async () => {
    await switcher.click();
    await expect(createTeam).toBeVisible();
  };
  await openSwitcher();
  await accessibleAtBothWidths(owner.page, 'workspace switcher open', async () => {
    await owner.page.keyboard.press('Escape');
    await expect(createTeam).toBeHidden();
    await openSwitcher();
  });
  await createTeam.click();
  const create = owner.page.getByRole('dialog', { name: 'Create a team' });
  await create.getByLabel('Team name').fill(TEAM);
  await create.getByRole('button', { name: 'Create team' }).click();
  await expect(owner.page).toHaveURL(/[?&]team=[^&]+/);
  const teamId = new URL(owner.page.url()).searchParams.get('team')!;
  await expect(switcher).toContainText(TEAM);

  // The team's offer letter, started from the template.
  await owner.page.getByTestId('starter-offer-letter').click();
  await expect(owner.page).toHaveURL(/\/builder\?/);
  await expect(owner.page.getByTestId('import-notice')).toContainText('Started from the Offer letter template');
  await owner.page.getByRole('button', { name: 'Save Format' }).click();
  await expect(owner.page.getByTestId('save-status')).toHaveText('All changes saved');
  expect(new URL(owner.page.url()).searchParams.get('team')).toBe(teamId);

  // 2. Settings → Team: the colleague is invited as a member.
  // The builder folds the sidebar away: its pages are behind Open navigation.
  await owner.page.getByRole('button', { name: 'Open navigation' }).click();
  await owner.page.getByRole('dialog', { name: 'Navigation' }).getByRole('link', { name: 'Settings' }).click();
  await owner.page.getByRole('tab', { name: 'Team' }).click();
  const invite = owner.page.getByRole('form', { name: 'Invite someone' });
  await invite.getByLabel('Email address').fill(COLLEAGUE.email);
  await invite.getByRole('radio', { name: /^Member/ }).check();
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(owner.page.getByTestId('team-invitation-row').filter({ hasText: COLLEAGUE.email })).toBeVisible();
  await accessibleAtBothWidths(owner.page, 'Settings → Team');
  const link = await invitationLink(COLLEAGUE.email);

  // 3. The colleague, in a browser of their own, opens the link and creates an account from it.
  const colleague = await personBrowser(browser);
  await colleague.page.goto(link);
  await expect(colleague.page.getByRole('heading', { level: 1 })).toHaveText(`${OWNER.firstName} ${OWNER.lastName} invited you to join ${TEAM} as a member`);
  await accessibleAtBothWidths(colleague.page, 'invitation page signed out');
  await colleague.page.getByRole('link', { name: 'Create account' }).click();
  const join = colleague.page.getByRole('form', { name: 'Create account' });
  await join.getByLabel('First name').fill(COLLEAGUE.firstName);
  await join.getByLabel('Last name').fill(COLLEAGUE.lastName);
  await join.getByLabel('Email').fill(COLLEAGUE.email);
  await join.getByLabel('Password').fill(COLLEAGUE.password);
  await join.getByRole('button', { name: 'Create account' }).click();
  // Back on the invitation, now as the person it was sent to.
  await colleague.page.getByRole('button', { name: `Join ${TEAM}` }).click();
  await expect(colleague.page).toHaveURL(new RegExp(`[?&]team=${teamId}`));
  await expect(colleague.page.getByTestId('workspace-switcher')).toContainText(TEAM);

  // The team's offer letter, filled in and generated.
  await colleague.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Formats' }).click();
  await colleague.page.getByTestId('format-card').filter({ hasText: 'Offer letter' }).getByRole('link', { name: 'Fill data' }).click();
  await colleague.page.getByLabel('Company name').fill('Northwind Labs');
  await colleague.page.getByLabel('Candidate name').fill('Jane Doe');
  await colleague.page.getByLabel('Candidate email').fill('jane.doe@example.com');
  await colleague.page.getByLabel('Job title').fill('Product Designer');
  await colleague.page.getByLabel('Employment type').selectOption('Full-time');
  await colleague.page.getByLabel('Start date').fill('2026-03-02');
  await colleague.page.getByLabel('Annual salary').fill('98000');
  await colleague.page.getByLabel('Hiring manager').fill(`${OWNER.firstName} ${OWNER.lastName}`);
  await colleague.page.getByRole('button', { name: 'Generate Document' }).click();
  const success = colleague.page.getByRole('dialog', { name: 'Document generated' });
  await expect(success).toBeVisible();
  const documentName = (await success.locator('.font-medium').first().textContent())!.trim();
  expect(documentName).toMatch(/^Offer letter - /);
  expect(new URL(colleague.page.url()).searchParams.get('team')).toBe(teamId);

  // 4. The owner finds it in the team's Recent Documents.
  await owner.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Recent Documents' }).click();
  const row = owner.page.getByTestId('document-row').filter({ hasText: documentName });
  await expect(row).toBeVisible();
  // The owner sees who made it.
  await expect(row).toContainText(`${COLLEAGUE.firstName} ${COLLEAGUE.lastName}`);

  expect([...owner.errors, ...colleague.errors]).toEqual([]);
  await colleague.context.close();
  await owner.context.close();
});
