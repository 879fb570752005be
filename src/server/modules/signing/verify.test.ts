import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZVerifyResult, type TVerifyResult } from '../../../contract/signature-requests.ts';
import { createTestApp, errorOf, TestClient, type TTestApp } from '../../test/test-app.ts';
import type { TSealKeys } from './index.ts';
import { sealPdf } from './seal/seal-pdf.ts';
import {
  COMPLETED_AT,
  completedRequest as completedRequestIn,
  readableSealCertificates,
  renderedOfferLetter,
  sealKeysOf,
  sha256Hex as sha256,
  SIGNED_AT,
} from './verify-fixtures.ts';

let t: TTestApp;
let sealKeys: TSealKeys;
let unsealed: Uint8Array;

beforeAll(async () => {
  t = await createTestApp();
  // The same database and key the app reads, so what these seal is what the app's seal would be.
  sealKeys = await sealKeysOf(t);
  unsealed = renderedOfferLetter();
});
afterAll(() => t.close());

const completedRequest = () => completedRequestIn(t, unsealed);

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
    const { sealed, document } = await completedRequest();
    const response = await verify(sealed);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(ZVerifyResult.parse(response.json())).toEqual({
      valid: true,
      reason: null,
      sha256: sha256(sealed),
      request: {
        documentName: document.name,
        status: 'completed',
        completedAt: COMPLETED_AT.toISOString(),
        signers: [
          { name: 'Ada Lovelace', email: 'ada@example.test', signedAt: SIGNED_AT.toISOString() },
          { name: 'Charles Babbage', email: 'charles@example.test', signedAt: SIGNED_AT.toISOString() },
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
    const foreign = (await sealPdf(unsealed, { certificates: await readableSealCertificates('Someone else') })).bytes;
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

    // Its request found, but not completed: the record does not match what a seal stands for.
    const { requestId, sealed: ofOpenRequest } = await completedRequest();
    await t.database.executeSql(`update signature_requests set status = 'partly_signed', completed_at = null where id = $1`, [requestId]);
    expect(await verified(ofOpenRequest)).toMatchObject({
      valid: false,
      reason: 'This PDF carries this installation’s seal, but no completed request matches it.',
      request: { status: 'partly_signed', completedAt: null, auditIntact: true },
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
