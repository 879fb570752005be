import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZSignatureRequest, ZSigningSession, ZVerifyResult, type TSignatureRequest } from '../../../contract/signature-requests.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { errorOf, TestClient, type TTestApp } from '../../test/test-app.ts';
import { mailTo, ownerWithAgreement, readPdf, requestWhen, tokenOf, waitForMail, signingTestApp } from './test/signing-fixtures.ts';

/*
 * Sending a document for signature, end to end: the owner's calls, the signers' links (no
 * account), their emails through a real SMTP server on loopback, and the sealed PDF as poppler
 * reads it.
 */

let t: TTestApp;
let smtp: TSmtpStandIn;

beforeAll(async () => {
  ({ t, smtp } = await signingTestApp({ emailRetryDelaysMs: [100, 100] }));
});
afterAll(async () => {
  await t?.close();
});

/** A stranger's browser: no cookie, calls the signer's link only. */
const stranger = () => new TestClient(t.app);

async function drawnPng(): Promise<string> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="120"><path d="M10 90 C 80 10, 160 110, 390 30" stroke="#123" stroke-width="6" fill="none"/></svg>';
  return (await sharp(Buffer.from(svg)).png().toBuffer()).toString('base64');
}

describe('two signers in sequence', () => {
  let owner: TestClient;
  let request: TSignatureRequest;

  it('invites only the first signer, and shows the second that it is not their turn yet', async () => {
    const made = await ownerWithAgreement(t, smtp);
    owner = made.client;
    const created = await owner.post(`/api/documents/${made.document.id}/signature-requests`, {
      signers: [
        { name: 'Alice Landlord', email: 'alice@example.com', order: 1 },
        { name: 'Bob Tenant', email: 'bob@example.com', order: 2 },
      ],
      cc: ['agent@example.com'],
      message: 'Please sign the tenancy agreement.',
    });
    expect(created.statusCode, created.body).toBe(201);
    request = ZSignatureRequest.parse(created.json());
    expect(request.status).toBe('sent');
    expect(request.signers.map((s) => [s.role, s.status])).toEqual([
      [1, 'notified'],
      [2, 'waiting'],
    ]);

    const [invite] = await waitForMail(smtp, 'alice@example.com', 1);
    const parsed = await smtp.parse(invite!);
    expect(parsed.subject).toBe(`Please sign: ${made.document.name}`);
    expect(parsed.text).toContain('Please sign the tenancy agreement.');
    expect(parsed.text).toContain(request.signers[0]!.signUrl);
    expect(mailTo(smtp, 'bob@example.com')).toHaveLength(0);

    const early = await stranger().get(`/api/sign/${tokenOf(request.signers[1]!.signUrl)}`);
    expect(early.statusCode, early.body).toBe(200);
    expect(ZSigningSession.parse(early.json())).toMatchObject({ turn: 'waiting', waitingFor: ['Alice Landlord'] });
    const refused = await stranger().post(`/api/sign/${tokenOf(request.signers[1]!.signUrl)}`, { consent: true, signature: { type: 'typed', text: 'Bob' } });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toMatch(/not your turn.*Alice Landlord/);

    const doc = await owner.get(`/api/documents/${made.document.id}`);
    expect((doc.json() as { status: string }).status).toBe('out_for_signature');
  });

  it('lets the first signer sign, then invites the second', async () => {
    const token = tokenOf(request.signers[0]!.signUrl);
    const session = ZSigningSession.parse((await stranger().get(`/api/sign/${token}`)).json());
    expect(session).toMatchObject({ turn: 'now', signer: { name: 'Alice Landlord', role: 1 }, senderName: 'Olivia Owner' });
    expect(session.fields.map((f) => f.type).sort()).toEqual(['signature', 'signer_name']);
    const pdf = await stranger().get(session.pdfUrl);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');

    const noConsent = await stranger().post(`/api/sign/${token}`, { consent: false, signature: { type: 'typed', text: 'Alice Landlord' } });
    expect(noConsent.statusCode).toBe(400);
    const signed = await stranger().post(`/api/sign/${token}`, { consent: true, signature: { type: 'typed', text: 'Alice Landlord' } });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toEqual({ status: 'signed', requestStatus: 'partly_signed' });

    // A link once used is the same 404 as one never made.
    expect((await stranger().get(`/api/sign/${token}`)).statusCode).toBe(404);
    expect((await stranger().post(`/api/sign/${token}`, { consent: true, signature: { type: 'typed', text: 'Again' } })).statusCode).toBe(404);
    expect((await stranger().get(`/api/sign/${'x'.repeat(43)}`)).statusCode).toBe(404);

    const [invite] = await waitForMail(smtp, 'bob@example.com', 1);
    expect((await smtp.parse(invite!)).text).toContain(request.signers[1]!.signUrl);
  });

  it('seals the document once both have signed, and sends everyone the sealed PDF', async () => {
    const token = tokenOf(request.signers[1]!.signUrl);
    const signed = await stranger().post(`/api/sign/${token}`, {
      consent: true,
      signature: { type: 'drawn', png: `data:image/png;base64,${await drawnPng()}` },
    });
    expect(signed.statusCode, signed.body).toBe(200);

    const done = await requestWhen(owner, request.id, 'completed');
    expect(done.sealedSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(done.audit.intact).toBe(true);
    expect(done.audit.events.map((e) => e.type)).toEqual(expect.arrayContaining(['created', 'sent', 'opened', 'consented', 'signed', 'sealed', 'completed']));

    const download = await owner.get(`/api/signature-requests/${request.id}/pdf`);
    expect(download.statusCode).toBe(200);
    const sealed = download.rawPayload;
    const read = readPdf(sealed);
    expect(read.pdfsig).toContain('Signature Validation: Signature is Valid.');
    expect(read.pdfsig).toContain('Total document signed');
    expect(read.qpdf).toContain('No syntax or stream encoding errors found');
    expect(read.text).toContain('Alice Landlord');
    expect(read.text).toContain('Bob Tenant');
    expect(read.text).toContain('Certificate of completion');
    expect(read.text).toContain(done.documentSha256);
    if (process.env.SIGNED_PDF_OUT) writeFileSync(process.env.SIGNED_PDF_OUT, sealed);

    for (const address of ['alice@example.com', 'bob@example.com', 'agent@example.com']) {
      const messages = await waitForMail(smtp, address, address === 'agent@example.com' ? 1 : 2);
      const copy = await smtp.parse(messages.at(-1)!);
      expect(copy.subject).toMatch(/^Signed: /);
      expect(Buffer.from(copy.attachments[0]!.content as ArrayBuffer).equals(sealed)).toBe(true);
    }
    const doc = await owner.get(`/api/documents/${done.documentId}`);
    expect((doc.json() as { status: string }).status).toBe('signed');

    // Anyone holding the file can check it: sealed here, unchanged, and whose it is.
    const verified = ZVerifyResult.parse((await stranger().upload('/api/verify', 'file', 'signed.pdf', sealed, 'application/pdf')).json());
    expect(verified).toMatchObject({ valid: true, reason: null, request: { status: 'completed', auditIntact: true } });
    expect(verified.request!.signers.map((s) => s.name)).toEqual(['Alice Landlord', 'Bob Tenant']);
    const changed = Buffer.from(sealed);
    changed[200] = changed[200]! ^ 1;
    expect(ZVerifyResult.parse((await stranger().upload('/api/verify', 'file', 'changed.pdf', changed, 'application/pdf')).json()).valid).toBe(false);
  });
});
