import { createHash, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_FORMATS } from '../../../contract/starter-formats/index.ts';
import { ZVerifyResult, type TVerifyResult } from '../../../contract/signature-requests.ts';
import { renderPdf } from '../../../render/index.ts';
import { createSecretBox } from '../../crypto/secret-box.ts';
import { signatureRequests, signatureSigners } from '../../db/schema.ts';
import { createOfferLetterDocument } from '../../test/offer-letter-document.ts';
import { createTestApp, errorOf, TestClient, type TTestApp } from '../../test/test-app.ts';
import { createSealKeys, createSigningRepository, type TSealKeys, type TSigningRepository } from './index.ts';
import { createSealCertificates } from './seal/certificates.ts';
import { sealPdf } from './seal/seal-pdf.ts';

let t: TTestApp;
let repo: TSigningRepository;
let sealKeys: TSealKeys;
let unsealed: Uint8Array;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  t = await createTestApp();
  repo = createSigningRepository(t.database.db);
  // The same database and key the app reads, so what these seal is what the app's seal would be.
  sealKeys = createSealKeys({ repository: repo, secrets: createSecretBox(t.config.encryptionKey), installationName: 'localhost' });
  const offer = STARTER_FORMATS.find((starter) => starter.id === 'offer-letter')!;
  unsealed = renderPdf({
    format: offer,
    data: { candidate_name: 'Ada Lovelace', company_name: 'Analytical Engines Ltd' },
    assets: {},
    meta: { title: offer.name, creationDate: new Date('2026-11-26T00:00:00Z') },
  }).pdf;
});
afterAll(() => t.close());

/** A document sent to two signers who both signed, its PDF sealed by the installation: what a completed request leaves. */
async function completedRequest() {
  const client = new TestClient(t.app);
  const { user } = await client.signUp();
  const document = await createOfferLetterDocument(client);
  const sealed = (await sealPdf(unsealed, { certificates: await sealKeys.inUse() })).bytes;
  const requestId = randomUUID();
  const signedAt = new Date('2026-11-25T10:00:00Z');
  const completedAt = new Date('2026-11-25T11:00:00Z');
  await repo.createRequest(
    { id: requestId, ownerId: user.id, documentId: document.id, expiresAt: new Date(Date.now() + 30 * 86_400_000), documentSha256: sha256(unsealed) },
    [
      { id: randomUUID(), requestId, role: 1, name: 'Ada Lovelace', email: 'ada@example.test', order: 1, tokenHash: randomUUID(), tokenEnc: 'sealed' },
      { id: randomUUID(), requestId, role: 2, name: 'Charles Babbage', email: 'charles@example.test', order: 2, tokenHash: randomUUID(), tokenEnc: 'sealed' },
    ],
    { type: 'created', ip: '203.0.113.5', userAgent: 'test' },
  );
  for (const type of ['sent', 'signed', 'signed', 'completed', 'sealed'] as const) await repo.appendEvent(requestId, { type });
  await t.database.db.update(signatureSigners).set({ status: 'signed', signedAt }).where(eq(signatureSigners.requestId, requestId));
  await t.database.db
    .update(signatureRequests)
    .set({ status: 'completed', completedAt, sealedSha256: sha256(sealed) })
    .where(eq(signatureRequests.id, requestId));
  return { requestId, document, sealed, signedAt, completedAt };
}

async function verify(bytes: Uint8Array, fileName = 'signed.pdf') {
  return new TestClient(t.app).upload('/api/verify', 'file', fileName, Buffer.from(bytes), 'application/pdf');
}

async function verified(bytes: Uint8Array): Promise<TVerifyResult> {
  const response = await verify(bytes);
  expect(response.statusCode, response.body).toBe(200);
  return ZVerifyResult.parse(response.json());
}

describe('POST /api/verify', () => {
  it('says a sealed PDF of a completed request is valid, with who signed it and when, to anyone', async () => {
    const { sealed, document, signedAt, completedAt } = await completedRequest();
    const response = await verify(sealed);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(ZVerifyResult.parse(response.json())).toEqual({
      valid: true,
      reason: null,
      sha256: sha256(sealed),
      request: {
        documentName: document.name,
        status: 'completed',
        completedAt: completedAt.toISOString(),
        signers: [
          { name: 'Ada Lovelace', email: 'ada@example.test', signedAt: signedAt.toISOString() },
          { name: 'Charles Babbage', email: 'charles@example.test', signedAt: signedAt.toISOString() },
        ],
        auditIntact: true,
      },
    });
  });

  it('says a PDF with one byte changed after the seal is not valid, and why', async () => {
    const { sealed } = await completedRequest();
    const changed = new Uint8Array(sealed);
    // A byte of the document itself, inside the signed range.
    changed[200] = changed[200]! ^ 0x01;
    expect(await verified(changed)).toEqual({ valid: false, reason: 'The PDF was changed after it was sealed.', sha256: sha256(changed), request: null });
  });

  it('says an unsealed PDF, and one sealed by another installation, are not valid', async () => {
    expect(await verified(unsealed)).toMatchObject({ valid: false, reason: 'The PDF carries no seal.', request: null });
    const foreign = (await sealPdf(unsealed, { certificates: await createSealCertificates('Someone else') })).bytes;
    expect(await verified(foreign)).toMatchObject({ valid: false, reason: 'The PDF was not sealed by this installation.', request: null });
  });

  it('says a good seal with no completed request behind it is not valid', async () => {
    const sealed = (await sealPdf(unsealed, { certificates: await sealKeys.inUse(), reason: 'Sealed without a request' })).bytes;
    expect(await verified(sealed)).toEqual({
      valid: false,
      reason: 'This PDF carries this installation’s seal, but no completed request matches it.',
      sha256: sha256(sealed),
      request: null,
    });
  });

  it('reports an audit trail changed behind the database’s guard', async () => {
    const { requestId, sealed } = await completedRequest();
    await t.database.executeSql('alter table signature_events disable trigger signature_events_append_only');
    try {
      await t.database.executeSql(`update signature_events set ip = '192.0.2.1' where request_id = $1 and seq = 3`, [requestId]);
    } finally {
      await t.database.executeSql('alter table signature_events enable trigger signature_events_append_only');
    }
    expect((await verified(sealed)).request).toMatchObject({ auditIntact: false });
  });

  it('answers files that are not PDFs, empty files and missing files with the error shape, never a 500', async () => {
    const text = await verify(new TextEncoder().encode('just some text, not a PDF'), 'notes.txt');
    expect(text.statusCode).toBe(415);
    expect(errorOf(text)).toMatchObject({ code: 'unsupported_media_type', message: 'This file is not a PDF. Choose the signed PDF.' });

    const empty = await verify(new Uint8Array());
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty).code).toBe('bad_request');

    const garbage = await verify(new TextEncoder().encode('%PDF-1.7\n/ByteRange [0 10 20 5]\n<zz> garbage'));
    expect(garbage.statusCode).toBe(200);
    expect(ZVerifyResult.parse(garbage.json())).toMatchObject({ valid: false, request: null });

    // Ranges that fit the file around a signature that is not one.
    const damaged = await verify(new TextEncoder().encode('%PDF-1.7\n/ByteRange [0 32 38 3]\n<00ff>xyz'));
    expect(damaged.statusCode).toBe(200);
    expect(ZVerifyResult.parse(damaged.json())).toMatchObject({ valid: false, reason: 'The seal is damaged.' });

    const json = await new TestClient(t.app).post('/api/verify', { file: 'x' });
    expect(json.statusCode).toBe(400);
    expect(errorOf(json).code).toBe('bad_request');
  });
});
