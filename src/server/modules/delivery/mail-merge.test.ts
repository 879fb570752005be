import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standardEmail, ZMailMerge, ZMailMergeOptions, ZMailMergePreview, ZMailMergeRowPage, type TMailMerge } from '../../../contract/delivery.ts';
import { DEFAULT_PLAN_CATALOGUE } from '../../../contract/plan-catalogue.ts';
import { emailDeliveries, workspaces } from '../../db/schema.ts';
import { finishedBatchOf } from '../../test/finished-batch.ts';
import { createTestAppWithMail } from '../../test/mail-test-app.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { TestClient, type TTestApp, signUpVerified } from '../../test/test-app.ts';
import { IN_DOUBT_MESSAGE } from './deliveries.service.ts';

/*
 * Mail merge from a finished batch, against a real SMTP server on loopback (STARTTLS, AUTH): one
 * message per document to the address in a spreadsheet column, subject and message filled from the
 * row, bad addresses as row errors, and never a second message to anyone, across a second click
 * and a restart of the server in the middle of sending.
 */

const ADMIN_EMAIL = 'root@example.com';
let t: TTestApp;
let smtp: TSmtpStandIn;
let admin: TestClient;

beforeAll(async () => {
  ({ t, smtp, admin } = await createTestAppWithMail({
    adminEmail: ADMIN_EMAIL,
    mail: { user: 'relay', password: 'relay-pass', fromAddress: 'documents@formwork.test' },
    background: { emailRetryDelaysMs: [100, 100] },
  }));
});
afterAll(() => t.close());

const ROWS = 25;
/** Spreadsheet rows (the header is row 1) whose address cannot be used. */
const BAD = new Map([
  [8, 'not-an-email'],
  [20, ''],
]);

function spreadsheet(tag: string): Buffer {
  const lines = [['Client Name', 'Start date', 'Email address']];
  for (let i = 0; i < ROWS; i++) {
    const row = i + 2;
    lines.push([`Client ${i + 1}`, '2026-03-01', BAD.has(row) ? BAD.get(row)! : `client${i + 1}.${tag}@example.com`]);
  }
  return Buffer.from(lines.map((l) => l.join(',')).join('\n'));
}

/** A user (by default on Enterprise: a send rate far above 25) with a finished 25-document batch. */
async function finishedBatch(tag: string, plan: 'free' | 'enterprise' = 'enterprise') {
  const client = new TestClient(t.app);
  const { user, email } = await signUpVerified(t, client, { firstName: 'Ada', lastName: 'Lovelace' }, smtp);
  await t.database.db.update(workspaces).set({ subscriptionPlan: plan }).where(eq(workspaces.id, user.id));
  const format = (
    await client.post('/api/formats', {
      name: 'Welcome Letter',
      content: { elements: [{ id: 'p', type: 'paragraph', content: 'Welcome {{client_name}}, from {{start_date}}.' }] },
      placeholders: [
        { name: 'client_name', type: 'text', required: true },
        { name: 'start_date', type: 'date' },
      ],
    })
  ).json() as { id: string };
  const job = await finishedBatchOf(client, format.id, `members-${tag}.csv`, spreadsheet(tag));
  expect(job.done).toBe(ROWS);
  return { client, userId: user.id, email, jobId: job.id };
}

const BODY = (addressColumn: number) => ({
  addressColumn,
  subject: 'Welcome aboard, {{client_name}}',
  message: 'Dear {{client_name}},\n\nYou start on {{start_date}}. Your letter, {{document}}, is attached.',
});

/** A raw message's header lines, each on one line (a long header may be folded onto the next). */
const unfolded = (raw: Buffer) => raw.toString().replace(/\r?\n(?=[ \t])/g, '');

const messagesTo = (tag: string) => smtp.messages.filter((m) => m.to.some((to) => to.includes(`.${tag}@`)));

async function mergeOf(client: TestClient, jobId: string): Promise<TMailMerge> {
  return ZMailMergeOptions.parse((await client.get(`/api/bulk-jobs/${jobId}/mail-merge`)).json()).merge!;
}

