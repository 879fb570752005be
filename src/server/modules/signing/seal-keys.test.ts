import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealKeys } from '../../db/schema.ts';
import { createSecretBox } from '../../crypto/secret-box.ts';
import { createTestApp, type TTestApp } from '../../test/test-app.ts';
import { sealPdf } from './seal/seal-pdf.ts';
import { verifySeal } from './seal/verify-seal.ts';
import { createSealKeys } from './seal-keys.ts';
import { createSigningRepository } from './signing.repository.ts';

let t: TTestApp;
// One key for the file: both tests read the seal the first one made.
const secrets = createSecretBox(randomBytes(32));
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("the installation's seal", () => {
  it('is made once, even when several ask at the same time, with its private key stored sealed', async () => {
    const keys = createSealKeys({
      repository: createSigningRepository(t.database.db),
      secrets,
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

describe('an uploaded seal', () => {
  it('takes over from the generated one, which is kept for checking what it sealed; a bad file changes nothing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'formwork-seal-keys-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem', '-days', '30', '-subj', '/CN=Acme seal'], {
        cwd: dir,
        stdio: 'pipe',
      });
      execFileSync('openssl', ['pkcs12', '-export', '-inkey', 'k.pem', '-in', 'c.pem', '-out', 's.p12', '-passout', 'pass:pw'], { cwd: dir, stdio: 'pipe' });
      const p12 = new Uint8Array(readFileSync(path.join(dir, 's.p12')));
      const keys = createSealKeys({ repository: createSigningRepository(t.database.db), secrets, installationName: 'Formwork test' });
      await keys.inUse();
      expect(await keys.describe()).toMatchObject({ source: 'generated', subject: expect.stringContaining('document seal') });

      await expect(keys.useUploaded(p12, 'nope')).rejects.toMatchObject({ code: 'validation_failed', message: 'The password does not open this file.' });
      expect((await keys.describe())!.source).toBe('generated');

      const described = await keys.useUploaded(p12, 'pw');
      expect(described).toMatchObject({ source: 'uploaded', subject: 'Acme seal', issuer: 'Acme seal' });
      expect(await keys.describe()).toEqual(described);
      const rows = await t.database.db.select().from(sealKeys);
      expect(rows.map((r) => [r.source, r.retiredAt === null])).toEqual(
        expect.arrayContaining([
          ['generated', false],
          ['uploaded', true],
        ]),
      );
      expect(await keys.trusted()).toHaveLength(rows.length);
      const inUse = await keys.inUse();
      expect(Buffer.from(inUse.sealCertificate).equals(rows.find((r) => r.retiredAt === null)!.sealCertificate)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
