import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { STARTER_FORMATS } from '../../../contract/starter-formats/index.ts';
import { renderPdf } from '../../../render/index.ts';
import { createSecretBox } from '../../crypto/secret-box.ts';
import { signatureRequests, signatureSigners } from '../../db/schema.ts';
import { createOfferLetterDocument } from '../../test/offer-letter-document.ts';
import { TestClient, type TTestApp } from '../../test/test-app.ts';
import { createSealKeys, type TSealKeys } from './seal-keys.ts';
import { createSealCertificates, type TSealCertificates } from './seal/certificates.ts';
import { sealPdf } from './seal/seal-pdf.ts';
import { createSigningRepository } from './signing.repository.ts';

/*
 * What the /verify tests (API and page) check: a PDF as the installation would seal it, and the
 * completed request that produced it, made straight in the test app's database.
 */

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The starter offer letter, filled in: a real document of the kind people send for signature. */
export function renderedOfferLetter(): Uint8Array {
  const offer = STARTER_FORMATS.find((starter) => starter.id === 'offer-letter')!;
  return renderPdf({
    format: offer,
    data: { candidate_name: 'Ada Lovelace', company_name: 'Analytical Engines Ltd' },
    assets: {},
    meta: { title: offer.name, creationDate: new Date('2026-11-26T00:00:00Z') },
  }).pdf;
}

function readable(der: Uint8Array): boolean {
  try {
    new X509Certificate(der);
    return true;
  } catch {
    return false;
  }
}

/**
 * Seal certificates Node can read. createSealCertificates draws a 16-byte serial whose first byte
 * is sometimes zero with the next below 0x80: a redundant leading zero that DER forbids, so Node
 * refuses the certificate (1 in 256). The tests take a pair it reads and never flake on that.
 */
export async function readableSealCertificates(installationName: string): Promise<TSealCertificates> {
  for (;;) {
    const made = await createSealCertificates(installationName);
    if (readable(made.caCertificate) && readable(made.sealCertificate)) return made;
  }
}

/**
 * The installation's seal keys, over the same database and key the app reads. The seal in use is
 * stored here first (as seal-keys.ts stores one it makes), so that it is one Node can read.
 */
export async function sealKeysOf(t: TTestApp): Promise<TSealKeys> {
  const repository = createSigningRepository(t.database.db);
  const secrets = createSecretBox(t.config.encryptionKey);
  if (!(await repository.sealInUse())) {
    const made = await readableSealCertificates('localhost');
    await repository.addSealIfNone({
      id: randomUUID(),
      source: 'generated',
      sealCertificate: Buffer.from(made.sealCertificate),
      caCertificate: Buffer.from(made.caCertificate),
      privateKeyEnc: secrets.seal(Buffer.from(made.sealPrivateKey).toString('base64')),
    });
  }
  return createSealKeys({ repository, secrets, installationName: 'localhost' });
}

export const SIGNED_AT = new Date('2026-11-25T10:00:00Z');
export const COMPLETED_AT = new Date('2026-11-25T11:00:00Z');

/** A document sent to two signers who both signed, its PDF sealed by the installation: what a completed request leaves. */
export async function completedRequest(t: TTestApp, unsealed: Uint8Array = renderedOfferLetter()) {
  const repo = createSigningRepository(t.database.db);
  const client = new TestClient(t.app);
  const { user } = await client.signUp();
  const document = await createOfferLetterDocument(client);
  const sealed = (await sealPdf(unsealed, { certificates: await (await sealKeysOf(t)).inUse() })).bytes;
  const requestId = randomUUID();
  await repo.createRequest(
    { id: requestId, ownerId: user.id, documentId: document.id, expiresAt: new Date(Date.now() + 30 * 86_400_000), documentSha256: sha256Hex(unsealed) },
    [
      { id: randomUUID(), requestId, role: 1, name: 'Ada Lovelace', email: 'ada@example.test', order: 1, tokenHash: randomUUID(), tokenEnc: 'sealed' },
      { id: randomUUID(), requestId, role: 2, name: 'Charles Babbage', email: 'charles@example.test', order: 2, tokenHash: randomUUID(), tokenEnc: 'sealed' },
    ],
    { type: 'created', ip: '203.0.113.5', userAgent: 'test' },
  );
  for (const type of ['sent', 'signed', 'signed', 'completed', 'sealed'] as const) await repo.appendEvent(requestId, { type });
  await t.database.db.update(signatureSigners).set({ status: 'signed', signedAt: SIGNED_AT }).where(eq(signatureSigners.requestId, requestId));
  await t.database.db
    .update(signatureRequests)
    .set({ status: 'completed', completedAt: COMPLETED_AT, sealedSha256: sha256Hex(sealed) })
    .where(eq(signatureRequests.id, requestId));
  return { requestId, document, sealed };
}
