import { randomUUID } from 'node:crypto';
import type { TSecretBox } from '../../crypto/secret-box.ts';
import { AppError } from '../../http/app-error.ts';
import { createSealCertificates, describeCertificate, readSealFile, SealFileError, type TSealCertificates } from './seal/certificates.ts';
import type { TTrustedSeal } from './seal/verify-seal.ts';
import type { TSigningRepository, TSealKeyRow } from './signing.repository.ts';

export type TSealDescription = { subject: string; issuer: string; validUntil: Date; source: 'generated' | 'uploaded' };

/**
 * The installation's seal: made on first use (its private key stored sealed under
 * ENCRYPTION_KEY), and every seal it has used, for checking what they sealed.
 */
export function createSealKeys(deps: {
  repository: Pick<TSigningRepository, 'sealInUse' | 'addSealIfNone' | 'allSeals' | 'replaceSeal'>;
  secrets: TSecretBox;
  installationName: string;
}) {
  const open = (row: TSealKeyRow): TSealCertificates => ({
    sealCertificate: new Uint8Array(row.sealCertificate),
    caCertificate: new Uint8Array(row.caCertificate),
    sealPrivateKey: new Uint8Array(Buffer.from(deps.secrets.open(row.privateKeyEnc), 'base64')),
  });
  // What is stored of a seal: its certificates, and its private key sealed.
  const rowOf = (seal: TSealCertificates, source: 'generated' | 'uploaded') => ({
    id: randomUUID(),
    source,
    sealCertificate: Buffer.from(seal.sealCertificate),
    caCertificate: Buffer.from(seal.caCertificate),
    privateKeyEnc: deps.secrets.seal(Buffer.from(seal.sealPrivateKey).toString('base64')),
  });
  return {
    async inUse(): Promise<TSealCertificates> {
      const existing = await deps.repository.sealInUse();
      if (existing) return open(existing);
      const made = await createSealCertificates(deps.installationName);
      await deps.repository.addSealIfNone(rowOf(made, 'generated'));
      // Whoever added first wins; everyone seals with the one that is stored.
      return open((await deps.repository.sealInUse())!);
    },

    /** The seal in use as an administrator sees it; null until the first one is made. */
    async describe(): Promise<TSealDescription | null> {
      const row = await deps.repository.sealInUse();
      return row ? { ...describeCertificate(new Uint8Array(row.sealCertificate)), source: row.source } : null;
    },

    /**
     * Seals from now on with the key and certificate in an uploaded PKCS #12 file; the seal used
     * until now is retired but kept, so what it sealed still verifies. A file that cannot seal is
     * refused with the reason (validation_failed, on the `file` field).
     */
    async useUploaded(p12: Uint8Array, password: string): Promise<TSealDescription> {
      let read: TSealCertificates;
      try {
        read = await readSealFile(p12, password);
      } catch (error) {
        if (error instanceof SealFileError) throw new AppError('validation_failed', error.message, { file: error.message });
        throw error;
      }
      await deps.repository.replaceSeal(rowOf(read, 'uploaded'));
      return { ...describeCertificate(read.sealCertificate), source: 'uploaded' };
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
