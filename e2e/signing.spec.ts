import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { startSmtpStandIn, type TSmtpStandIn } from '../src/server/test/smtp-stand-in.ts';
import { expectAccessible } from './axe.ts';
import { freePort, startOwnServer, type TOwnServer } from './own-server.ts';
import { collectConsoleErrors } from './console-errors.ts';

/**
 * An offer letter signed by two people, as they do it: generated from the data-entry form, sent
 * for signature from the success dialog, each signer opening the link their email brings in a
 * browser of their own (one on a phone, drawing; one on a desktop, typing), the owner downloading
 * the sealed PDF, and a stranger checking it on /verify. Its own server, for the mail server the
 * signing links go out through (a real SMTP server on loopback).
 */
const ADMIN = { firstName: 'Sam', lastName: 'Seal', email: 'signing-admin@e2e.formwork.test', password: 'signing-password-123' };
const OWNER = { firstName: 'Olivia', lastName: 'Offers', email: 'signing-owner@e2e.formwork.test', password: 'signing-password-456' };
const MANAGER = { name: 'Rosa Hiring', email: 'rosa@hires.example' };
const CANDIDATE = { name: 'Ana Silva', email: 'ana@hires.example' };
const RELAY = { user: 'relay', password: 'relay-pass' };
/** With E2E_PORT set (a developer's own range), the side servers take the ports just above it. */
const NEAR = Number(process.env.E2E_PORT ?? 0);
const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 800 };

let smtp: TSmtpStandIn;
let server: TOwnServer | undefined;
let base = '';

test.beforeAll(async () => {
  smtp = await startSmtpStandIn({ accounts: { [RELAY.user]: RELAY.password }, port: await freePort(NEAR ? NEAR + 4 : 0) });
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'formwork-e2e-smtp-')), 'smtp-ca.pem');
  writeFileSync(caFile, smtp.ca);
  server = await startOwnServer({ ADMIN_EMAILS: ADMIN.email, NODE_EXTRA_CA_CERTS: caFile }, 'signing', NEAR ? NEAR + 3 : 0);
  base = server.base;
});

test.afterAll(async () => {
  server?.stop();
  await smtp?.close();
});

/** The first message to `address` past the `skip` it already had, once it arrives. */
async function mailTo(address: string, skip = 0) {
  await expect
    .poll(() => smtp.messages.filter((m) => m.to.includes(address)).length, { message: `an email to ${address}`, timeout: 20_000 })
    .toBeGreaterThan(skip);
  return smtp.parse(smtp.messages.filter((m) => m.to.includes(address))[skip]!);
}

/** The admin, verified through the log's link (no mail server yet), sets up the installation's mail server. */
async function setUpMailServer(request: APIRequestContext) {
  expect((await request.post(`${base}/api/auth/sign-up`, { data: ADMIN })).ok()).toBe(true);
  const link = new URL(await server!.verificationLink(ADMIN.email), base);
  expect((await request.post(`${base}/api/auth/verify-email`, { headers: { origin: base }, data: { token: link.searchParams.get('token') } })).ok()).toBe(true);
  const mail = await request.put(`${base}/api/admin/mail-settings`, {
    headers: { origin: base },
    data: { host: smtp.host, port: smtp.port, user: RELAY.user, password: RELAY.password, fromAddress: 'documents@e2e.formwork.test' },
  });
  expect(mail.ok(), await mail.text()).toBe(true);
}

/** With a mail server, a new account verifies its address with the link it is emailed. */
async function signUpThroughMail(request: APIRequestContext, person: typeof OWNER) {
  expect((await request.post(`${base}/api/auth/sign-up`, { data: person })).status()).toBe(202);
  const token = /\/verify-email\?token=([A-Za-z0-9_-]{43})/.exec((await mailTo(person.email)).text ?? '')?.[1];
  expect(token, `a verification link to ${person.email}`).toBeDefined();
  expect((await request.post(`${base}/api/auth/verify-email`, { headers: { origin: base }, data: { token } })).ok()).toBe(true);
  expect((await request.post(`${base}/api/auth/sign-in`, { data: { email: person.email, password: person.password } })).ok()).toBe(true);
}

