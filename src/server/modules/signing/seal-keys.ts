import { randomUUID } from 'node:crypto';
import type { TSecretBox } from '../../crypto/secret-box.ts';
import { createSealCertificates, type TSealCertificates } from './seal/certificates.ts';
import type { TTrustedSeal } from './seal/verify-seal.ts';
import type { TSigningRepository, TSealKeyRow } from './signing.repository.ts';

/**
 * The installation's seal: made on first use (its private key stored sealed under
 * ENCRYPTION_KEY), and every seal it has used, for checking what they sealed.
 */
export function createSealKeys(deps: {
  repository: Pick<TSigningRepository, 'sealInUse' | 'addSealIfNone' | 'allSeals'>;
  secrets: TSecretBox;
  installationName: string;
}) {
  const open = (row: TSealKeyRow): TSealCertificates => ({
    sealCertificate: new Uint8Array(row.sealCertificate),
    caCertificate: new Uint8Array(row.caCertificate),
    sealPrivateKey: new Uint8Array(Buffer.from(deps.secrets.open(row.privateKeyEnc), 'base64')),
  });
  return {
    async inUse(): Promise<TSealCertificates> {
      const existing = await deps.repository.sealInUse();
      if (existing) return open(existing);
      const made = await createSealCertificates(deps.installationName);
      await deps.repository.addSealIfNone({
        id: randomUUID(),
        source: 'generated',
        sealCertificate: Buffer.from(made.sealCertificate),
        caCertificate: Buffer.from(made.caCertificate),
        privateKeyEnc: deps.secrets.seal(Buffer.from(made.sealPrivateKey).toString('base64')),
      });
      // Whoever added first wins; everyone seals with the one that is stored.
      return open((await deps.repository.sealInUse())!);
    },

    async trusted(): Promise<TTrustedSeal[]> {
      return (await deps.repository.allSeals()).map((row) => ({
        sealCertificate: new Uint8Array(row.sealCertificate),
        caCertificate: new Uint8Array(row.caCertificate),
      }));
    },
  };
}
export type TSealKeys = ReturnType<typeof createSealKeys>;
