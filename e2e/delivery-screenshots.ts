/**
 * Screenshots of delivering documents at 1280 px and 375 px, for looking at by eye: Settings →
 * Email, the email dialog (the Free plan's standard email, composing, sent), a document's share
 * links and email log, the share page (open, turned off), the admin's Outgoing mail card and
 * settings, mail merge (the standard email, dialog, preview, progress) and the builder's
 * document-name field. Not a test. Run against a running server whose
 * ADMIN_EMAILS holds shots-admin-1280@… and shots-admin-375@… (ADMIN_EMAIL without the width),
 * with IMAGE_FETCH_ALLOWED_IPS=127.0.0.1, and SERVER_LOG naming its log file (the admins'
 * verification links are there):
 *   BASE_URL=http://localhost:5251 ADMIN_EMAIL=shots-admin@e2e.formwork.test SMTP_PORT=5252 \
 *     npx tsx e2e/delivery-screenshots.ts [outDir=docs/screenshots/delivery]
 * It starts an SMTP stand-in on SMTP_PORT (no TLS: the screenshots need no certificate), and
 * reports console errors and horizontal overflow.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startSmtpStandIn } from '../src/server/test/smtp-stand-in.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { linkFromLogFile } from './own-server.ts';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:5251';
const ADMIN_EMAIL = process.env.ADMIN_EMAIL ?? 'shots-admin@e2e.formwork.test';
const SMTP_PORT = Number(process.env.SMTP_PORT ?? 5252);
const OUT = process.argv[2] ?? 'docs/screenshots/delivery';
const problems: string[] = [];
const work = mkdtempSync(path.join(tmpdir(), 'formwork-delivery-shots-'));

const FORMAT = {
  name: 'Offer Letter',
  description: 'Sent to every new hire',
  content: {
    documentNamePattern: 'Offer Letter – {{candidate_name}}',
    elements: [
      { id: '1', type: 'heading', content: 'Offer of employment', fontSize: 'text-2xl' },
      { id: '2', type: 'paragraph', content: 'Dear {{candidate_name}},\n\nWe are delighted to offer you the role of {{role}}, starting on {{start_date}}.' },
      { id: '3', type: 'paragraph', content: 'Please sign and return this letter within a week. We look forward to working with you.' },
    ],
  },
  placeholders: [
    { name: 'candidate_name', label: 'Candidate name', type: 'text', required: true },
    { name: 'role', label: 'Role', type: 'text', required: true },
    { name: 'start_date', label: 'Start date', type: 'date', required: false },
  ],
};

function watch(page: Page, label: string) {
  page.on('console', (msg) => {
    // The turned-off link answers 404 on purpose.
    if (msg.type() === 'error' && !msg.text().includes('404')) problems.push(`[${label}] console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`[${label}] page error: ${err.message}`));
}

async function shot(page: Page, name: string, width: number, opts: { fullPage?: boolean } = {}) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(400);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) problems.push(`[${name}@${width}] horizontal overflow of ${overflow}px`);
  const file = path.join(OUT, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: opts.fullPage ?? true });
  console.log(`wrote ${file}`);
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const smtp = await startSmtpStandIn({ tls: false, port: SMTP_PORT, accounts: { 'maya@acme-hr.example': 'app-password' }, authOptional: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: width > 600 ? 800 : 740 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      watch(page, `w${width}`);
      const api = {
        post: (url: string, data: unknown) => page.request.post(`${BASE_URL}${url}`, { headers: { origin: BASE_URL }, data }),
        put: (url: string, data: unknown) => page.request.put(`${BASE_URL}${url}`, { headers: { origin: BASE_URL }, data }),
        patch: (url: string, data: unknown) => page.request.patch(`${BASE_URL}${url}`, { headers: { origin: BASE_URL }, data }),
      };

      const email = ADMIN_EMAIL.replace('@', `-${width}@`);
      const signedUp = await api.post('/api/auth/sign-up', { firstName: 'Maya', lastName: 'Patel', email, password: 'correct horse battery' });
      if (!signedUp.ok()) await api.post('/api/auth/sign-in', { email, password: 'correct horse battery' });
      if (signedUp.ok()) {
        const link = new URL(await linkFromLogFile(email), BASE_URL);
        await api.post('/api/auth/verify-email', { token: link.searchParams.get('token') });
      }
      const me = (await (await page.request.get(`${BASE_URL}/api/auth/user`)).json()) as { id: string };

      // The admin's Outgoing mail card, set, with a daily limit on users' mail through it.
      await api.put('/api/admin/mail-settings', {
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        fromAddress: 'documents@acme-hr.example',
        fromName: 'Acme HR',
      });
      const limit = await api.post('/api/admin/settings', { key: 'mail.daily_limit', value: '500' });
      if (!limit.ok() && limit.status() !== 409)
        throw new Error(`could not set the daily limit: ${limit.status()} ${await limit.text()} (is ${email} in ADMIN_EMAILS?)`);
      await page.goto(`${BASE_URL}/admin?tab=settings`);
      await page.getByTestId('mail-server-card').waitFor();
      await page.getByTestId('setting-row').first().waitFor();
      await page.getByTestId('mail-server-card').getByRole('button', { name: 'Send test email' }).click();
      await page.getByTestId('mail-server-card').getByRole('alert').waitFor();
      await shot(page, 'admin-outgoing-mail', width, { fullPage: false });
      await shot(page, 'admin-settings', width);
      await page.getByTestId('mail-server-card').getByRole('button', { name: 'Edit' }).click();
      await shot(page, 'admin-outgoing-mail-edit', width);

      // Documents to deliver.
      const format = (await (await api.post('/api/formats', FORMAT)).json()) as { id: string };
      const people = [
        ['Jane Doe', 'Product Designer'],
        ['Ravi Kumar', 'Data Engineer'],
        ['Lena Fischer', 'Account Manager'],
      ];
      const docs: { id: string; name: string }[] = [];
      for (const [name, role] of people) {
        docs.push(
          (await (await api.post('/api/documents', { formatId: format.id, data: { candidate_name: name, role, start_date: '2026-12-01' } })).json()) as {
            id: string;
            name: string;
          },
        );
      }
      const [jane, ravi, lena] = docs as [{ id: string; name: string }, { id: string; name: string }, { id: string; name: string }];

      // On the Free plan the installation's server sends the standard email: the dialogs show it, locked.
      await page.goto(`${BASE_URL}/documents`);
      await page.getByRole('button', { name: `Email ${jane.name}` }).click();
      const standard = page.getByRole('dialog', { name: 'Email the document' });
      await standard.getByLabel('To', { exact: true }).fill('jane.doe@example.com');
      await standard.getByLabel('To', { exact: true }).press('Enter');
      await standard.getByTestId('standard-words').waitFor();
      await shot(page, 'email-dialog-standard', width, { fullPage: false });
      await standard.getByRole('button', { name: 'Cancel' }).click();

      // Mail merge from a finished batch; the address column fills no placeholder.
      const lines = ['Candidate Name,Role,Start date,Personal email'];
      const names = [
        'Ana Silva',
        'Ben Okafor',
        'Chloé Martin',
        'Dev Shah',
        'Eva Novak',
        'Farid Haddad',
        'Grace Liu',
        'Hugo Berg',
        'Ines Costa',
        'Jon Park',
        'Kira Sato',
        'Liam Walsh',
      ];
      names.forEach((n, i) =>
        lines.push(
          `${n},Analyst,2026-12-0${(i % 9) + 1},${
            i === 4
              ? 'eva.novak(at)example.com'
              : i === 9
                ? ''
                : `${n
                    .split(' ')[0]!
                    .normalize('NFD')
                    .replace(/[^a-zA-Z]/g, '')
                    .toLowerCase()}@example.com`
          }`,
        ),
      );
      const csv = path.join(work, `new-hires-${width}.csv`);
      writeFileSync(csv, lines.join('\n'));
      await page.goto(`${BASE_URL}/data-entry/${format.id}`);
      await page.getByRole('tab', { name: 'Bulk Upload' }).click();
      await page.getByLabel('Spreadsheet file').setInputFiles(csv);
      await page.getByTestId('start-batch').click();
      await page.waitForURL(/\/batches\//);
      await page.getByTestId('job-outcome').waitFor({ timeout: 60_000 });
      // The "Batch started" toast would sit over the dialog.
      for (const close of await page.getByRole('button', { name: 'Dismiss notification' }).all()) await close.click().catch(() => undefined);
      const batchUrl = page.url();
      await page.getByRole('button', { name: 'Email each document' }).click();
      await page.getByRole('dialog').getByTestId('standard-words').waitFor();
      await shot(page, 'mail-merge-standard', width, { fullPage: false });
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

      // On Enterprise: words of one's own, and one's own mail server.
      const lifted = await api.patch(`/api/admin/users/${me.id}`, { subscriptionPlan: 'enterprise' });
      if (!lifted.ok()) throw new Error(`could not set the plan: ${lifted.status()} (is ${email} in ADMIN_EMAILS?)`);

      // The email dialog from Recent Documents: composing, then sent.
      await page.goto(`${BASE_URL}/documents`);
      await page.getByRole('button', { name: `Email ${jane.name}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Email the document' });
      const to = dialog.getByLabel('To', { exact: true });
      await to.fill('jane.doe@example.com');
      await to.press('Enter');
      await to.fill('hiring@acme-hr.example');
      await to.press('Enter');
      await dialog.getByRole('button', { name: 'Add Cc' }).click();
      await dialog.getByLabel('Cc').fill('manager@acme-hr.example');
      await dialog.getByLabel('Cc').press('Enter');
      await dialog.getByLabel('Message').fill('Hi Jane,\n\nYour offer letter is attached. Please sign and send it back by Friday.\n\nBest,\nMaya');
      await shot(page, 'email-dialog', width, { fullPage: false });
      await dialog.getByRole('button', { name: 'Send email' }).click();
      await dialog.getByText('The mail server answered').waitFor();
      await shot(page, 'email-dialog-sent', width, { fullPage: false });
      await dialog.getByRole('button', { name: 'Done' }).click();

      // A delivery log with a sent, a failed and a retrying email, and share links.
      smtp.answerNext(1, 550, '5.1.1 <jane@old-employer.example>: Recipient address rejected: User unknown');
      await api.post(`/api/documents/${jane.id}/email`, { to: ['jane@old-employer.example'] });
      await page.waitForTimeout(1500);
      smtp.answerNext(1, 451, '4.7.1 Greylisted, please try again in 5 minutes');
      await api.post(`/api/documents/${jane.id}/email`, { to: ['jane.personal@example.com'] });
      await page.waitForTimeout(1500);
      const revoked = (await (await api.post(`/api/documents/${jane.id}/share`, { expiresInDays: 30 })).json()) as { id: string };
      await page.request.delete(`${BASE_URL}/api/share-links/${revoked.id}`, { headers: { origin: BASE_URL } });
      const link = (await (await api.post(`/api/documents/${jane.id}/share`, { expiresInDays: 7 })).json()) as { url: string };
      await page.request.get(link.url.replace('/s/', '/api/share/'));
      await page.goto(`${BASE_URL}/documents`);
      await page.getByRole('button', { name: `Share and emails of ${jane.name}` }).click();
      await page.getByRole('dialog', { name: 'Share and emails' }).getByTestId('delivery-row').nth(2).waitFor();
      await shot(page, 'delivery-log', width, { fullPage: false });
      await page.keyboard.press('Escape');
      await shot(page, 'documents-actions', width);

      // The share page, as a visitor without an account sees it, and once turned off.
      const visitorContext = await browser.newContext({ viewport: { width, height: width > 600 ? 800 : 740 }, deviceScaleFactor: 1 });
      const visitor = await visitorContext.newPage();
      watch(visitor, `visitor${width}`);
      await visitor.goto(link.url);
      await visitor.getByTestId('pdf-pages').locator('canvas').first().waitFor();
      await shot(visitor, 'share-page', width, { fullPage: false });
      const gone = (await (await api.post(`/api/documents/${ravi.id}/share`, { expiresInDays: 1 })).json()) as { id: string; url: string };
      await page.request.delete(`${BASE_URL}/api/share-links/${gone.id}`, { headers: { origin: BASE_URL } });
      await visitor.goto(gone.url);
      await visitor.getByText('This link no longer opens a document').waitFor();
      await shot(visitor, 'share-page-gone', width);
      await visitorContext.close();

      // Settings → Email: the own server saved, and recent emails.
      // The host must resolve (and be allowed) to be saved: the stand-in on loopback.
      const ownServer = await api.put('/api/user/email-settings', {
        enterpriseEmail: 'maya@acme-hr.example',
        enterpriseEmailPassword: 'app-password',
        smtpHost: '127.0.0.1',
        smtpPort: smtp.port,
        smtpSecure: false,
      });
      if (!ownServer.ok()) throw new Error(`own server: ${ownServer.status()} ${await ownServer.text()}`);
      await page.goto(`${BASE_URL}/settings?tab=email`);
      await page.getByText('Recent emails').waitFor();
      await page.getByTestId('delivery-row').first().waitFor();
      await shot(page, 'settings-email', width);
      await page.goto(`${BASE_URL}/settings?tab=email`);
      await page.getByRole('button', { name: 'Send test email' }).click();
      await page.getByTestId('test-email-result').waitFor();
      await page.getByTestId('test-email-result').scrollIntoViewIfNeeded();
      await shot(page, 'settings-email-test', width, { fullPage: false });

      await page.goto(batchUrl);
      await page.getByRole('button', { name: 'Email each document' }).click();
      // Its title (and so its name) changes with the step.
      const merge = page.getByRole('dialog');
      await merge.getByLabel('Subject', { exact: true }).fill('Your offer from Acme, {{candidate_name}}');
      await merge
        .getByLabel('Message', { exact: true })
        .fill('Hi {{candidate_name}},\n\nWelcome aboard! Your offer letter for the {{role}} role is attached.\n\nMaya');
      await shot(page, 'mail-merge-dialog', width, { fullPage: false });
      await merge.getByRole('button', { name: 'Preview the first email' }).click();
      await merge.getByTestId('merge-preview').waitFor();
      await shot(page, 'mail-merge-preview', width, { fullPage: false });
      await merge.getByRole('button', { name: /^Send \d+ emails$/ }).click();
      await page.getByTestId('merge-rows').waitFor();
      await page.waitForTimeout(2500);
      await page.reload();
      await page.getByTestId('merge-rows').waitFor();
      await shot(page, 'mail-merge-progress', width);

      // The builder's document-name field.
      await page.goto(`${BASE_URL}/builder/${format.id}`);
      // Below 1024 px the builder's sidebar is a view of its own.
      if (width < 1024) await page.getByRole('tab', { name: 'Elements' }).click();
      const nameField = page.getByLabel('Document name', { exact: true });
      await nameField.waitFor();
      await nameField.scrollIntoViewIfNeeded();
      await shot(page, 'builder-document-name', width, { fullPage: false });
      void lena;
      await context.close();
    }
  } finally {
    await browser.close();
    await smtp.close();
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
}

await main();
