import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZSignatureRequest, ZSignatureRequestDetail, type TSignatureRequest } from '../../../contract/signature-requests.ts';
import { signatureRequests, signatureSigners, users } from '../../db/schema.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { errorOf, TestClient, type TTestApp } from '../../test/test-app.ts';
import { mailTo, ownerWithAgreement, readPdf, requestWhen, tokenOf, waitForMail, signingTestApp } from './test/signing-fixtures.ts';

/*
 * What else can happen to a request: signers side by side, a decline, expiry, cancelling,
 * reminders (automatic and by hand), and strangers, who see nothing of anyone else's.
 */

let t: TTestApp;
let smtp: TSmtpStandIn;
const DAY_MS = 24 * 60 * 60_000;

beforeAll(async () => {
  ({ t, smtp } = await signingTestApp({ emailRetryDelaysMs: [100, 100], signingPollMs: 100 }));
});
afterAll(async () => {
  await t?.close();
});

const stranger = () => new TestClient(t.app);
const typed = (text: string) => ({ consent: true, signature: { type: 'typed', text } });
let addresses = 0;
/** Addresses no earlier test used, so each test counts only its own mail. */
const fresh = (name: string) => `${name}-${++addresses}@example.com`;

async function send(signers: { name: string; email: string; order?: number }[], extra: Record<string, unknown> = {}) {
  const { client, document } = await ownerWithAgreement(t, smtp, signers.length);
  const created = await client.post(`/api/documents/${document.id}/signature-requests`, { signers, ...extra });
  expect(created.statusCode, created.body).toBe(201);
  return { owner: client, document, request: ZSignatureRequest.parse(created.json()) };
}

const statusOf = async (owner: TestClient, documentId: string) => ((await owner.get(`/api/documents/${documentId}`)).json() as { status: string }).status;

describe('signers side by side', () => {
  it('invites both at once, and completes when both have signed in any order', async () => {
    const [a, b] = [fresh('ann'), fresh('ben')];
    const { owner, request } = await send([
      { name: 'Ann', email: a },
      { name: 'Ben', email: b },
    ]);
    expect(request.signers.map((s) => s.status)).toEqual(['notified', 'notified']);
    await waitForMail(smtp, a, 1);
    await waitForMail(smtp, b, 1);
    expect((await stranger().post(`/api/sign/${tokenOf(request.signers[1]!.signUrl)}`, typed('Ben'))).statusCode).toBe(200);
    expect((await stranger().post(`/api/sign/${tokenOf(request.signers[0]!.signUrl)}`, typed('Ann'))).statusCode).toBe(200);
    await requestWhen(owner, request.id, 'completed');
  });

  it('records one signature when the same link is used twice at once', async () => {
    const a = fresh('twice');
    const { owner, request } = await send([{ name: 'Twice', email: a }]);
    const token = tokenOf(request.signers[0]!.signUrl);
    const answers = await Promise.all([stranger().post(`/api/sign/${token}`, typed('One')), stranger().post(`/api/sign/${token}`, typed('Two'))]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 404]);
    const done = await requestWhen(owner, request.id, 'completed');
    expect(done.audit.events.filter((e) => e.type === 'signed')).toHaveLength(1);
  });
});

describe('a format without signing fields', () => {
  it('can still be sent: the signature appears on the certificate of completion', async () => {
    const { client: owner, document } = await ownerWithAgreement(t, smtp, 0);
    const created = await owner.post(`/api/documents/${document.id}/signature-requests`, { signers: [{ name: 'Noor Fieldless', email: fresh('noor') }] });
    expect(created.statusCode, created.body).toBe(201);
    const request = ZSignatureRequest.parse(created.json());
    expect((await stranger().post(`/api/sign/${tokenOf(request.signers[0]!.signUrl)}`, typed('Noor Fieldless'))).statusCode).toBe(200);
    await requestWhen(owner, request.id, 'completed');
    const read = readPdf((await owner.get(`/api/signature-requests/${request.id}/pdf`)).rawPayload);
    expect(read.pdfsig).toContain('Signature is Valid');
    const [documentPage, ...certificate] = read.text.split('\f');
    expect(documentPage).not.toContain('Noor Fieldless');
    expect(certificate.join('\n')).toContain('Noor Fieldless');
  });
});