/** A signer's own browser: no account, no cookie, the size of their screen. */
async function signerBrowser(browser: Browser, viewport: typeof PHONE) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  return { context, page, errors: collectConsoleErrors(page) };
}

/** The signing link in an invitation. */
function signLinkIn(text: string | undefined): string {
  const link = new RegExp(`${base}/sign/[A-Za-z0-9_-]{43}`).exec(text ?? '')?.[0];
  expect(link, 'a signing link in the invitation').toBeDefined();
  return link!;
}

test('an offer letter: sent to two signers in turn, drawn on a phone, typed on a desktop, sealed, downloaded and verified', async ({ page, browser }) => {
  // Four people in their own browsers, a seal, six axe passes: about 95 s on a busy two-core machine, and
  // past 120 s beside another journey that starts its own server.
  test.slow();
  const consoleErrors = collectConsoleErrors(page);
  const adminContext = await browser.newContext();
  await setUpMailServer(adminContext.request);

  // The owner signs up through the emailed link; the admin puts them on a paid plan (a message of their own).
  await signUpThroughMail(page.request, OWNER);
  const ownerId = ((await (await page.request.get(`${base}/api/auth/user`)).json()) as { id: string }).id;
  expect(
    (await adminContext.request.patch(`${base}/api/admin/users/${ownerId}`, { headers: { origin: base }, data: { subscriptionPlan: 'basic' } })).ok(),
  ).toBe(true);
  await adminContext.close();

  // An offer letter with a signature and a printed name for each of two signers.
  const signing = [1, 2].flatMap((signer) => [
    { name: `signature_${signer}`, type: 'signature', signer },
    { name: `name_${signer}`, type: 'signer_name', signer },
  ]);
  const format = await page.request.post(`${base}/api/formats`, {
    headers: { origin: base },
    data: {
      name: 'Offer Letter',
      content: {
        elements: [
          { id: 'h', type: 'heading', content: 'Offer for {{candidate_name}}' },
          { id: 'p', type: 'paragraph', content: 'We are pleased to offer you the role of {{role}}. Sign below to accept.' },
          ...signing.map((p) => ({ id: `e-${p.name}`, type: 'paragraph', content: `{{${p.name}}}` })),
        ],
      },
      placeholders: [
        { name: 'candidate_name', label: 'Candidate name', type: 'text', required: true },
        { name: 'role', label: 'Role', type: 'text', required: true },
        ...signing,
      ],
    },
  });
  expect(format.status(), await format.text()).toBe(201);
  const formatId = ((await format.json()) as { id: string }).id;

  // 1. Generated through the form, whose success dialog offers eSign.
  await page.goto(`${base}/data-entry/${formatId}`);
  await page.getByLabel('Candidate name').fill(CANDIDATE.name);
  await page.getByLabel('Role').fill('Analyst');
  await page.getByRole('button', { name: 'Generate Document' }).click();
  const success = page.getByRole('dialog', { name: 'Document generated' });
  await expect(success).toBeVisible();
  const documentName = (await success.locator('.font-medium').first().textContent())!.trim();
  expect(documentName).toMatch(/^Offer Letter - /);
  await success.getByRole('button', { name: /eSign/ }).click();

  // 2. Two signers, the candidate after the manager.
  const send = page.getByRole('dialog', { name: 'Send for signature' });
  const rows = send.getByTestId('signer-row');
  await expect(rows).toHaveCount(2);
  const signers = [MANAGER, CANDIDATE];
  for (const [index, signer] of signers.entries()) {
    const row = send.getByRole('group', { name: `Signer ${index + 1}` });
    await row.getByLabel('Name').fill(signer.name);
    await row.getByLabel('Email').fill(signer.email);
    await row.getByLabel('Order').selectOption(String(index + 1));
  }
  await send.getByLabel('Message').fill('Welcome aboard: please sign your offer.');
  await expectAccessible(page, 'send for signature dialog at 1280 px');
  await page.setViewportSize(PHONE);
  await expectAccessible(page, 'send for signature dialog at 375 px');
  await page.setViewportSize(DESKTOP);
  await send.getByRole('button', { name: 'Send for signature' }).click();

  const panel = page.getByRole('dialog', { name: 'Signature status' });
  await expect(panel.getByTestId('request-status')).toHaveText('Sent');
  const panelSigner = (name: string) => panel.getByTestId('signer').filter({ hasText: name });
  await expect(panelSigner(MANAGER.name).getByTestId('signer-status')).toHaveText('Invited');
  await expect(panelSigner(CANDIDATE.name).getByTestId('signer-status')).toHaveText('Waiting');

  // The candidate's link, from the owner's view of the request: it opens, but it is not their turn.
  const documentId = ((await (await page.request.get(`${base}/api/documents`)).json()) as { id: string }[])[0]!.id;
  const [request] = (await (await page.request.get(`${base}/api/documents/${documentId}/signature-requests`)).json()) as {
    id: string;
    signers: { role: number; signUrl: string }[];
  }[];
  const candidateLink = request!.signers.find((s) => s.role === 2)!.signUrl;
  expect(smtp.messages.filter((m) => m.to.includes(CANDIDATE.email))).toHaveLength(0);
  const candidate = await signerBrowser(browser, DESKTOP);
  await candidate.page.goto(candidateLink);
  await expect(candidate.page.getByRole('heading', { level: 1 })).toHaveText(documentName);
  await expect(candidate.page.getByText(`It is not your turn yet: ${MANAGER.name} signs first.`)).toBeVisible();
  await expect(candidate.page.getByRole('button', { name: 'Sign', exact: true })).toHaveCount(0);

  // 3. The manager, on a phone: the invitation's link, a drawn signature.
  const invite = await mailTo(MANAGER.email);
  expect(invite.subject).toBe(`Please sign: ${documentName}`);
  expect(invite.text).toContain('Welcome aboard: please sign your offer.');
  const manager = await signerBrowser(browser, PHONE);
  await manager.page.goto(signLinkIn(invite.text));
  await expect(manager.page.getByRole('heading', { level: 1 })).toHaveText(documentName);
  await expect(manager.page.getByText('Welcome aboard: please sign your offer.')).toBeVisible();
  await expect(manager.page.getByTestId('pdf-pages').locator('canvas').first()).toBeVisible();
  // Their own boxes are marked on the document, one after another: the signature and the name.
  await expect(manager.page.getByText(/Your fields:\s*1 of 2/)).toBeVisible();
  await expectAccessible(manager.page, 'signing page at 375 px');
  // On a phone the panel is below the document: the bar at the bottom takes the signer there.
  await manager.page.getByRole('button', { name: 'Go to signing' }).click();
  await expect(manager.page.getByRole('button', { name: 'Go to signing' })).toBeHidden();
  const signPanel = manager.page.getByRole('region', { name: 'Sign', exact: true });
  await expect(signPanel).toContainText(`Signing as ${MANAGER.name} (${MANAGER.email})`);
  await signPanel.getByRole('tab', { name: 'Draw' }).click();
  const canvas = signPanel.getByRole('img', { name: 'Signature drawing area' });
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  const mouse = manager.page.mouse;
  await mouse.move(box.x + box.width * 0.15, box.y + box.height * 0.65);
  await mouse.down();
  for (let i = 1; i <= 12; i++) await mouse.move(box.x + box.width * (0.15 + i * 0.055), box.y + box.height * (0.65 - 0.3 * Math.sin(i / 2)), { steps: 2 });
  await mouse.up();
  await expect(signPanel.getByRole('button', { name: 'Clear' })).toBeEnabled();
  await expect(signPanel).toContainText('To sign, tick the box to agree to sign electronically.');
  await signPanel.getByRole('checkbox').check();
  await signPanel.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(manager.page.getByRole('heading', { level: 1 })).toHaveText('Signed.');
  await expect(manager.page.getByText('You will receive the signed PDF by email once everyone has signed.')).toBeVisible();
  await expect(panelSigner(MANAGER.name).getByTestId('signer-status')).toHaveText('Signed', { timeout: 15_000 });
  await expect(panel.getByTestId('request-status')).toHaveText('Partly signed');

  // 4. The candidate, at a desktop: the invitation comes only now; a typed signature.
  const secondInvite = await mailTo(CANDIDATE.email);
  expect(signLinkIn(secondInvite.text)).toBe(candidateLink);
  await candidate.page.goto(candidateLink);
  const candidatePanel = candidate.page.getByRole('region', { name: 'Sign', exact: true });
  await expect(candidatePanel).toContainText(`Signing as ${CANDIDATE.name}`);
  await expectAccessible(candidate.page, 'signing page at 1280 px');
  // A keyboard and mouse start on Type, with the signer's name.
  await expect(candidatePanel.getByRole('tab', { name: 'Type' })).toHaveAttribute('aria-selected', 'true');
  const typed = candidatePanel.getByLabel('Type your name as your signature');
  await expect(typed).toHaveValue(CANDIDATE.name);
  await typed.fill('Ana M. Silva');
  await candidatePanel.getByRole('checkbox').check();
  await candidatePanel.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(candidate.page.getByRole('heading', { level: 1 })).toHaveText(/^(Signed\.|Everyone has signed\.)$/);

  // 5. The owner's panel follows to Completed; the sealed PDF downloads.
  await expect(panel.getByTestId('request-status')).toHaveText('Completed', { timeout: 30_000 });
  await expect(panelSigner(CANDIDATE.name).getByTestId('signer-status')).toHaveText('Signed');
  // The trail records how each signed: the manager drew, the candidate typed.
  const detail = (await (await page.request.get(`${base}/api/signature-requests/${request!.id}`)).json()) as {
    audit: { events: { type: string; details: { signature?: string } }[] };
  };
  expect(detail.audit.events.filter((e) => e.type === 'signed').map((e) => e.details.signature)).toEqual(['drawn', 'typed']);
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('link', { name: 'Download signed PDF' }).click()]);
  const pdfFile = path.join(mkdtempSync(path.join(tmpdir(), 'formwork-e2e-signed-')), download.suggestedFilename() || 'signed.pdf');
  await download.saveAs(pdfFile);
  expect(readFileSync(pdfFile).subarray(0, 5).toString()).toBe('%PDF-');
  expect(spawnSync('pdfsig', [pdfFile], { encoding: 'utf8' }).stdout).toContain('Signature is Valid');
  const text = execFileSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' });
  expect(text).toContain(MANAGER.name);
  expect(text).toContain(CANDIDATE.name);
  expect(text).toContain('Certificate of completion');
  // Both signers are emailed the sealed PDF.
  for (const [address, skip] of [
    [MANAGER.email, 1],
    [CANDIDATE.email, 1],
  ] as const) {
    expect((await mailTo(address, skip)).attachments.map((a) => a.mimeType)).toEqual(['application/pdf']);
  }

  // 6. A stranger checks the file on /verify.
  const stranger = await signerBrowser(browser, DESKTOP);
  await stranger.page.goto(`${base}/verify`);
  await expect(stranger.page.getByRole('heading', { level: 1 })).toHaveText('Verify a signed PDF');
  await stranger.page.getByLabel('Signed PDF to check').setInputFiles(pdfFile);
  const result = stranger.page.getByTestId('verify-result');
  await expect(result.getByRole('heading', { level: 2 })).toHaveText('Sealed by localhost and unchanged');
  await expect(result).toContainText(documentName);
  await expect(result).toContainText(MANAGER.name);
  await expect(result).toContainText(CANDIDATE.name);
  await expect(result).toContainText('Intact: every event is as it was recorded');
  await expectAccessible(stranger.page, 'verify page at 1280 px');
  await stranger.page.setViewportSize(PHONE);
  await expectAccessible(stranger.page, 'verify page at 375 px');

  for (const side of [manager, candidate, stranger]) {
    expect(side.errors).toEqual([]);
    await side.context.close();
  }
  expect(consoleErrors).toEqual([]);
});
