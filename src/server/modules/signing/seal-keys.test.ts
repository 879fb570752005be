import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealKeys } from '../../db/schema.ts';
import { createSecretBox } from '../../crypto/secret-box.ts';
import { createTestApp, type TTestApp } from '../../test/test-app.ts';
import { sealPdf } from './seal/seal-pdf.ts';
import { verifySeal } from './seal/verify-seal.ts';
import { createSealKeys } from './seal-keys.ts';
import { createSigningRepository } from './signing.repository.ts';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("the installation's seal", () => {
  it('is made once, even when several ask at the same time, with its private key stored sealed', async () => {
    const keys = createSealKeys({
      repository: createSigningRepository(t.database.db),
      secrets: createSecretBox(randomBytes(32)),
      installationName: 'Formwork test',
    });
    const seals = await Promise.all(Array.from({ length: 5 }, () => keys.inUse()));
    const rows = await t.database.db.select().from(sealKeys);
    expect(rows).toHaveLength(1);
    for (const seal of seals) expect(Buffer.from(seal.sealCertificate).equals(rows[0]!.sealCertificate)).toBe(true);
    // The stored key is not the key in clear, in any encoding.
    const clear = Buffer.from(seals[0]!.sealPrivateKey);
    expect(rows[0]!.privateKeyEnc).not.toContain(clear.toString('base64'));
    expect(rows[0]!.privateKeyEnc).not.toContain(clear.toString('hex'));

    // What it seals, it recognises.
    const { bytes } = await sealPdf(
      new Uint8Array(
        Buffer.from(
          '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
        ),
      ),
      {
        certificates: seals[0]!,
      },
    );
    expect(await verifySeal(bytes, await keys.trusted())).toMatchObject({ valid: true });
  });
});