describe('declining', () => {
  it('ends the request with the reason, tells the owner, and closes every link', async () => {
    const [a, b] = [fresh('dee'), fresh('dan')];
    const { owner, document, request } = await send([
      { name: 'Dee', email: a },
      { name: 'Dan', email: b, order: 2 },
    ]);
    const token = tokenOf(request.signers[0]!.signUrl);
    const empty = await stranger().post(`/api/sign/${token}/decline`, { reason: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty).fields?.reason).toMatch(/Say why/);
    const declined = await stranger().post(`/api/sign/${token}/decline`, { reason: 'The rent is wrong.' });
    expect(declined.statusCode, declined.body).toBe(200);
    const detail = ZSignatureRequestDetail.parse((await owner.get(`/api/signature-requests/${request.id}`)).json());
    expect(detail).toMatchObject({ status: 'declined', signers: [{ status: 'declined', declineReason: 'The rent is wrong.' }, { status: 'waiting' }] });
    expect(await statusOf(owner, document.id)).toBe('declined');
    for (const signer of request.signers) expect((await stranger().get(`/api/sign/${tokenOf(signer.signUrl)}`)).statusCode).toBe(404);
    const notice = smtp.messages.find((m) => m.raw.toString().includes('Dee declined to sign'));
    expect(notice?.raw.toString()).toContain('The rent is wrong.');
    expect(mailTo(smtp, b)).toHaveLength(0);
  });
});

describe('what a link holder may not do', () => {
  it('refuses a decline before the signer’s turn, and a mark that is neither PNG nor JPEG', async () => {
    const [a, b] = [fresh('first'), fresh('second')];
    const { owner, request } = await send([
      { name: 'First', email: a },
      { name: 'Second', email: b, order: 2 },
    ]);
    const early = await stranger().post(`/api/sign/${tokenOf(request.signers[1]!.signUrl)}/decline`, { reason: 'Not yet my turn.' });
    expect(early.statusCode).toBe(404);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>').toString('base64');
    const marked = await stranger().post(`/api/sign/${tokenOf(request.signers[0]!.signUrl)}`, {
      consent: true,
      signature: { type: 'uploaded', png: svg },
    });
    expect(marked.statusCode, marked.body).toBe(400);
    expect(errorOf(marked).message).toMatch(/could not be read/);
    const detail = ZSignatureRequestDetail.parse((await owner.get(`/api/signature-requests/${request.id}`)).json());
    expect(detail.status).toBe('sent');
    expect(detail.signers.map((s) => s.status)).toEqual(['notified', 'waiting']);
  });

  it('stops answering while the owner’s account is suspended, and again once it is restored', async () => {
    const a = fresh('paused');
    const { owner, document, request } = await send([{ name: 'Paused', email: a }]);
    const token = tokenOf(request.signers[0]!.signUrl);
    const share = await owner.post(`/api/documents/${document.id}/share`, {});
    expect(share.statusCode, share.body).toBe(201);
    const shareToken = new URL((share.json() as { url: string }).url).pathname.split('/').pop()!;
    const ownerId = ((await owner.get('/api/auth/user')).json() as { id: string }).id;
    const suspend = (at: Date | null) => t.database.db.update(users).set({ suspendedAt: at }).where(eq(users.id, ownerId));

    await suspend(new Date());
    expect((await stranger().get(`/api/sign/${token}`)).statusCode).toBe(404);
    expect((await stranger().post(`/api/sign/${token}`, typed('Paused'))).statusCode).toBe(404);
    expect((await stranger().get(`/api/share/${shareToken}`)).statusCode).toBe(404);
    expect((await stranger().get(`/api/share/${shareToken}/pdf`)).statusCode).toBe(404);

    await suspend(null);
    expect((await stranger().get(`/api/share/${shareToken}/pdf`)).statusCode).toBe(200);
    expect((await stranger().post(`/api/sign/${token}`, typed('Paused'))).statusCode).toBe(200);
    await requestWhen(owner, request.id, 'completed');
  });
});

describe('expiry', () => {
  it('ends a request that reaches its expiry unsigned', async () => {
    const a = fresh('late');
    const { owner, document, request } = await send([{ name: 'Late', email: a }], { expiresInDays: 1 });
    // The invitation is delivered long before a real expiry; waiting for it keeps the trail's order fixed.
    await requestWhen(owner, request.id, (detail) => detail.audit.events.some((e) => e.type === 'delivered'));
    await t.database.db
      .update(signatureRequests)
      .set({ expiresAt: new Date(Date.now() - 1000), nextCheckAt: new Date() })
      .where(eq(signatureRequests.id, request.id));
    const expired = await requestWhen(owner, request.id, 'expired');
    expect(expired.audit.events.at(-1)!.type).toBe('expired');
    expect(await statusOf(owner, document.id)).toBe('expired');
    expect((await stranger().get(`/api/sign/${tokenOf(request.signers[0]!.signUrl)}`)).statusCode).toBe(404);
  });
});

