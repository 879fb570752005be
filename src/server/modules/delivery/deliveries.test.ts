import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standardEmail, ZDelivery, type TDelivery } from '../../../contract/delivery.ts';
import { ZEmailSettings } from '../../../contract/mail.ts';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plan-catalogue.ts';
import { emailDeliveries, workspaces } from '../../db/schema.ts';
import { settledDelivery } from './test/settled-delivery.ts';
import { createOfferLetterDocument } from '../../test/offer-letter-document.ts';
import { saveSystemMail } from '../../test/mail-test-app.ts';
import { startSmtpStandIn, type TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { errorOf, createTestApp, TestClient, logInto, type TTestApp, signUpVerified } from '../../test/test-app.ts';

/*
 * Emailing a document, end to end against a real SMTP server on loopback: STARTTLS with a
 * certificate made here (the only authority trusted), AUTH, the message as it arrives, retries
 * after temporary answers, and the delivery log.
 */

const ADMIN_EMAIL = 'root@example.com';
const RELAY = { user: 'relay-user', password: 'relay-pass' };
let t: TTestApp;
let smtp: TSmtpStandIn;
let admin: TestClient;
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpStandIn({ accounts: { [RELAY.user]: RELAY.password, 'sales@acme.test': 'right-password' } });
  t = await createTestApp(
    { ADMIN_EMAILS: ADMIN_EMAIL, IMAGE_FETCH_ALLOWED_IPS: '127.0.0.1', LOG_LEVEL: 'info' },
    { mailTrustedCa: [smtp.ca], emailRetryDelaysMs: [100, 100, 100] },
    { logStream: logInto(logLines) },
  );
  admin = new TestClient(t.app);
  await signUpVerified(t, admin, { email: ADMIN_EMAIL });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function setUpSystemMail() {
  await saveSystemMail(admin, smtp, { ...RELAY, fromAddress: 'documents@formwork.test', fromName: 'Formwork' });
}

/** A user on `plan` (a paid one unless told: the Free plan's own rule is tested on its own) with one document. */
async function userWithDocument(plan: 'free' | 'basic' | 'enterprise' = 'basic', client = new TestClient(t.app)) {
  const { user, email } = await signUpVerified(t, client, { firstName: 'Grace', lastName: 'Hopper' }, smtp);
  await t.database.db.update(workspaces).set({ subscriptionPlan: plan }).where(eq(workspaces.id, user.id));
  return { client, userId: user.id, email, document: await createOfferLetterDocument(client) };
}

describe('with no mail server set up', () => {
  it('refuses with 422 and says to share a link instead', async () => {
    const { client, document } = await userWithDocument();
    const refused = await client.post(`/api/documents/${document.id}/email`, { to: ['jane@example.com'] });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused).message).toMatch(/No mail server is set up.*Share a link/);
  });
});

