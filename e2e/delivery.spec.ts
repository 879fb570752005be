import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { startSmtpStandIn, type TSmtpStandIn } from '../src/server/test/smtp-stand-in.ts';
import { expectAccessible } from './axe.ts';
import { freePort, startOwnServer, type TOwnServer } from './own-server.ts';
import { collectConsoleErrors } from './console-errors.ts';

/** A revoked link answers 404 on purpose. */
const isRevokedLink = (text: string) => text.includes('status of 404');

/**
 * Delivering a document, as a user does it: an admin sets up the mail server (a real SMTP server
 * on loopback with STARTTLS and AUTH, its self-signed certificate trusted through
 * NODE_EXTRA_CA_CERTS as an operator would), a document is generated and emailed from the success
 * dialog, the message that arrives holds the PDF, and a share link opens in a browser that has
 * never signed in. Its own server: the shared one has no mail server, on purpose.
 */
const ADMIN = { firstName: 'Dana', lastName: 'Delivery', email: 'delivery-admin@e2e.formwork.test', password: 'delivery-password-123' };
const RELAY = { user: 'relay', password: 'relay-pass' };
/** With E2E_PORT set (a developer's own range), the side servers take the ports just above it. */
const NEAR = Number(process.env.E2E_PORT ?? 0);

let smtp: TSmtpStandIn;
let server: TOwnServer | undefined;
let base = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startSmtpStandIn({ accounts: { [RELAY.user]: RELAY.password, 'sales@acme.test': 'right-password' }, port: await freePort(NEAR ? NEAR + 2 : 0) });
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'formwork-e2e-smtp-')), 'smtp-ca.pem');
  writeFileSync(caFile, smtp.ca);
  server = await startOwnServer(
    { ADMIN_EMAILS: ADMIN.email, NODE_EXTRA_CA_CERTS: caFile, IMAGE_FETCH_ALLOWED_IPS: '127.0.0.1' },
    'delivery',
    NEAR ? NEAR + 1 : 0,
  );
  base = server.base;
});

test.afterAll(async () => {
  server?.stop();
  await smtp?.close();
});

const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The admin signed in: made and verified through the log's link when an earlier journey did not (this one runs alone). */
async function adminSession(request: APIRequestContext) {
  if ((await request.post(`${base}/api/auth/sign-in`, { data: { email: ADMIN.email, password: ADMIN.password } })).ok()) return;
  expect((await request.post(`${base}/api/auth/sign-up`, { data: ADMIN })).ok()).toBe(true);
  const link = new URL(await server!.verificationLink(ADMIN.email), base);
  expect((await request.post(`${base}/api/auth/verify-email`, { headers: { origin: base }, data: { token: link.searchParams.get('token') } })).ok()).toBe(true);
}

