/**
 * Screenshots of e-signing at 1280 px and 375 px, for looking at by eye: the Send for signature
 * dialog (opened from the data-entry form's success dialog), the request panel once sent and once
 * completed with its audit trail, the signing page (signer 1's turn, signer 2 waiting, done, the
 * decline dialog, a link that is not valid), /verify with a sealed and an unsealed PDF, and the
 * sealed PDF's first page and certificate of completion (drawn by pdftoppm). Not a test. Run
 * against a running server whose ADMIN_EMAILS holds shots-admin-1280@… and shots-admin-375@…
 * (ADMIN_EMAIL without the width), and SERVER_LOG naming its log file (the admins' verification
 * links are there):
 *   BASE_URL=http://localhost:5361 ADMIN_EMAIL=shots-admin@e2e.formwork.test SMTP_PORT=5362 \
 *     npx tsx e2e/signing-screenshots.ts [outDir=docs/screenshots/signing]
 * It starts an SMTP stand-in on SMTP_PORT (no TLS: the screenshots need no certificate), and
 * reports console errors and horizontal overflow.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startSmtpStandIn } from '../src/server/test/smtp-stand-in.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { linkFromLogFile } from './own-server.ts';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:5361';
const ADMIN_EMAIL = process.env.ADMIN_EMAIL ?? 'shots-admin@e2e.formwork.test';
const SMTP_PORT = Number(process.env.SMTP_PORT ?? 5362);
const OUT = process.argv[2] ?? 'docs/screenshots/signing';
const problems: string[] = [];
const work = mkdtempSync(path.join(tmpdir(), 'formwork-signing-shots-'));

const SIGNERS = [
  { name: 'Jane Doe', email: 'jane.doe@acme-lettings.example' },
  { name: 'Ravi Kumar', email: 'ravi.kumar@example.com' },
];

const signing = [1, 2].flatMap((signer) => [
  { name: `signature_${signer}`, label: `Signer ${signer}’s signature`, type: 'signature', signer },
  { name: `name_${signer}`, label: `Signer ${signer}’s name`, type: 'signer_name', signer },
]);
const FORMAT = {
  name: 'Tenancy Agreement',
  content: {
    documentNamePattern: 'Tenancy Agreement – {{tenant}}',
    elements: [
      { id: 'h', type: 'heading', content: 'Residential tenancy agreement', fontSize: 'text-2xl' },
      {
        id: 'p1',
        type: 'paragraph',
        content: 'This agreement is made between Jane Doe (the Landlord) and {{tenant}} (the Tenant) for the flat at {{address}}.',
      },
      { id: 'p2', type: 'paragraph', content: 'The rent is {{rent}} per month, payable in advance on the first day of each month, for twelve months.' },
      { id: 'p3', type: 'paragraph', content: 'The Tenant keeps the flat clean and in good repair, and tells the Landlord of any damage without delay.' },
      ...signing.map((p) => ({ id: `e-${p.name}`, type: 'paragraph', content: `{{${p.name}}}` })),
    ],
  },
  placeholders: [
    { name: 'tenant', label: 'Tenant', type: 'text', required: true },
    { name: 'address', label: 'Address', type: 'text', required: true },
    { name: 'rent', label: 'Rent', type: 'text', required: true },
    ...signing,
  ],
};

function watch(page: Page, label: string) {
  page.on('console', (msg) => {
    // The link that is not valid answers 404 on purpose.
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

/** A browser of its own, with no cookies: how a signer or a stranger arrives from an email. */
async function freshPage(browser: Browser, width: number, label: string) {
  const context = await browser.newContext({ viewport: { width, height: width > 600 ? 800 : 740 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  watch(page, label);
  return { context, page };
}

/** The sealed PDF's pages as PNGs: the first page of the document, and the certificate's pages. */
function drawPdf(pdf: string) {
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1] ?? 0);
  const draw = (page: number, name: string) => {
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', String(page), '-l', String(page), '-singlefile', pdf, path.join(OUT, name)]);
    console.log(`wrote ${path.join(OUT, `${name}.png`)}`);
  };
  draw(1, 'signed-document');
  let certificate = 0;
  for (let page = 1; page <= pages; page++) {
    const text = execFileSync('pdftotext', ['-f', String(page), '-l', String(page), pdf, '-'], { encoding: 'utf8' });
    if (certificate > 0 || text.includes('Certificate of completion')) draw(page, `certificate-${++certificate}`);
  }
  if (certificate === 0) problems.push('the sealed PDF has no page titled Certificate of completion');
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const smtp = await startSmtpStandIn({ tls: false, port: SMTP_PORT, accounts: {}, authOptional: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    // Both admins first, while there is no mail server: their verification links are in the log.
    for (const width of [1280, 375]) {
      const context = await browser.newContext();
      const email = ADMIN_EMAIL.replace('@', `-${width}@`);
      const post = (url: string, data: unknown) => context.request.post(`${BASE_URL}${url}`, { headers: { origin: BASE_URL }, data });
      const signedUp = await post('/api/auth/sign-up', { firstName: 'Maya', lastName: 'Patel', email, password: 'correct horse battery' });
      if (signedUp.ok()) {
        const link = new URL(await linkFromLogFile(email), BASE_URL);
        await post('/api/auth/verify-email', { token: link.searchParams.get('token') });
      }
      await context.close();
    }

    for (const width of [1280, 375]) {
      // Tall enough at 1280 px for the whole Send for signature dialog.
      const context = await browser.newContext({ viewport: { width, height: width > 600 ? 1000 : 800 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      watch(page, `owner${width}`);
      const api = {
        post: (url: string, data: unknown) => page.request.post(`${BASE_URL}${url}`, { headers: { origin: BASE_URL }, data }),
        put: (url: string, data: unknown) => page.request.put(`${BASE_URL}${url}`, { headers: { origin: BASE_URL }, data }),
        patch: (url: string, data: unknown) => page.request.patch(`${BASE_URL}${url}`, { headers: { origin: BASE_URL }, data }),
      };
      const email = ADMIN_EMAIL.replace('@', `-${width}@`);
      await api.post('/api/auth/sign-in', { email, password: 'correct horse battery' });
      const me = (await (await page.request.get(`${BASE_URL}/api/auth/user`)).json()) as { id: string };
      await api.put('/api/admin/mail-settings', {
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        fromAddress: 'documents@acme-lettings.example',
        fromName: 'Acme Lettings',
      });
      const lifted = await api.patch(`/api/admin/users/${me.id}`, { subscriptionPlan: 'enterprise' });
      if (!lifted.ok()) throw new Error(`could not set the plan: ${lifted.status()} (is ${email} in ADMIN_EMAILS?)`);
      const made = await api.post('/api/formats', FORMAT);
      if (!made.ok()) throw new Error(`format: ${made.status()} ${await made.text()}`);
      const format = (await made.json()) as { id: string };

      // 1. Generated in the data-entry form; its success dialog's eSign tile opens the dialog.
      await page.goto(`${BASE_URL}/data-entry/${format.id}`);
      await page.getByLabel('Tenant').fill(SIGNERS[1]!.name);
      await page.getByLabel('Address').fill('Flat 4, 12 Harbour Street, Bristol');
      await page.getByLabel('Rent').fill('£1,250');
      await page.getByRole('button', { name: 'Generate Document' }).click();
      const success = page.getByRole('dialog', { name: 'Document generated' });
      await success.getByRole('button', { name: /eSign/ }).click();
      const send = page.getByRole('dialog', { name: 'Send for signature' });
      for (const [index, signer] of SIGNERS.entries()) {
        const row = send.getByRole('group', { name: `Signer ${index + 1}` });
        await row.getByLabel('Name').fill(signer.name);
        await row.getByLabel('Email').fill(signer.email.replace('@', `-${width}@`));
        await row.getByLabel('Order').selectOption(String(index + 1));
      }
      await send.getByLabel('Message').fill('Hi both, here is the tenancy agreement we discussed. Please read it and sign by Friday.\nThanks, Maya');
      // A phone shows the dialog a part at a time: a screen as tall as the whole of it, for the picture.
      const viewport = page.viewportSize()!;
      if (width < 600) await page.setViewportSize({ width, height: 1450 });
      await shot(page, 'send-dialog', width, { fullPage: false });
      await page.setViewportSize(viewport);
      await send.getByRole('button', { name: 'Send for signature' }).click();

      // 2. The request panel, sent.
      const panel = page.getByRole('dialog', { name: 'Signature status' });
      await panel.getByTestId('signer').first().waitFor();
      await page.getByText('Sent for signature', { exact: true }).waitFor();
      // The "Sent for signature" toast would sit over the panel. The open dialog hides it from roles
      // and its overlay takes pointer clicks: found by its label, clicked by an event.
      const dismiss = page.locator('[aria-label="Dismiss notification"]');
      await dismiss.first().waitFor();
      for (const close of await dismiss.all()) await close.dispatchEvent('click');
      await dismiss.first().waitFor({ state: 'detached' });
      await shot(page, 'panel-sent', width, { fullPage: false });

      const document = ((await (await page.request.get(`${BASE_URL}/api/documents`)).json()) as { id: string }[])[0]!;
      const [request] = (await (await page.request.get(`${BASE_URL}/api/documents/${document.id}/signature-requests`)).json()) as {
        id: string;
        signers: { role: number; signUrl: string }[];
      }[];
      const link = (role: number) => request!.signers.find((s) => s.role === role)!.signUrl;

      // 3. The signing page: signer 2 waits; signer 1's turn, on Type; the decline dialog; done.
      const second = await freshPage(browser, width, `signer2-${width}`);
      await second.page.goto(link(2), { waitUntil: 'networkidle' });
      await second.page.getByTestId('pdf-pages').locator('canvas').first().waitFor();
      await shot(second.page, 'signer-waiting', width);

      const first = await freshPage(browser, width, `signer1-${width}`);
      await first.page.goto(link(1), { waitUntil: 'networkidle' });
      await first.page.getByTestId('pdf-pages').locator('canvas').first().waitFor();
      const signPanel = first.page.getByRole('region', { name: 'Sign', exact: true });
      await signPanel.getByRole('tab', { name: 'Type' }).click();
      await shot(first.page, 'signer-now', width);
      await signPanel.getByRole('button', { name: 'Decline' }).click();
      const decline = first.page.getByRole('dialog', { name: 'Decline to sign' });
      await decline.getByLabel('Why do you decline?').fill('The start date should be 1 February, not 1 January.');
      await shot(first.page, 'signer-decline-dialog', width, { fullPage: false });
      await decline.getByRole('button', { name: 'Cancel' }).click();
      await signPanel.getByRole('checkbox').check();
      await signPanel.getByRole('button', { name: 'Sign', exact: true }).click();
      await first.page.getByRole('heading', { name: 'Signed.' }).waitFor();
      await shot(first.page, 'signer-done', width);
      await first.context.close();

      await second.page.reload({ waitUntil: 'networkidle' });
      const secondPanel = second.page.getByRole('region', { name: 'Sign', exact: true });
      await secondPanel.getByRole('tab', { name: 'Type' }).click();
      await secondPanel.getByRole('checkbox').check();
      await secondPanel.getByRole('button', { name: 'Sign', exact: true }).click();
      await second.page.getByRole('heading', { level: 1, name: /^(Signed\.|Everyone has signed\.)$/ }).waitFor();
      await second.context.close();

      const stranger = await freshPage(browser, width, `stranger-${width}`);
      await stranger.page.goto(`${BASE_URL}/sign/${'x'.repeat(43)}`, { waitUntil: 'networkidle' });
      await stranger.page.getByRole('heading', { name: 'This signing link is not valid' }).waitFor();
      await shot(stranger.page, 'signer-invalid-link', width);

      // The panel follows to Completed by itself; the audit trail open.
      await panel.getByTestId('request-status').getByText('Completed').waitFor({ timeout: 30_000 });
      await panel.getByRole('button', { name: /Audit trail/ }).click();
      await panel.getByTestId('audit-events').waitFor();
      await shot(page, 'panel-completed', width, { fullPage: false });

      // 4. /verify: the sealed PDF, then the document as generated, never sealed.
      const sealed = path.join(work, `sealed-${width}.pdf`);
      const unsealed = path.join(work, `unsealed-${width}.pdf`);
      const sealedRes = await page.request.get(`${BASE_URL}/api/signature-requests/${request!.id}/pdf`);
      if (!sealedRes.ok()) throw new Error(`sealed PDF: ${sealedRes.status()}`);
      writeFileSync(sealed, await sealedRes.body());
      writeFileSync(unsealed, await (await page.request.get(`${BASE_URL}/api/documents/${document.id}/download`)).body());
      await stranger.page.goto(`${BASE_URL}/verify`);
      await stranger.page.getByLabel('Signed PDF to check').setInputFiles(sealed);
      await stranger.page.getByTestId('verify-result').waitFor();
      await shot(stranger.page, 'verify-valid', width);
      await stranger.page.goto(`${BASE_URL}/verify`);
      await stranger.page.getByLabel('Signed PDF to check').setInputFiles(unsealed);
      await stranger.page.getByTestId('verify-result').waitFor();
      await shot(stranger.page, 'verify-not-sealed', width);
      await stranger.context.close();

      // 5. The certificate of completion, once: it is the same at any screen width.
      if (width === 1280) drawPdf(sealed);
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