async function finishedMerge(client: TestClient, jobId: string): Promise<TMailMerge> {
  for (let i = 0; i < 600; i++) {
    const merge = await mergeOf(client, jobId);
    if (merge.finished) return merge;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the merge did not finish');
}

describe('mail merge from a batch', () => {
  it('finds the address column, previews the first message, and sends 23 messages with 2 row errors', async () => {
    const { client, email, jobId } = await finishedBatch('a');
    const options = ZMailMergeOptions.parse((await client.get(`/api/bulk-jobs/${jobId}/mail-merge`)).json());
    expect(options).toMatchObject({ suggestedColumn: 2, documents: ROWS, sendsWith: 'system', emailsPerHour: 5000, merge: null });
    expect(options.columns[2]).toMatchObject({ header: 'Email address', placeholder: null, addresses: 23, sample: 'client1.a@example.com' });
    expect(options.columns[0]).toMatchObject({ header: 'Client Name', placeholder: 'client_name', addresses: 0 });

    const preview = ZMailMergePreview.parse(
      (await client.post(`/api/bulk-jobs/${jobId}/mail-merge/preview`, { ...BODY(2), subject: 'Hi {{nickname}}' })).json(),
    );
    expect(preview).toMatchObject({ valid: 23, invalid: 2, unknownPlaceholders: ['nickname'] });
    expect(preview.problems).toEqual([
      { row: 8, address: 'not-an-email', message: '“not-an-email” is not a valid email address.' },
      { row: 20, address: '', message: 'No email address in this row.' },
    ]);
    const first = ZMailMergePreview.parse((await client.post(`/api/bulk-jobs/${jobId}/mail-merge/preview`, BODY(2))).json()).first!;
    expect(first).toMatchObject({ row: 2, to: 'client1.a@example.com', subject: 'Welcome aboard, Client 1' });
    expect(first.message).toBe('Dear Client 1,\n\nYou start on 2026-03-01. Your letter, Welcome Letter - Client 1, is attached.');
    expect(smtp.messages.filter((m) => m.to.some((to) => to.endsWith('.a@example.com')))).toHaveLength(0);

    const started = await client.post(`/api/bulk-jobs/${jobId}/mail-merge`, BODY(2));
    expect(started.statusCode, started.body).toBe(201);
    expect(ZMailMerge.parse(started.json())).toMatchObject({ total: ROWS, addressHeader: 'Email address', failed: 2 });

    const merge = await finishedMerge(client, jobId);
    expect(merge).toMatchObject({ total: 25, sent: 23, failed: 2, queued: 0, finished: true });
    const received = messagesTo('a');
    expect(received).toHaveLength(23);
    expect(new Set(received.map((m) => m.to[0])).size).toBe(23);
    const parsed = await smtp.parse(received.find((m) => m.to[0] === 'client5.a@example.com')!);
    expect(parsed.subject).toBe('Welcome aboard, Client 5');
    expect(parsed.text).toContain('Dear Client 5,');
    expect(parsed.attachments.map((a) => a.filename)).toEqual(['Welcome Letter - Client 5.pdf']);
    // Every message of a merge says how to ask for no more: a mail to the sender, never a link.
    for (const message of received) {
      const raw = unfolded(message.raw);
      expect(raw).toMatch(new RegExp(`^List-Unsubscribe: <mailto:${email.replace(/[.+]/g, '\\$&')}\\?subject=unsubscribe>\r?$`, 'm'));
      expect(raw).not.toMatch(/^List-Unsubscribe-Post:/im);
    }

    const failedRows = ZMailMergeRowPage.parse((await client.get(`/api/bulk-jobs/${jobId}/mail-merge/rows?status=failed`)).json());
    expect(failedRows.total).toBe(2);
    expect(failedRows.rows.map((r) => [r.row, r.status, r.error])).toEqual([
      [8, 'failed', '“not-an-email” is not a valid email address.'],
      [20, 'failed', 'No email address in this row.'],
    ]);
    const all = ZMailMergeRowPage.parse((await client.get(`/api/bulk-jobs/${jobId}/mail-merge/rows?limit=200`)).json());
    expect(all.rows.filter((r) => r.status === 'sent')).toHaveLength(23);

    // A second click answers the same merge and sends nothing again.
    const again = await client.post(`/api/bulk-jobs/${jobId}/mail-merge`, { ...BODY(2), subject: 'Another subject' });
    expect(again.statusCode).toBe(200);
    expect(ZMailMerge.parse(again.json())).toMatchObject({ id: merge.id, subject: merge.subject, sent: 23 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(messagesTo('a')).toHaveLength(23);
  });

  it('sends no duplicates when the server restarts in the middle of sending', async () => {
    const { client, userId, jobId } = await finishedBatch('b');
    smtp.setDelay(120);
    try {
      expect((await client.post(`/api/bulk-jobs/${jobId}/mail-merge`, BODY(2))).statusCode).toBe(201);
      await smtp.waitFor(smtp.messages.length + 6);
      const before = messagesTo('b').length;
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(23);
      // A deploy: the old server finishes the messages it is in the middle of, then a new one takes over.
      const cookie = client.cookieHeader;
      await t.restart();
      const after = new TestClient(t.app);
      const merge = await (async () => {
        for (let i = 0; i < 600; i++) {
          const options = ZMailMergeOptions.parse((await after.get(`/api/bulk-jobs/${jobId}/mail-merge`, { cookie })).json());
          if (options.merge?.finished) return options.merge;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error('the merge did not finish after the restart');
      })();
      expect(merge).toMatchObject({ sent: 23, failed: 2, queued: 0 });
      const received = messagesTo('b');
      expect(received).toHaveLength(23);
      expect(new Set(received.map((m) => m.to[0])).size).toBe(23);
      const rows = await t.database.db.select().from(emailDeliveries).where(eq(emailDeliveries.ownerId, userId));
      expect(rows.filter((r) => r.status === 'sent').every((r) => r.attempts === 1)).toBe(true);
    } finally {
      smtp.setDelay(0);
    }
  });

  it('never sends again a message whose sender died in the middle of it', async () => {
    const { client, jobId } = await finishedBatch('c');
    const started = ZMailMerge.parse((await client.post(`/api/bulk-jobs/${jobId}/mail-merge`, BODY(2))).json());
    await finishedMerge(client, jobId);
    expect(messagesTo('c')).toHaveLength(23);
    // As a process killed in the middle of this message's SMTP transaction leaves it: "sending",
    // begun long ago, the server's answer never recorded.
    const [inDoubt] = await t.database.db
      .update(emailDeliveries)
      .set({ status: 'sending', sentAt: null, smtpResponse: null, attemptedAt: new Date(Date.now() - 20 * 60_000) })
      .where(eq(emailDeliveries.mergeId, started.id))
      .returning();
    await t.restart();
    let row;
    for (let i = 0; i < 200; i++) {
      [row] = await t.database.db.select().from(emailDeliveries).where(eq(emailDeliveries.id, inDoubt!.id));
      if (row?.status !== 'sending') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(row).toMatchObject({ status: 'failed', error: IN_DOUBT_MESSAGE });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(messagesTo('c')).toHaveLength(23);
  });

  it('keeps to the send rate: what does not fit in the hour waits for it', async () => {
    const catalogue = DEFAULT_PLAN_CATALOGUE.map((plan) => (plan.id === 'enterprise' ? { ...plan, emailsPerHour: 10 } : plan));
    // The admin signed in before the restarts above; their session goes on with the new server.
    const asAdmin = (method: string, url: string, body?: unknown) => new TestClient(t.app).request(method, url, body, { cookie: admin.cookieHeader });
    expect((await asAdmin('POST', '/api/admin/settings', { key: 'plans.catalogue', value: JSON.stringify(catalogue) })).statusCode).toBe(200);
    try {
      const { client, jobId } = await finishedBatch('e');
      expect((await client.post(`/api/bulk-jobs/${jobId}/mail-merge`, BODY(2))).statusCode).toBe(201);
      let merge = await mergeOf(client, jobId);
      for (let i = 0; i < 200 && (merge.sent < 10 || !merge.nextSendAt || Date.parse(merge.nextSendAt) < Date.now() + 30 * 60_000); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        merge = await mergeOf(client, jobId);
      }
      expect(merge).toMatchObject({ sent: 10, failed: 2, queued: 13, finished: false });
      const wait = Date.parse(merge.nextSendAt!) - Date.now();
      expect(wait).toBeGreaterThan(55 * 60_000);
      expect(wait).toBeLessThanOrEqual(60 * 60_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(messagesTo('e')).toHaveLength(10);
    } finally {
      await asAdmin('DELETE', '/api/admin/settings/plans.catalogue');
    }
  });

  it('on the Free plan sends the standard email to each row, and refuses a subject or message of its own', async () => {
    const { client, email, jobId } = await finishedBatch('f', 'free');
    const options = ZMailMergeOptions.parse((await client.get(`/api/bulk-jobs/${jobId}/mail-merge`)).json());
    expect(options).toMatchObject({ sendsWith: 'system', ownWords: false, senderName: 'Ada Lovelace' });
    expect(options.ownWordsNote).toMatch(/^On the Free plan/);
    for (const url of [`/api/bulk-jobs/${jobId}/mail-merge/preview`, `/api/bulk-jobs/${jobId}/mail-merge`]) {
      const refused = await client.post(url, BODY(2));
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toMatchObject({
        error: {
          code: 'plan_limit',
          message: options.ownWordsNote,
          fields: { subject: 'Leave the subject out: the standard one is used.', message: 'Leave the message out: the standard one is used.' },
        },
      });
    }
    expect(await mergeOf(client, jobId)).toBeNull();

    const preview = ZMailMergePreview.parse((await client.post(`/api/bulk-jobs/${jobId}/mail-merge/preview`, { addressColumn: 2 })).json());
    expect(preview.first).toMatchObject({ to: 'client1.f@example.com', ...standardEmail('Welcome Letter - Client 1', 'Ada Lovelace') });
    expect(preview.unknownPlaceholders).toEqual([]);
    const started = await client.post(`/api/bulk-jobs/${jobId}/mail-merge`, { addressColumn: 2 });
    expect(started.statusCode, started.body).toBe(201);
    expect(ZMailMerge.parse(started.json()).subject).toBe('{{document}} from Ada Lovelace');
    // The Free plan sends to 20 people an hour: the first messages are enough to read.
    for (let i = 0; i < 200 && messagesTo('f').length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const received = messagesTo('f');
    expect(received.length).toBeGreaterThanOrEqual(3);
    for (const message of received) {
      const parsed = await smtp.parse(message);
      const n = /^client(\d+)\.f@/.exec(message.to[0]!)![1];
      const standard = standardEmail(`Welcome Letter - Client ${n}`, 'Ada Lovelace');
      expect(parsed.subject).toBe(standard.subject);
      expect(parsed.text).toContain(standard.message);
      expect(parsed.from).toMatchObject({ name: 'Ada Lovelace via Formwork' });
      expect(unfolded(message.raw)).toMatch(new RegExp(`^List-Unsubscribe: <mailto:${email.replace(/[.+]/g, '\\$&')}\\?subject=unsubscribe>\r?$`, 'm'));
    }
  });

  it('is for finished batches of your own, with a mail server set up', async () => {
    const { client, jobId } = await finishedBatch('d');
    const stranger = new TestClient(t.app);
    await signUpVerified(t, stranger, {}, smtp);
    expect((await stranger.get(`/api/bulk-jobs/${jobId}/mail-merge`)).statusCode).toBe(404);
    expect((await stranger.post(`/api/bulk-jobs/${jobId}/mail-merge`, BODY(2))).statusCode).toBe(404);
    const badColumn = await client.post(`/api/bulk-jobs/${jobId}/mail-merge/preview`, BODY(7));
    expect(badColumn.statusCode).toBe(400);
    expect(badColumn.json()).toMatchObject({ error: { fields: { addressColumn: 'Choose a column of the spreadsheet.' } } });
    const injected = await client.post(`/api/bulk-jobs/${jobId}/mail-merge`, { ...BODY(2), subject: 'Hi\nBcc: x@example.com' });
    expect(injected.statusCode).toBe(400);
  });
});