/** Once the installation has a mail server, a new account verifies its address with the link it is emailed. */
async function signUpThroughMail(request: APIRequestContext, person: { firstName: string; lastName: string; email: string; password: string }) {
  const seen = smtp.messages.length;
  expect((await request.post(`${base}/api/auth/sign-up`, { data: person })).status()).toBe(202);
  let token: string | undefined;
  for (let i = 0; i < 200 && !token; i++) {
    for (const message of smtp.messages.slice(seen).filter((m) => m.to.includes(person.email))) {
      token = /\/verify-email\?token=([A-Za-z0-9_-]{43})/.exec((await smtp.parse(message)).text ?? '')?.[1] ?? token;
    }
    if (!token) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(token, `a verification email to ${person.email}`).toBeDefined();
  expect((await request.post(`${base}/api/auth/verify-email`, { headers: { origin: base }, data: { token } })).ok()).toBe(true);
  expect((await request.post(`${base}/api/auth/sign-in`, { data: { email: person.email, password: person.password } })).ok()).toBe(true);
}

test('email a generated document from the success dialog; the message holds the PDF; a share link opens in a fresh browser', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const consoleErrors = collectConsoleErrors(page, isRevokedLink);
  expect((await page.request.post(`${base}/api/auth/sign-up`, { data: ADMIN })).ok()).toBe(true);
  // ADMIN_EMAILS counts once the address is verified: with no mail server yet, its link is in the log.
  const adminLink = new URL(await server!.verificationLink(ADMIN.email), base);
  expect(
    (await page.request.post(`${base}/api/auth/verify-email`, { headers: { origin: base }, data: { token: adminLink.searchParams.get('token') } })).ok(),
  ).toBe(true);

  // 0. The admin sets up the installation's mail server and checks it with a test email.
  await page.goto(`${base}/admin?tab=settings`);
  const card = page.getByTestId('mail-server-card');
  await expect(card).toContainText('Not set up');
  await card.getByRole('button', { name: 'Set up' }).click();
  await card.getByLabel('SMTP host').fill(smtp.host);
  await card.getByLabel('Port').fill(String(smtp.port));
  await card.getByLabel('User name').fill(RELAY.user);
  await card.getByLabel('Password').fill(RELAY.password);
  await card.getByLabel('From address').fill('documents@e2e.formwork.test');
  await card.getByRole('button', { name: 'Save mail server' }).click();
  await expect(page.getByText('Mail server saved', { exact: true })).toBeVisible();
  await expect(card).toContainText(`${smtp.host}:${smtp.port}`);
  await expect(card.getByTestId('mail-daily-use')).toContainText('Users sent 0 emails through it today (UTC), with no daily limit.');
  await card.getByRole('button', { name: 'Send test email' }).click();
  await expect(card.getByRole('alert')).toContainText('Test email sent');
  await smtp.waitFor(1);
  expect(smtp.messages[0]).toMatchObject({ to: [ADMIN.email], user: RELAY.user, secure: true });

  // 1. Generate a document.
  const format = await page.request.post(`${base}/api/formats`, {
    headers: { origin: base },
    data: {
      name: 'Welcome Letter',
      content: {
        elements: [
          { id: 'h', type: 'heading', content: 'Welcome, {{client_name}}' },
          { id: 'p', type: 'paragraph', content: 'We are glad to have you.' },
        ],
      },
      placeholders: [{ name: 'client_name', label: 'Client name', type: 'text', required: true }],
    },
  });
  expect(format.status()).toBe(201);
  const formatId = ((await format.json()) as { id: string }).id;
  await page.goto(`${base}/data-entry/${formatId}`);
  await page.getByLabel('Client name').fill('Harbor & Pine LLC');
  await page.getByRole('button', { name: 'Generate Document' }).click();
  const success = page.getByRole('dialog', { name: 'Document generated' });
  await expect(success).toBeVisible();
  const documentName = (await success.locator('.font-medium').first().textContent())!.trim();
  expect(documentName).toMatch(/^Welcome Letter - Harbor & Pine LLC - /);

  // 2. Email it from the success dialog. On the Free plan the installation's server sends the
  // standard email: shown as it will go out, locked, with why and the way to words of one's own.
  await success.getByRole('button', { name: /Email/ }).click();
  const emailDialog = page.getByRole('dialog', { name: 'Email the document' });
  const standard = emailDialog.getByTestId('standard-words');
  await expect(standard.getByTestId('standard-subject')).toHaveText(`${documentName} from Dana Delivery`);
  await expect(standard.getByTestId('standard-message')).toContainText(`Dana Delivery sent you ${documentName} with Formwork.`);
  await expect(standard).toContainText('On the Free plan, emails sent through this installation’s mail server use a standard subject and message');
  await expect(standard.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/settings?tab=billing');
  await expect(emailDialog.getByLabel('Subject', { exact: true })).toHaveCount(0);
  await expect(emailDialog.getByLabel('Message', { exact: true })).toHaveCount(0);
  await expect(emailDialog).toContainText(`${documentName}.pdf`);
  const to = emailDialog.getByLabel('To', { exact: true });
  await to.fill('not-an-address');
  await to.press('Enter');
  await emailDialog.getByRole('button', { name: 'Send email' }).click();
  await expect(emailDialog.getByRole('alert')).toContainText('Not a valid email address: not-an-address');
  await emailDialog.getByRole('button', { name: 'Remove not-an-address' }).click();
  await to.fill('jane@harborpine.example');
  await to.press('Enter');
  await expectAccessible(page, 'email dialog');
  await emailDialog.getByRole('button', { name: 'Send email' }).click();
  await expect(emailDialog.getByTestId('delivery-status')).toContainText('Sent to jane@harborpine.example');
  await expect(emailDialog.getByTestId('delivery-status')).toContainText('The mail server answered: 250');

  // 3. The captured message holds the PDF, byte for byte the download.
  await smtp.waitFor(2);
  const message = smtp.messages[1]!;
  expect(message).toMatchObject({ to: ['jane@harborpine.example'], secure: true, user: RELAY.user });
  const parsed = await smtp.parse(message);
  expect(parsed.subject).toBe(`${documentName} from Dana Delivery`);
  expect(parsed.text).toContain(`Dana Delivery sent you ${documentName} with Formwork.`);
  expect(parsed.from).toMatchObject({ name: 'Dana Delivery via Formwork', address: 'documents@e2e.formwork.test' });
  expect(parsed.attachments.map((a) => a.filename)).toEqual([`${documentName}.pdf`]);
  // One document: emailing it made no other (the dialog's form sits inside the generate form's tree).
  const documents = (await (await page.request.get(`${base}/api/documents`)).json()) as { id: string }[];
  expect(documents).toHaveLength(1);
  const download = await page.request.get(`${base}/api/documents/${documents[0]!.id}/download`);
  expect(sha256(new Uint8Array(parsed.attachments[0]!.content as ArrayBuffer))).toBe(sha256(await download.body()));
  await emailDialog.getByRole('button', { name: 'Done' }).click();
  await expect(emailDialog).toBeHidden();
  await success.getByRole('button', { name: 'Close' }).click();
  await expect(success).toBeHidden();

  // The document's actions list the email, and make a share link.
  await page.goto(`${base}/documents`);
  await page
    .getByRole('button', { name: `Share and emails of ${documentName}` })
    .first()
    .click();
  const shareDialog = page.getByRole('dialog', { name: 'Share and emails' });
  await expect(shareDialog.getByTestId('delivery-row')).toContainText('jane@harborpine.example');
  await expect(shareDialog.getByTestId('delivery-row').getByTestId('delivery-status-badge')).toHaveText('Sent');
  await shareDialog.getByRole('button', { name: 'Create and copy link' }).click();
  const linkRow = shareDialog.getByTestId('share-link-row');
  await expect(linkRow).toContainText('Active');
  const url = (await linkRow.locator('code').textContent())!.trim();
  expect(url).toMatch(new RegExp(`^${base}/s/[A-Za-z0-9_-]{43}$`));
  await expectAccessible(page, 'share and emails dialog');

  // 4. The link opens in a fresh browser context: no account, no cookie.
  const stranger = await browser.newContext();
  const visitor = await stranger.newPage();
  const visitorErrors = collectConsoleErrors(visitor, isRevokedLink);
  await visitor.goto(url);
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(documentName);
  await expect(visitor.getByRole('link', { name: 'Download PDF' })).toBeVisible();
  await expect(visitor.getByTestId('pdf-pages').locator('canvas').first()).toBeVisible();
  expect(await stranger.cookies()).toEqual([]);
  const shared = await visitor.request.get(`${url.replace('/s/', '/api/share/')}/pdf?download=1`);
  expect(shared.status()).toBe(200);
  expect(sha256(await shared.body())).toBe(sha256(await download.body()));
  await expectAccessible(visitor, 'share page');
  // Opened again, the owner's list counts the visit.
  await page.bringToFront();
  await shareDialog.getByRole('button', { name: 'Close' }).click();
  await expect(shareDialog).toBeHidden();
  await page
    .getByRole('button', { name: `Share and emails of ${documentName}` })
    .first()
    .click();
  await expect(linkRow).toContainText(/1 view/);

  // Turned off, the link answers 404 and the page says so.
  await linkRow.getByRole('button', { name: 'Turn off' }).click();
  await expect(linkRow).toContainText('Turned off');
  const gone = await visitor.goto(url);
  expect(gone?.status()).toBe(404);
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('This link no longer opens a document');
  expect(visitorErrors).toEqual([]);
  await stranger.close();
  expect(consoleErrors).toEqual([]);
});

test('a wrong password for one’s own mail server is a clear error in Settings → Email', async ({ page }) => {
  // The first journey made the account, unless this one runs on its own.
  await adminSession(page.request);
  const me = (await (await page.request.get(`${base}/api/auth/user`)).json()) as { id: string };
  expect((await page.request.patch(`${base}/api/admin/users/${me.id}`, { headers: { origin: base }, data: { subscriptionPlan: 'enterprise' } })).ok()).toBe(
    true,
  );
  // The installation's server, as the first journey left it (set again when this one runs alone).
  const mail = await page.request.put(`${base}/api/admin/mail-settings`, {
    headers: { origin: base },
    data: { host: smtp.host, port: smtp.port, user: RELAY.user, password: RELAY.password, fromAddress: 'documents@e2e.formwork.test' },
  });
  expect(mail.ok()).toBe(true);

  await page.goto(`${base}/settings?tab=email`);
  await expect(page.getByTestId('sends-with')).toHaveText('Formwork’s server');
  const form = page.getByRole('form', { name: 'Your own mail server' });
  await form.getByLabel('Email address').fill('sales@acme.test');
  await form.getByLabel('Password').fill('wrong-password');
  await form.getByLabel('SMTP host').fill(smtp.host);
  await form.getByLabel('SMTP port').fill(String(smtp.port));
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Email Settings Saved', { exact: true })).toBeVisible();
  await expect(page.getByTestId('sends-with')).toHaveText('Your server');
  await expect(form.getByLabel('Password')).toHaveValue('');
  await expect(form.getByLabel('Password')).toHaveAttribute('placeholder', '•••••••• (saved)');
  await form.getByRole('button', { name: 'Send test email' }).click();
  await expect(page.getByTestId('test-email-result')).toContainText('The test email was not sent');
  await expect(page.getByTestId('test-email-result')).toContainText(
    `The mail server ${smtp.host} refused the user name or password: 535 5.7.8 Authentication credentials invalid`,
  );
  await expectAccessible(page, 'settings email tab');
});

test('mail merge from a finished batch: each document to its own row, bad addresses listed as row errors, a second send adds nothing', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const consoleErrors = collectConsoleErrors(page, isRevokedLink);
  // The installation's mail server, set by the admin (again, when this journey runs alone).
  const adminContext = await browser.newContext();
  await adminSession(adminContext.request);
  const mail = await adminContext.request.put(`${base}/api/admin/mail-settings`, {
    headers: { origin: base },
    data: { host: smtp.host, port: smtp.port, user: RELAY.user, password: RELAY.password, fromAddress: 'documents@e2e.formwork.test' },
  });
  expect(mail.ok(), await mail.text()).toBe(true);

  // A free user, sending through the installation's server.
  const owner = { firstName: 'Maya', lastName: 'Merge', email: 'merge-owner@e2e.formwork.test', password: 'merge-password-123' };
  await signUpThroughMail(page.request, owner);
  const format = await page.request.post(`${base}/api/formats`, {
    headers: { origin: base },
    data: {
      name: 'Offer Letter',
      content: {
        elements: [
          { id: 'h', type: 'heading', content: 'Offer for {{candidate_name}}' },
          { id: 'p', type: 'paragraph', content: 'Role: {{role}}.' },
        ],
      },
      placeholders: [
        { name: 'candidate_name', label: 'Candidate name', type: 'text', required: true },
        { name: 'role', label: 'Role', type: 'text', required: true },
      ],
    },
  });
  expect(format.status()).toBe(201);
  const formatId = ((await format.json()) as { id: string }).id;

  // Six rows: four good addresses, one malformed, one missing. The address column fills no placeholder.
  const rows: [string, string, string][] = [
    ['Ana Silva', 'Analyst', 'ana@hires.example'],
    ['Ben Okafor', 'Designer', 'ben@hires.example'],
    ['Chloé Martin', 'Engineer', 'chloe@hires.example'],
    ['Dev Shah', 'Analyst', 'dev(at)hires.example'],
    ['Eva Novak', 'Writer', ''],
    ['Farid Haddad', 'Engineer', 'farid@hires.example'],
  ];
  const csv = path.join(mkdtempSync(path.join(tmpdir(), 'formwork-e2e-merge-')), 'new-hires.csv');
  writeFileSync(csv, ['Candidate name,Role,Personal email', ...rows.map((r) => r.join(','))].join('\n'));
  await page.goto(`${base}/data-entry/${formatId}`);
  await page.getByRole('tab', { name: 'Bulk Upload' }).click();
  await page.getByLabel('Spreadsheet file').setInputFiles(csv);
  await page.getByTestId('start-batch').click();
  await page.waitForURL(/\/batches\//);
  await page.getByTestId('job-outcome').waitFor({ timeout: 60_000 });
  for (const close of await page.getByRole('button', { name: 'Dismiss notification' }).all()) await close.click().catch(() => undefined);

  const before = smtp.messages.length;
  // On the Free plan the merge would send the standard email: no subject or message to write.
  await page.getByRole('button', { name: 'Email each document' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Send each document to the address in')).toContainText('Personal email');
  await expect(dialog.getByTestId('standard-subject')).toHaveText('document name from Maya Merge');
  await expect(dialog.getByTestId('standard-words')).toContainText('See plans');
  await expect(dialog.getByLabel('Subject', { exact: true })).toHaveCount(0);
  await expectAccessible(page, 'mail merge with the standard email');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // On a paid plan (set by the admin here) the owner writes each row's subject and message.
  const ownerId = ((await (await page.request.get(`${base}/api/auth/user`)).json()) as { id: string }).id;
  expect(
    (await adminContext.request.patch(`${base}/api/admin/users/${ownerId}`, { headers: { origin: base }, data: { subscriptionPlan: 'basic' } })).ok(),
  ).toBe(true);
  await adminContext.close();
  await page.reload();
  await page.getByRole('button', { name: 'Email each document' }).click();
  await expect(dialog.getByLabel('Send each document to the address in')).toContainText('Personal email');
  await dialog.getByLabel('Subject', { exact: true }).fill('Your offer, {{candidate_name}}');
  await dialog.getByLabel('Message', { exact: true }).fill('Hi {{candidate_name}},\n\nYour offer for the {{role}} role is attached.');
  await dialog.getByRole('button', { name: 'Preview the first email' }).click();
  const preview = dialog.getByTestId('merge-preview');
  await expect(preview).toContainText('ana@hires.example');
  await expect(preview).toContainText('Your offer, Ana Silva');
  await expect(preview).toContainText('Your offer for the Analyst role is attached.');
  await expect(dialog).toContainText('4 emails will be sent; 2 rows have no usable address');
  await expectAccessible(page, 'mail merge preview');
  await dialog.getByRole('button', { name: 'Send 4 emails' }).click();
  await expect(dialog).toBeHidden();

  // Four messages arrive, each to its own row's address with its own subject and PDF.
  await smtp.waitFor(before + 4);
  const sent = smtp.messages.slice(before);
  const parsed = await Promise.all(sent.map((m) => smtp.parse(m)));
  const byAddress = new Map(sent.map((m, i) => [m.to[0]!, parsed[i]!]));
  expect([...byAddress.keys()].sort()).toEqual(['ana@hires.example', 'ben@hires.example', 'chloe@hires.example', 'farid@hires.example']);
  expect(byAddress.get('chloe@hires.example')!.subject).toBe('Your offer, Chloé Martin');
  expect(byAddress.get('farid@hires.example')!.text).toContain('Your offer for the Engineer role is attached.');
  for (const message of parsed) {
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0]!.mimeType).toBe('application/pdf');
  }
  // A bulk send says how to ask for no more: a mail to the sender.
  // (Headers unfolded first: a long one may be folded onto a second line.)
  for (const message of sent)
    expect(message.raw.toString().replace(/\r?\n(?=[ \t])/g, '')).toContain(`List-Unsubscribe: <mailto:${owner.email}?subject=unsubscribe>`);

  // The batch page shows the outcome; the two bad rows are row errors, not a failed batch.
  await expect(page.getByTestId('merge-sent')).toHaveText('4', { timeout: 30_000 });
  await expect(page.getByTestId('merge-failed')).toHaveText('2');
  await page.getByRole('button', { name: 'Not sent (2)' }).click();
  const failedRows = page.getByTestId('merge-rows').locator('tbody tr');
  await expect(failedRows).toHaveCount(2);
  await expect(page.getByTestId('merge-rows')).toContainText('dev(at)hires.example');
  await expect(page.getByRole('button', { name: 'Email each document' })).toBeHidden();

  // A second send of the same batch (a double click, a retry) starts nothing new.
  const jobId = page.url().split('/batches/')[1]!.split(/[?#]/)[0]!;
  const again = await page.request.post(`${base}/api/bulk-jobs/${jobId}/mail-merge`, {
    headers: { origin: base },
    data: { addressColumn: 2, subject: 'Your offer, {{candidate_name}}', message: 'Again' },
  });
  expect(again.status(), await again.text()).toBe(200);
  expect(((await again.json()) as { message: string }).message).toBe('Hi {{candidate_name}},\n\nYour offer for the {{role}} role is attached.');
  await page.waitForTimeout(2_000);
  expect(smtp.messages.length).toBe(before + 4);
  expect(consoleErrors).toEqual([]);
});