describe('emailing a document', () => {
  beforeAll(setUpSystemMail);

  it('arrives over STARTTLS with AUTH, its attachment byte for byte the download, and the log says sent', async () => {
    const { client, email, document } = await userWithDocument();
    const before = smtp.messages.length;
    const queued = await client.post(`/api/documents/${document.id}/email`, {
      to: ['Jane.Doe@Example.com', 'hr@example.com'],
      cc: ['boss@example.com'],
      subject: 'Your offer',
      message: 'Hello Jane,\n\nYour offer letter is attached. <b>Welcome!</b>',
    });
    expect(queued.statusCode, queued.body).toBe(202);
    const delivery = ZDelivery.parse(queued.json());
    expect(delivery).toMatchObject({ status: 'queued', to: ['jane.doe@example.com', 'hr@example.com'], cc: ['boss@example.com'], subject: 'Your offer' });

    const done = await settledDelivery(client, delivery.id);
    expect(done).toMatchObject({ status: 'sent', attempts: 1, transport: 'system', attachment: 'pdf', error: null });
    expect(done.smtpResponse).toMatch(/^250/);
    expect(done.sentAt).not.toBeNull();

    await smtp.waitFor(before + 1);
    const message = smtp.messages[before]!;
    expect(message).toMatchObject({ secure: true, user: RELAY.user, from: 'documents@formwork.test' });
    expect(message.to.sort()).toEqual(['boss@example.com', 'hr@example.com', 'jane.doe@example.com']);
    const parsed = await smtp.parse(message);
    expect(parsed.subject).toBe('Your offer');
    expect(parsed.from).toMatchObject({ name: 'Grace Hopper via Formwork', address: 'documents@formwork.test' });
    expect(parsed.replyTo).toEqual([expect.objectContaining({ address: email })]);
    expect(parsed.messageId).toBe(`<${delivery.id}@localhost>`);
    expect(parsed.text).toContain('Your offer letter is attached. <b>Welcome!</b>');
    // The sender's words are shown, never interpreted, in the HTML part.
    expect(parsed.html).toContain('&lt;b&gt;Welcome!&lt;/b&gt;');
    expect(parsed.attachments).toHaveLength(1);
    const attachment = parsed.attachments[0]!;
    expect(attachment).toMatchObject({ filename: `${document.name}.pdf`, mimeType: 'application/pdf' });

    const download = await client.get(`/api/documents/${document.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(sha256(new Uint8Array(attachment.content as ArrayBuffer))).toBe(sha256(download.rawPayload));

    const log = (await client.get(`/api/documents/${document.id}/deliveries`)).json() as TDelivery[];
    expect(log.map((d) => [d.id, d.status])).toEqual([[delivery.id, 'sent']]);
    const recent = (await client.get('/api/deliveries')).json() as { documentName: string }[];
    expect(recent[0]).toMatchObject({ documentName: document.name });
  });

  it('fills in the subject and message from the document when left out', async () => {
    const { client, document } = await userWithDocument();
    const before = smtp.messages.length;
    const queued = ZDelivery.parse((await client.post(`/api/documents/${document.id}/email`, { to: ['jane@example.com'] })).json());
    expect((await settledDelivery(client, queued.id)).status).toBe('sent');
    await smtp.waitFor(before + 1);
    const parsed = await smtp.parse(smtp.messages[before]!);
    expect(parsed.subject).toBe(document.name);
    expect(parsed.text).toContain(`Please find ${document.name} attached.`);
  });

  it('retries a temporary 4xx answer with backoff, then sends', async () => {
    const { client, document } = await userWithDocument();
    const before = smtp.messages.length;
    smtp.answerNext(2, 451, '4.3.0 Mailbox busy, try again later');
    const queued = ZDelivery.parse((await client.post(`/api/documents/${document.id}/email`, { to: ['jane@example.com'] })).json());
    const done = await settledDelivery(client, queued.id);
    expect(done).toMatchObject({ status: 'sent', attempts: 3, error: null });
    await smtp.waitFor(before + 1);
    expect(smtp.messages.length).toBe(before + 1);
    const retried = logLines.filter((line) => line.includes(queued.id) && line.includes('will retry'));
    expect(retried).toHaveLength(2);
    expect(retried[0]).toContain('451 4.3.0 Mailbox busy');
  });

  it('gives up on a permanent 5xx answer at once, with the server’s words', async () => {
    const { client, document } = await userWithDocument();
    smtp.answerNext(1, 554, '5.7.1 Message rejected as spam');
    const queued = ZDelivery.parse((await client.post(`/api/documents/${document.id}/email`, { to: ['jane@example.com'] })).json());
    const done = await settledDelivery(client, queued.id);
    expect(done).toMatchObject({ status: 'failed', attempts: 1, smtpResponse: '554 5.7.1 Message rejected as spam' });
    expect(done.error).toBe(`The mail server ${smtp.host} refused the message: 554 5.7.1 Message rejected as spam`);
  });

  it('sends through the user’s own server when their plan has one, and a wrong password fails clearly without logging it', async () => {
    const { client, userId, document } = await userWithDocument();
    await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, userId));
    const wrong = 'Not-The-Password-42';
    const saved = await client.request('PUT', '/api/user/email-settings', {
      enterpriseEmail: 'sales@acme.test',
      enterpriseEmailPassword: wrong,
      smtpHost: smtp.host,
      smtpPort: smtp.port,
    });
    expect(saved.statusCode).toBe(200);
    const failed = await settledDelivery(
      client,
      ZDelivery.parse((await client.post(`/api/documents/${document.id}/email`, { to: ['jane@example.com'] })).json()).id,
    );
    expect(failed).toMatchObject({ status: 'failed', transport: 'own', attempts: 1 });
    expect(failed.error).toBe(`The mail server ${smtp.host} refused the user name or password: 535 5.7.8 Authentication credentials invalid`);
    const logged = logLines.filter((line) => line.includes(failed.id)).join('');
    expect(logged).toContain('refused the user name or password');
    expect(logLines.join('')).not.toContain(wrong);
    expect(logLines.join('')).not.toContain(Buffer.from(wrong).toString('base64'));

    await client.request('PUT', '/api/user/email-settings', {
      enterpriseEmail: 'sales@acme.test',
      enterpriseEmailPassword: 'right-password',
      smtpHost: smtp.host,
      smtpPort: smtp.port,
    });
    const before = smtp.messages.length;
    const sent = await settledDelivery(
      client,
      ZDelivery.parse((await client.post(`/api/documents/${document.id}/email`, { to: ['jane@example.com'] })).json()).id,
    );
    expect(sent).toMatchObject({ status: 'sent', transport: 'own' });
    await smtp.waitFor(before + 1);
    expect(smtp.messages[before]).toMatchObject({ user: 'sales@acme.test', from: 'sales@acme.test' });
  });
});

describe('abuse limits', () => {
  beforeAll(setUpSystemMail);

  it('caps recipients, refuses header injection and anything but a bare address, and finds only your documents', async () => {
    const { client, document } = await userWithDocument();
    const many = Array.from({ length: 11 }, (_, i) => `r${i}@example.com`);
    const tooMany = await client.post(`/api/documents/${document.id}/email`, { to: many });
    expect(tooMany.statusCode).toBe(400);
    const together = await client.post(`/api/documents/${document.id}/email`, { to: many.slice(0, 6), cc: many.slice(6, 11) });
    expect(errorOf(together).fields).toEqual({ to: 'To and Cc together may name at most 10 people.' });
    const injected = await client.post(`/api/documents/${document.id}/email`, { to: ['a@example.com'], subject: 'Hi\r\nBcc: victim@example.com' });
    expect(errorOf(injected).fields).toEqual({ subject: 'The subject cannot contain line breaks or control characters.' });
    for (const address of ['Eve <eve@example.com>', 'a@example.com, b@example.com', 'a@example.com\r\nBcc: b@example.com', 'no-at-sign']) {
      const refused = await client.post(`/api/documents/${document.id}/email`, { to: [address] });
      expect(refused.statusCode, address).toBe(400);
      expect(errorOf(refused).fields?.['to.0'], address).toBe('Enter a valid email address.');
    }
    const stranger = new TestClient(t.app);
    await signUpVerified(t, stranger, {}, smtp);
    expect((await stranger.post(`/api/documents/${document.id}/email`, { to: ['a@example.com'] })).statusCode).toBe(404);
    expect((await stranger.get(`/api/documents/${document.id}/deliveries`)).statusCode).toBe(404);
    const queuedIds = (await t.database.db.select({ id: emailDeliveries.id }).from(emailDeliveries).where(eq(emailDeliveries.documentId, document.id))).map(
      (r) => r.id,
    );
    expect(queuedIds).toEqual([]);
  });

  it('holds each user to the plan’s send rate per hour', async () => {
    const catalogue = DEFAULT_PLAN_CATALOGUE.map((plan) => (plan.id === 'basic' ? { ...plan, emailsPerHour: 3 } : plan));
    const set = await admin.post('/api/admin/settings', { key: 'plans.catalogue', value: JSON.stringify(catalogue) });
    expect(set.statusCode, set.body).toBe(200);
    try {
      const { client, document } = await userWithDocument();
      const overWhole = await client.post(`/api/documents/${document.id}/email`, { to: ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com'] });
      expect(overWhole.statusCode).toBe(400);
      expect(errorOf(overWhole).message).toBe('Your plan sends to at most 3 recipients an hour. Send to fewer people.');
      const first = ZDelivery.parse((await client.post(`/api/documents/${document.id}/email`, { to: ['a@example.com', 'b@example.com'] })).json());
      await settledDelivery(client, first.id);
      expect((await client.post(`/api/documents/${document.id}/email`, { to: ['c@example.com'] })).statusCode).toBe(202);
      const over = await client.post(`/api/documents/${document.id}/email`, { to: ['d@example.com'] });
      expect(over.statusCode).toBe(429);
      expect(over.headers['retry-after']).toBe('600');
      expect(errorOf(over)).toMatchObject({
        code: 'rate_limited',
        message: 'You have emailed 3 recipients in the last hour; your plan allows 3. Try again later.',
      });
    } finally {
      await admin.request('DELETE', '/api/admin/settings/plans.catalogue');
    }
  });
});

describe('the Free plan through the installation’s server', () => {
  beforeAll(setUpSystemMail);

  const NOTE =
    'On the Free plan, emails sent through this installation’s mail server use a standard subject and message that name the document and you. Upgrade your plan to write your own.';

  it('refuses a subject or message of the sender’s own with a 403 that says why, and stores nothing', async () => {
    const { client, document } = await userWithDocument('free');
    const settings = ZEmailSettings.parse((await client.get('/api/user/email-settings')).json());
    expect(settings).toMatchObject({ sendsWith: 'system', ownWords: false, ownWordsNote: NOTE, senderName: 'Grace Hopper' });
    for (const [body, fields] of [
      [{ subject: 'Claim your prize' }, { subject: 'Leave the subject out: the standard one is used.' }],
      [{ message: 'Click https://example.com/win' }, { message: 'Leave the message out: the standard one is used.' }],
      [
        { subject: 'Hi', message: 'Hello' },
        { subject: 'Leave the subject out: the standard one is used.', message: 'Leave the message out: the standard one is used.' },
      ],
    ] as const) {
      const refused = await client.post(`/api/documents/${document.id}/email`, { to: ['stranger@example.com'], ...body });
      expect(refused.statusCode, JSON.stringify(body)).toBe(403);
      expect(errorOf(refused)).toEqual({ code: 'plan_limit', message: NOTE, fields });
    }
    const stored = await t.database.db.select({ id: emailDeliveries.id }).from(emailDeliveries).where(eq(emailDeliveries.documentId, document.id));
    expect(stored).toEqual([]);
  });

  it('sends the standard email, signed with the account’s own name whatever the request says', async () => {
    const { client, email, document } = await userWithDocument('free');
    const before = smtp.messages.length;
    const queued = await client.post(`/api/documents/${document.id}/email`, {
      to: ['stranger@example.com'],
      // Not fields of this endpoint: they change nothing.
      fromName: 'Your Bank',
      from: 'security@bank.example',
    });
    expect(queued.statusCode, queued.body).toBe(202);
    const standard = standardEmail(document.name, 'Grace Hopper');
    expect(ZDelivery.parse(queued.json()).subject).toBe(standard.subject);
    expect(standard.subject).toBe(`${document.name} from Grace Hopper`);
    expect((await settledDelivery(client, ZDelivery.parse(queued.json()).id)).status).toBe('sent');
    await smtp.waitFor(before + 1);
    const parsed = await smtp.parse(smtp.messages[before]!);
    expect(parsed.subject).toBe(standard.subject);
    expect(parsed.from).toMatchObject({ name: 'Grace Hopper via Formwork', address: 'documents@formwork.test' });
    expect(parsed.replyTo).toEqual([expect.objectContaining({ name: 'Grace Hopper', address: email })]);
    expect(parsed.text).toContain(`Grace Hopper sent you ${document.name} with Formwork.`);
    expect(parsed.text).not.toContain('Bank');
    expect(parsed.attachments.map((a) => a.filename)).toEqual([`${document.name}.pdf`]);
    // A single email is not a bulk send: no List-Unsubscribe.
    expect(smtp.messages[before]!.raw.toString()).not.toMatch(/^List-Unsubscribe/im);
  });

  it('sends in the standard form what was queued with the sender’s words before the account came to the Free plan', async () => {
    const { client, userId, document } = await userWithDocument('free');
    const before = smtp.messages.length;
    const id = crypto.randomUUID();
    await t.database.db.insert(emailDeliveries).values({
      id,
      ownerId: userId,
      documentId: document.id,
      to: ['stranger@example.com'],
      cc: [],
      recipientCount: 1,
      subject: 'Written on a paid plan',
      message: 'Words of my own',
      status: 'queued',
      nextAttemptAt: new Date(),
    });
    const done = await settledDelivery(client, id);
    const standard = standardEmail(document.name, 'Grace Hopper');
    expect(done).toMatchObject({ status: 'sent', subject: standard.subject });
    await smtp.waitFor(before + 1);
    const parsed = await smtp.parse(smtp.messages[before]!);
    expect(parsed.subject).toBe(standard.subject);
    expect(parsed.text).not.toContain('Words of my own');
  });

  it('lets a paid plan write its own words through the installation’s server', async () => {
    const { client, document } = await userWithDocument('basic');
    expect(ZEmailSettings.parse((await client.get('/api/user/email-settings')).json())).toMatchObject({
      sendsWith: 'system',
      ownWords: true,
      ownWordsNote: null,
    });
    const before = smtp.messages.length;
    const queued = ZDelivery.parse(
      (await client.post(`/api/documents/${document.id}/email`, { to: ['stranger@example.com'], subject: 'Our offer', message: 'As discussed.' })).json(),
    );
    expect((await settledDelivery(client, queued.id)).status).toBe('sent');
    await smtp.waitFor(before + 1);
    expect((await smtp.parse(smtp.messages[before]!)).subject).toBe('Our offer');
  });

  it('lets the Free plan write its own words through the user’s own server', async () => {
    // An installation whose Free plan includes an own server.
    const catalogue = DEFAULT_PLAN_CATALOGUE.map((plan) => (plan.id === 'free' ? { ...plan, apiAccess: true } : plan));
    expect((await admin.post('/api/admin/settings', { key: 'plans.catalogue', value: JSON.stringify(catalogue) })).statusCode).toBe(200);
    try {
      const { client, document } = await userWithDocument('free');
      const saved = await client.request('PUT', '/api/user/email-settings', {
        enterpriseEmail: 'sales@acme.test',
        enterpriseEmailPassword: 'right-password',
        smtpHost: smtp.host,
        smtpPort: smtp.port,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(ZEmailSettings.parse(saved.json())).toMatchObject({ sendsWith: 'own', ownWords: true, ownWordsNote: null });
      const before = smtp.messages.length;
      const queued = ZDelivery.parse(
        (await client.post(`/api/documents/${document.id}/email`, { to: ['stranger@example.com'], subject: 'From my own mailbox' })).json(),
      );
      expect(await settledDelivery(client, queued.id)).toMatchObject({ status: 'sent', transport: 'own' });
      await smtp.waitFor(before + 1);
      expect(smtp.messages[before]).toMatchObject({ user: 'sales@acme.test', from: 'sales@acme.test' });
      const parsed = await smtp.parse(smtp.messages[before]!);
      expect(parsed.subject).toBe('From my own mailbox');
      expect(parsed.from).toMatchObject({ name: 'Grace Hopper', address: 'sales@acme.test' });
    } finally {
      await admin.request('DELETE', '/api/admin/settings/plans.catalogue');
    }
  });
});

describe('a PDF too large to attach', () => {
  let small: TTestApp;
  beforeAll(async () => {
    small = await createTestApp({ ADMIN_EMAILS: ADMIN_EMAIL }, { mailTrustedCa: [smtp.ca], emailAttachmentMaxBytes: 1_000 });
    const root = new TestClient(small.app);
    await signUpVerified(small, root, { email: ADMIN_EMAIL });
    await saveSystemMail(root, smtp, { ...RELAY, fromAddress: 'documents@formwork.test' });
  });
  afterAll(async () => {
    await small.close();
  });

  it('goes as a share link that opens the same PDF without an account', async () => {
    const client = new TestClient(small.app);
    await signUpVerified(small, client, {}, smtp);
    const format = (
      await client.post('/api/formats', { name: 'Big', content: { elements: [{ id: 'p', type: 'paragraph', content: 'A long document.' }] } })
    ).json() as { id: string };
    const document = (await client.post('/api/documents', { formatId: format.id, data: {} })).json() as { id: string; name: string };
    const before = smtp.messages.length;
    const queued = ZDelivery.parse((await client.post(`/api/documents/${document.id}/email`, { to: ['jane@example.com'] })).json());
    const done = await settledDelivery(client, queued.id);
    expect(done).toMatchObject({ status: 'sent', attachment: 'link' });
    await smtp.waitFor(before + 1);
    const parsed = await smtp.parse(smtp.messages[before]!);
    expect(parsed.attachments).toHaveLength(0);
    const url = /http:\/\/localhost:5000\/s\/([A-Za-z0-9_-]{43})/.exec(parsed.text ?? '');
    expect(url, parsed.text).not.toBeNull();
    const pdf = await small.app.inject({ method: 'GET', url: `/api/share/${url![1]}/pdf` });
    expect(pdf.statusCode).toBe(200);
    const download = await client.get(`/api/documents/${document.id}/download`);
    expect(sha256(pdf.rawPayload)).toBe(sha256(download.rawPayload));
    const links = (await client.get(`/api/documents/${document.id}/share-links`)).json() as { origin: string; active: boolean }[];
    expect(links).toEqual([expect.objectContaining({ origin: 'email', active: true })]);
  });
});
