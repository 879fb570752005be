/**
 * Screenshots of teams at 1280 px and 375 px, for looking at by eye: the workspace switcher, the
 * Create team dialog with the server's message, a team's dashboard, Settings → Team for an owner
 * (members, open invitations, rename, delete and its dialog) and for an editor (read-only, and the
 * API tab they may not use), the invitation page signed out, for the invited person, for someone
 * else and for a link that no longer works, a team's address opened by someone outside it, and
 * Recent Documents and My Formats saying who made what (with the Made by filter).
 * Not a test. It starts its own server (a fresh database, serving the dist/web built by
 * `npx tsx scripts/build-web.ts`) and an SMTP stand-in for
 * the invitations:
 *   npx tsx e2e/teams-screenshots.ts [outDir=docs/screenshots/teams]
 * and reports console errors and horizontal overflow.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startSmtpStandIn, type TSmtpStandIn } from '../src/server/test/smtp-stand-in.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { freePort, startOwnServer, type TOwnServer } from './own-server.ts';

const OUT = process.argv[2] ?? 'docs/screenshots/teams';
const PASSWORD = 'correct horse battery';
const OWNER = 'maya.patel@acme-lettings.example';
const problems: string[] = [];

function watch(page: Page, label: string) {
  page.on('console', (msg) => {
    // On purpose: the link that no longer works answers 404, and the blank team name 400.
    if (msg.type() === 'error' && !/\b(400|404)\b/.test(msg.text())) problems.push(`[${label}] console error: ${msg.text()}`);
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

/** A browser of its own, signed in as `email` when given. */
async function person(browser: Browser, server: TOwnServer, width: number, label: string, email?: string) {
  const context = await browser.newContext({ viewport: { width, height: width > 600 ? 860 : 760 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  watch(page, `${label}${width}`);
  if (email) await post(context, server, '/api/auth/sign-in', { email, password: PASSWORD });
  return { context, page };
}

async function post(context: BrowserContext, server: TOwnServer, url: string, data: unknown, headers: Record<string, string> = {}) {
  const res = await context.request.post(`${server.base}${url}`, { headers: { origin: server.base, ...headers }, data });
  if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
  return res.json().catch(() => undefined) as Promise<unknown>;
}

async function signUp(browser: Browser, server: TOwnServer, firstName: string, lastName: string, email: string) {
  const context = await browser.newContext();
  await post(context, server, '/api/auth/sign-up', { firstName, lastName, email, password: PASSWORD });
  await context.close();
}

/** The invitation link's token in the newest invitation to `address`. */
async function tokenFor(smtp: TSmtpStandIn, address: string): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const mails = await Promise.all(smtp.messages.filter((m) => m.to.includes(address)).map((m) => smtp.parse(m)));
    const match = mails
      .map((m) => /\/invite\/([A-Za-z0-9_-]{43})/.exec(m.text ?? ''))
      .filter(Boolean)
      .at(-1);
    if (match) return match[1]!;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no invitation reached ${address}`);
}

const FORMAT = {
  name: 'Tenancy Agreement',
  content: { elements: [{ id: 'p', type: 'paragraph', content: 'This agreement is made with {{tenant}}.' }] },
  placeholders: [{ name: 'tenant', label: 'Tenant', type: 'text', required: true }],
};

async function main() {
  mkdirSync(OUT, { recursive: true });
  const smtp = await startSmtpStandIn({ tls: false, port: await freePort(), accounts: {}, authOptional: true });
  const server = await startOwnServer({ ADMIN_EMAILS: OWNER.replace('@', '-1280@') + ',' + OWNER.replace('@', '-375@') }, 'teams-shots');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    // Both owners first, while there is no mail server: their verification links are in the log.
    // Each is the installation's admin too, to give it a mail server for the invitations.
    for (const width of [1280, 375]) {
      const email = OWNER.replace('@', `-${width}@`);
      await signUp(browser, server, 'Maya', 'Patel', email);
      const context = await browser.newContext();
      await post(context, server, '/api/auth/verify-email', { token: new URL(await server.verificationLink(email), server.base).searchParams.get('token') });
      await context.close();
    }
    for (const width of [1280, 375]) {
      const at = (email: string) => email.replace('@', `-${width}@`);
      const owner = await person(browser, server, width, 'owner', at(OWNER));
      const mail = await owner.context.request.put(`${server.base}/api/admin/mail-settings`, {
        headers: { origin: server.base },
        data: { host: '127.0.0.1', port: smtp.port, secure: false, fromAddress: 'notices@formwork.example', fromName: 'Formwork' },
      });
      if (!mail.ok()) throw new Error(`mail settings: ${mail.status()} ${await mail.text()}`);
      await signUp(browser, server, 'Ravi', 'Kumar', at('ravi.kumar@example.com'));
      await signUp(browser, server, 'Jane', 'Doe', at('jane.doe@example.com'));

      const { id: teamId } = (await post(owner.context, server, '/api/teams', { name: 'Acme Lettings' })) as { id: string };
      await post(owner.context, server, '/api/teams', { name: 'Harbour Street Legal' });
      const { id: formatId } = (await post(owner.context, server, '/api/formats', FORMAT, { 'x-formwork-team': teamId })) as { id: string };
      await post(owner.context, server, `/api/teams/${teamId}/invitations`, { email: at('ravi.kumar@example.com'), role: 'editor' });
      await post(owner.context, server, `/api/teams/${teamId}/invitations`, { email: at('new.hire@example.com'), role: 'member' });
      const raviToken = await tokenFor(smtp, at('ravi.kumar@example.com'));
      const newHireToken = await tokenFor(smtp, at('new.hire@example.com'));

      // 0. The invitation email as it arrived, drawn as a mail reader shows a plain-text message.
      const invitation = await smtp.parse(smtp.messages.filter((m) => m.to.includes(at('ravi.kumar@example.com'))).at(-1)!);
      const escape = (text: string) => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
      await owner.page.setContent(
        `<main style="font:15px/1.5 system-ui,sans-serif;max-width:760px;margin:24px auto;padding:0 16px;color:#111">` +
          `<p style="margin:0;color:#555">From: ${escape(`${invitation.from?.name ?? ''} <${invitation.from?.address ?? ''}>`)}<br>` +
          `To: ${escape(at('ravi.kumar@example.com'))}<br>Reply-To: ${escape(invitation.replyTo?.[0]?.address ?? '(none)')}</p>` +
          `<h1 style="font-size:20px;margin:12px 0 16px">${escape(invitation.subject ?? '')}</h1>` +
          `<pre style="white-space:pre-wrap;overflow-wrap:anywhere;font:inherit;margin:0">${escape(invitation.text ?? '')}</pre></main>`,
      );
      await shot(owner.page, 'invitation-email', width);

      // 1. The switcher, then the Create team dialog with the server's word on a blank name.
      const page = owner.page;
      await page.goto(`${server.base}/`);
      await page.getByTestId('workspace-switcher').click();
      await page.getByRole('menuitem', { name: /Acme Lettings/ }).waitFor();
      await shot(page, 'switcher', width, { fullPage: false });
      await page.getByRole('menuitem', { name: /Create team/ }).click();
      const create = page.getByRole('dialog', { name: 'Create a team' });
      await create.getByRole('button', { name: 'Create team' }).click();
      await create.getByRole('alert').waitFor();
      await shot(page, 'create-team-dialog', width, { fullPage: false });
      await create.getByRole('button', { name: 'Cancel' }).click();

      // 2. The team's dashboard, opened from the switcher.
      await page.getByTestId('workspace-switcher').click();
      await page.getByRole('menuitem', { name: /Acme Lettings/ }).click();
      await page.waitForURL(`**/?team=${teamId}`);
      await page.getByText('Tenancy Agreement').first().waitFor();
      await shot(page, 'team-dashboard', width);

      // 3. The invitation page: signed out, then as the invited person, who joins.
      const ravi = await person(browser, server, width, 'ravi');
      await ravi.page.goto(`${server.base}/invite/${raviToken}`);
      await ravi.page.getByRole('link', { name: 'Sign in' }).waitFor();
      await shot(ravi.page, 'invite-signed-out', width);
      await post(ravi.context, server, '/api/auth/sign-in', { email: at('ravi.kumar@example.com'), password: PASSWORD });
      await ravi.page.reload();
      await ravi.page.getByRole('button', { name: 'Join Acme Lettings' }).waitFor();
      await shot(ravi.page, 'invite-accept', width);
      await ravi.page.getByRole('button', { name: 'Join Acme Lettings' }).click();
      await ravi.page.waitForURL(`**/?team=${teamId}`);

      // 4. Someone else's invitation, and a link that no longer works.
      const jane = await person(browser, server, width, 'jane', at('jane.doe@example.com'));
      await jane.page.goto(`${server.base}/invite/${newHireToken}`);
      await jane.page.getByText('This invitation is for another address').waitFor();
      await shot(jane.page, 'invite-wrong-account', width);
      await jane.page.goto(`${server.base}/invite/${raviToken}`);
      await jane.page.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
      await shot(jane.page, 'invite-invalid', width);
      await jane.page.goto(`${server.base}/formats?team=${teamId}`);
      await jane.page.getByText('You are not in this team').waitFor();
      await shot(jane.page, 'not-in-team', width, { fullPage: false });
      await jane.context.close();

      // 5. Settings → Team for the owner: members, open invitations, rename, delete.
      await page.goto(`${server.base}/settings?team=${teamId}`);
      await page.getByRole('form', { name: 'Invite someone' }).waitFor();
      await page.getByText('Ravi Kumar').waitFor();
      await shot(page, 'settings-team-owner', width);
      await page.getByRole('button', { name: 'Delete team' }).click();
      const remove = page.getByRole('dialog', { name: 'Delete Acme Lettings?' });
      await remove.getByRole('textbox').fill('Acme');
      await shot(page, 'delete-team-dialog', width, { fullPage: false });
      await remove.getByRole('button', { name: 'Cancel' }).click();

      // 6. Settings → Team for an editor, and the API tab their role does not reach.
      await ravi.page.goto(`${server.base}/settings?team=${teamId}`);
      await ravi.page.getByText('Maya Patel').waitFor();
      await shot(ravi.page, 'settings-team-editor', width);
      await ravi.page.getByRole('tab', { name: /API Access/ }).click();
      await ravi.page.getByText('Only team admins and owners manage API keys and webhooks').waitFor();
      await shot(ravi.page, 'settings-api-editor', width, { fullPage: false });

      // 7. Recent Documents in the team: who made each, and the Made by filter narrowed to one member.
      const team = { 'x-formwork-team': teamId };
      await post(owner.context, server, '/api/documents', { formatId, data: { tenant: 'Priya Shah' } }, team);
      await post(ravi.context, server, '/api/documents', { formatId, data: { tenant: 'Tom Okafor' } }, team);
      await post(ravi.context, server, '/api/documents', { formatId, data: { tenant: 'Lena Fischer' } }, team);
      await page.goto(`${server.base}/documents?team=${teamId}`);
      await page.getByLabel('Made by').waitFor();
      await page
        .getByRole('list', { name: 'Documents and batches' })
        .getByText(/Ravi Kumar/)
        .locator('visible=true')
        .first()
        .waitFor();
      await shot(page, 'team-documents', width);
      await page.getByLabel('Made by').selectOption({ label: 'Ravi Kumar' });
      await page.waitForURL(/[?&]by=/);
      await page.getByText('Showing 2 documents made by Ravi Kumar').waitFor();
      await shot(page, 'team-documents-by-member', width);
      await page.goto(`${server.base}/formats?team=${teamId}`);
      await page.getByText('by you').waitFor();
      await shot(page, 'team-formats', width);
      await ravi.context.close();
      await owner.context.close();
    }
  } finally {
    await browser.close();
    server.stop();
    await smtp.close();
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
}

await main();
