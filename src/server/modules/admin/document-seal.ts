import { MAX_SEAL_FILE_BYTES, TIMESTAMP_URL_SETTING, type TSealCertificate, type TSealSettings, type TSealUpload } from '../../../contract/admin.ts';
import { AppError } from '../../http/app-error.ts';
import type { TSystemService } from '../system/index.ts';
import type { TAdminRepository } from './admin.repository.ts';
import type { TAdminService } from './admin.service.ts';

type TSealDescription = Omit<TSealCertificate, 'validUntil'> & { validUntil: Date };

/** What this module needs of the installation's seal (the signing module's seal keys). */
export type TSealKeysPort = {
  describe(): Promise<TSealDescription | null>;
  /** Refuses a file that cannot seal with a validation_failed AppError saying why. */
  useUploaded(p12: Uint8Array, password: string): Promise<TSealDescription>;
};

const TIMESTAMP_DESCRIPTION = 'The RFC 3161 timestamp server seals are stamped by: seals carry a trusted time (PAdES B-T) when set.';
const view = (seal: TSealDescription): TSealCertificate => ({ ...seal, validUntil: seal.validUntil.toISOString() });

/** Admin Panel → Settings → Document seal: the certificate completed documents are sealed with, and their timestamp server. */
export function createDocumentSeal(deps: {
  keys: TSealKeysPort;
  system: Pick<TSystemService, 'timestampUrl' | 'forgetPlanCatalogue'>;
  adminRepository: Pick<TAdminRepository, 'upsertSetting' | 'deleteSetting'>;
  audit: TAdminService['audit'];
}) {
  async function settings(): Promise<TSealSettings> {
    const [seal, timestampUrl] = await Promise.all([deps.keys.describe(), deps.system.timestampUrl()]);
    return { certificate: seal ? view(seal) : null, timestampUrl };
  }

  return {
    settings,

    async saveTimestampUrl(actorId: string, timestampUrl: string | null): Promise<TSealSettings> {
      const before = await deps.system.timestampUrl();
      if (timestampUrl) await deps.adminRepository.upsertSetting(TIMESTAMP_URL_SETTING, timestampUrl, TIMESTAMP_DESCRIPTION);
      else await deps.adminRepository.deleteSetting(TIMESTAMP_URL_SETTING);
      deps.system.forgetPlanCatalogue();
      if (before !== timestampUrl) await deps.audit(actorId, 'seal.timestamp_url', 'setting', TIMESTAMP_URL_SETTING, { from: before, to: timestampUrl });
      return settings();
    },

    /** Seals from now on with the uploaded certificate; the password is never stored or logged. */
    async upload(actorId: string, input: TSealUpload): Promise<TSealSettings> {
      const file = new Uint8Array(Buffer.from(input.file, 'base64'));
      if (file.length > MAX_SEAL_FILE_BYTES) {
        const message = 'That file is too large for a PKCS #12 file (64 KB at most).';
        throw new AppError('validation_failed', message, { file: message });
      }
      const seal = await deps.keys.useUploaded(file, input.password);
      await deps.audit(actorId, 'seal.upload', 'seal', seal.subject, { subject: seal.subject, issuer: seal.issuer, validUntil: seal.validUntil.toISOString() });
      return settings();
    },
  };
}