describe('cancelling', () => {
  it('closes the links, puts the document back, and refuses a second cancel', async () => {
    const a = fresh('cal');
    const { owner, document, request } = await send([{ name: 'Cal', email: a }]);
    const cancelled = await owner.post(`/api/signature-requests/${request.id}/cancel`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(ZSignatureRequest.parse(cancelled.json()).status).toBe('cancelled');
    expect(await statusOf(owner, document.id)).toBe('generated');
    expect((await stranger().get(`/api/sign/${tokenOf(request.signers[0]!.signUrl)}`)).statusCode).toBe(404);
    expect((await owner.post(`/api/signature-requests/${request.id}/cancel`, {})).statusCode).toBe(409);
    // Sent again once the first has ended.
    const again = await owner.post(`/api/documents/${document.id}/signature-requests`, { signers: [{ name: 'Cal', email: a }] });
    expect(again.statusCode, again.body).toBe(201);
    expect((await owner.post(`/api/documents/${document.id}/signature-requests`, { signers: [{ name: 'Cal', email: a }] })).statusCode).toBe(409);
  });
});

describe('reminders', () => {
  let owner: TestClient;
  let request: TSignatureRequest;
  let address: string;

  it('reminds a signer who has not signed on the reminder day, once', async () => {
    address = fresh('rem');
    ({ owner, request } = await send([{ name: 'Rem', email: address }], { reminderDays: [3] }));
    await waitForMail(smtp, address, 1);
    await t.database.db
      .update(signatureSigners)
      .set({ notifiedAt: new Date(Date.now() - 3 * DAY_MS - 1000) })
      .where(eq(signatureSigners.id, request.signers[0]!.id));
    await t.database.db.update(signatureRequests).set({ nextCheckAt: new Date() }).where(eq(signatureRequests.id, request.id));
    const [, reminder] = await waitForMail(smtp, address, 2);
    expect((await smtp.parse(reminder!)).subject).toMatch(/^Reminder: please sign/);
    // The next check is the expiry: no second reminder for the same day.
    const [row] = await t.database.db
      .select({ next: signatureRequests.nextCheckAt, expires: signatureRequests.expiresAt })
      .from(signatureRequests)
      .where(eq(signatureRequests.id, request.id));
    expect(row!.next?.getTime()).toBe(row!.expires.getTime());
  });

  it('lets the owner remind by hand, at most once an hour', async () => {
    await t.database.db.update(signatureSigners).set({ lastRemindedAt: null }).where(eq(signatureSigners.id, request.signers[0]!.id));
    const reminded = await owner.post(`/api/signature-requests/${request.id}/remind`, {});
    expect(reminded.statusCode, reminded.body).toBe(200);
    await waitForMail(smtp, address, 3);
    const again = await owner.post(`/api/signature-requests/${request.id}/remind`, {});
    expect(again.statusCode).toBe(429);
    expect(errorOf(again).message).toMatch(/less than an hour ago/);
  });
});

describe('another user', () => {
  it('finds none of the owner’s requests, signers or PDFs', async () => {
    const { document, request } = await send([{ name: 'Private', email: fresh('private') }]);
    const other = (await ownerWithAgreement(t, smtp)).client;
    for (const path of [
      `/api/signature-requests/${request.id}`,
      `/api/signature-requests/${request.id}/audit`,
      `/api/signature-requests/${request.id}/pdf`,
      `/api/documents/${document.id}/signature-requests`,
    ]) {
      expect((await other.get(path)).statusCode, path).toBe(404);
    }
    for (const action of ['remind', 'cancel']) expect((await other.post(`/api/signature-requests/${request.id}/${action}`, {})).statusCode).toBe(404);
    expect((await other.post(`/api/documents/${document.id}/signature-requests`, { signers: [{ name: 'X', email: 'x@example.com' }] })).statusCode).toBe(404);
  });
});

describe('what a request needs', () => {
  it('refuses fewer signers than the format has roles, duplicate addresses, and gaps in the order', async () => {
    const { client, document } = await ownerWithAgreement(t, smtp, 2);
    const post = (body: unknown) => client.post(`/api/documents/${document.id}/signature-requests`, body);
    const few = await post({ signers: [{ name: 'One', email: 'one@example.com' }] });
    expect(few.statusCode).toBe(400);
    expect(errorOf(few).message).toMatch(/Signer 1, Signer 2: add 2 signers/);
    const twice = await post({
      signers: [
        { name: 'A', email: 'same@example.com' },
        { name: 'B', email: 'same@example.com' },
      ],
    });
    expect(errorOf(twice).fields?.['signers.1.email']).toMatch(/their own email/);
    const gap = await post({
      signers: [
        { name: 'A', email: 'a@example.com', order: 1 },
        { name: 'B', email: 'b@example.com', order: 3 },
      ],
    });
    expect(errorOf(gap).message).toMatch(/without gaps/);
  });

  it('refuses an oversized or unreadable drawn signature in words', async () => {
    const { request } = await send([{ name: 'Pic', email: fresh('pic') }]);
    const token = tokenOf(request.signers[0]!.signUrl);
    const broken = await stranger().post(`/api/sign/${token}`, {
      consent: true,
      signature: { type: 'drawn', png: Buffer.from('not a png').toString('base64') },
    });
    expect(broken.statusCode).toBe(400);
    expect(errorOf(broken).message).toMatch(/could not be read/);
    const notBase64 = await stranger().post(`/api/sign/${token}`, { consent: true, signature: { type: 'drawn', png: '%%%' } });
    expect(notBase64.statusCode).toBe(400);
  });
});
