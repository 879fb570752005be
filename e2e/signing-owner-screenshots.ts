/**
 * Temporary: screenshots of the send-for-signature dialog and the request panel at 1280 and 375 px.
 *   BASE_URL=http://localhost:5093 SERVER_LOG=/tmp/sig-owner-server.log SMTP_PORT=5094 npx tsx e2e/signing-owner-screenshots.ts /tmp/sig-shots
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Page } from 'playwright-core';
import { startSmtpStandIn } from '../src/server/test/smtp-stand-in.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { linkFromLogFile } from './own-server.ts';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:5093';
const SMTP_PORT = Number(process.env.SMTP_PORT ?? 5094);
const OUT = process.argv[2] ?? '/tmp/sig-shots';
const problems: string[] = [];

const signing = [1, 2].flatMap((n) => [
  { name: `signature_${n}`, type: 'signature', signer: n },
  { name: `name_${n}`, type: 'signer_name', signer: n },
]);
const FORMAT = {
  name: 'Tenancy Agreement',
  content: {
    elements: [
      { id: 'h', type: 'heading', content: 'Tenancy agreement', fontSize: 'text-2xl' },
      { id: 'p', type: 'paragraph', content: 'This agreement is made with {{tenant}} for the flat at 4 Elm Row.' },
      ...signing.map((p) => ({ id: `e-${p.name}`, type: 'paragraph', content: `{{${p.name}}}` })),
    ],
  },
  placeholders: [{ name: 'tenant', label: 'Tenant', type: 'text', required: true }, ...signing],
};

async function shot(page: Page, name: string, width: number) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(500);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) problems.push(`[${name}@${width}] horizontal overflow of ${overflow}px`);
  const file = path.join(OUT, `owner-${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: false });
  console.log(`wrote ${file}`);
}

/** Serious or critical WCAG 2.1 AA problems on the page as it is now. */
async function axe(page: Page, where: string) {
  await page.waitForTimeout(250);
  const results = await new AxeBuilder({ page: page as never }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  for (const v of results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
    problems.push(`[axe ${where}] ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const smtp = await startSmtpStandIn({ tls: false, port: SMTP_PORT, accounts: {}, authOptional: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    // Both admins first, while there is no mail server: their verification links are in the log.
    for (const width of [1280, 375]) {
      const context = await browser.newContext();
      const email = `shots-admin-${width}@e2e.formwork.test`;
      const post = (url: string, data: unknown) => context.request.post(`${BASE_URL}${url}`, { headers: { origin: BASE_URL }, data });
      await post('/api/auth/sign-up', { firstName: 'Olivia', lastName: 'Owner', email, password: 'correct horse battery' });
      const link = new URL(await linkFromLogFile(email), BASE_URL);
      await post('/api/auth/verify-email', { token: link.searchParams.get('token') });
      await context.close();
    }
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: width > 600 ? 900 : 800 }, deviceScaleFactor: 1 });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
      const page = await context.newPage();
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(`[${width}] console error: ${msg.text()}`);
      });
      page.on('pageerror', (err) => problems.push(`[${width}] page error: ${err.message}`));
      const api = {
        post: (url: string, data?: unknown) => page.request.post(`${BASE_URL}${url}`, { headers: { origin: BASE_URL }, data }),
        put: (url: string, data: unknown) => page.request.put(`${BASE_URL}${url}`, { headers: { origin: BASE_URL }, data }),
        patch: (url: string, data: unknown) => page.request.patch(`${BASE_URL}${url}`, { headers: { origin: BASE_URL }, data }),
      };
      const email = `shots-admin-${width}@e2e.formwork.test`;
      await api.post('/api/auth/sign-in', { email, password: 'correct horse battery' });
      const me = (await (await page.request.get(`${BASE_URL}/api/auth/user`)).json()) as { id: string };
      await api.put('/api/admin/mail-settings', {
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        fromAddress: 'documents@formwork.test',
        fromName: 'Formwork',
      });
      const lifted = await api.patch(`/api/admin/users/${me.id}`, { subscriptionPlan: 'enterprise' });
      if (!lifted.ok()) throw new Error(`could not set the plan: ${lifted.status()}`);

      const format = (await (await api.post('/api/formats', FORMAT)).json()) as { id: string };
      const made = await api.post('/api/documents', { formatId: format.id, data: { tenant: 'Jane Doe' } });
      const doc = (await made.json()) as { id: string; name: string };

      await page.goto(`${BASE_URL}/documents`);
      await page.getByRole('button', { name: `Send ${doc.name} for signature` }).click();
      const dialog = page.getByRole('dialog', { name: 'Send for signature' });
      await dialog.getByRole('form').waitFor();
      await dialog.getByRole('button', { name: 'Send for signature' }).click();
      await shot(page, 'send-dialog-errors', width);
      await axe(page, `send dialog with errors @${width}`);
      const rows = dialog.getByRole('group');
      await rows.nth(0).getByLabel('Name').fill('Alice Landlord');
      await rows.nth(0).getByLabel('Email').fill('alice@example.com');
      await rows.nth(1).getByLabel('Name').fill('Bob Tenant');
      await rows.nth(1).getByLabel('Email').fill('bob.tenant@example.com');
      await rows.nth(1).getByLabel('Order').selectOption('2');
      await dialog.getByLabel(/^Copy to/).fill('agent@lettings.example');
      await dialog.getByLabel(/^Copy to/).press('Enter');
      await dialog.getByLabel(/^Message/).fill('Please sign the tenancy agreement by Friday.');
      await shot(page, 'send-dialog', width);
      await dialog.getByRole('button', { name: 'Send for signature' }).click();

      const panel = page.getByRole('dialog', { name: 'Signature status' });
      await panel.getByTestId('signer').first().waitFor();
      await page.getByText('Sent for signature', { exact: true }).waitFor();
      for (const close of await page.getByRole('button', { name: 'Dismiss notification' }).all()) await close.click({ force: true }).catch(() => undefined);
      await shot(page, 'panel-sent', width);
      await axe(page, `panel @${width}`);

      // Alice signs from her link, with no account: the panel follows by itself.
      const requests = (await (await page.request.get(`${BASE_URL}/api/documents/${doc.id}/signature-requests`)).json()) as {
        signers: { signUrl: string }[];
      }[];
      const token = requests[0]!.signers[0]!.signUrl.split('/').pop()!;
      await fetch(`${BASE_URL}/api/sign/${token}`);
      const signed = await fetch(`${BASE_URL}/api/sign/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ consent: true, signature: { type: 'typed', text: 'Alice Landlord' } }),
      });
      if (!signed.ok) problems.push(`sign: ${signed.status} ${await signed.text()}`);
      await panel.getByText('Partly signed').waitFor({ timeout: 20_000 });
      await panel.getByRole('button', { name: /Audit trail/ }).click();
      await shot(page, 'panel-audit', width);
      await axe(page, `panel with audit trail @${width}`);
      await panel.getByRole('button', { name: 'Cancel request' }).click();
      await page.getByRole('alertdialog').waitFor();
      await shot(page, 'cancel-confirm', width);
      await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel', exact: true }).click();
      await panel.getByRole('button', { name: 'Done' }).click();
      await page.waitForTimeout(300);
      await shot(page, 'documents-row', width);
      await context.close();
    }
  } finally {
    await browser.close();
    await smtp.close();
  }
  if (problems.length) {
    console.log(`\n${problems.length} problem(s):\n${problems.join('\n')}`);
    process.exitCode = 1;
  } else console.log('\nNo console errors, no horizontal overflow.');
}

await main();
