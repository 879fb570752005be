import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { TVerifyResult } from '../../../contract/signature-requests.ts';
import { AppError } from '../../http/app-error.ts';
import { checkChain } from './audit-trail.ts';
import type { TSealKeys } from './seal-keys.ts';
import { verifySeal, type TSealCheck, type TTrustedSeal } from './seal/verify-seal.ts';
import type { TSigningRepository } from './signing.repository.ts';

/** PDF readers accept the header anywhere in the first kilobyte, so a file is judged the same way. */
const PDF_HEADER_WITHIN = 1024;

const NO_RECORD = 'This PDF carries this installation’s seal, but no completed request matches it.';

function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, PDF_HEADER_WITHIN)).includes('%PDF-', 0, 'latin1');
}

/**
 * What /verify says of a PDF anyone may hold: whether this installation sealed it and it is
 * unchanged since, and, found by the file's own SHA-256, the request it completed and whether that
 * request's audit trail is still whole. A good seal alone is not enough: the file must also be one
 * a completed request here produced, so a seal lifted from the database's keys onto another file
 * (or a request since removed) does not pass.
 */
export function createPdfVerifier(deps: {
  repository: Pick<TSigningRepository, 'findSealed'>;
  sealKeys: Pick<TSealKeys, 'trusted'>;
  /** The name of the document a request was made for; the request row holds only its id. */
  documentName: (ownerId: string, documentId: string) => Promise<string | undefined>;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** Where the seal is checked: the seal thread, off the event loop. */
  checkSeal?: (pdf: Uint8Array, trusted: TTrustedSeal[]) => Promise<TSealCheck>;
}) {
  const checkSeal = deps.checkSeal ?? verifySeal;
  return {
    async verify(bytes: Uint8Array): Promise<TVerifyResult> {
      if (bytes.length === 0) throw new AppError('bad_request', 'The file is empty. Choose the signed PDF.', { file: 'The file is empty.' });
      if (!isPdf(bytes)) throw new AppError('unsupported_media_type', 'This file is not a PDF. Choose the signed PDF.', { file: 'Not a PDF.' });
      const sha256 = createHash('sha256').update(bytes).digest('hex');

      const trusted = await deps.sealKeys.trusted();
      let seal: TSealCheck;
      try {
        seal = await checkSeal(bytes, trusted);
      } catch (error) {
        // A file built to trip the parser is still only a PDF whose seal does not hold. Logged, as
        // the same throw would come from a stored certificate Node cannot read.
        deps.log.warn({ err: error }, 'a seal could not be checked');
        seal = { valid: false, reason: 'The seal is damaged.' };
      }
      if (!seal.valid) return { valid: false, reason: seal.reason, sha256, request: null };

      const found = await deps.repository.findSealed(sha256);
      if (!found) return { valid: false, reason: NO_RECORD, sha256, request: null };
      const { request, signers, trail } = found;
      const chain = checkChain(trail.events, trail);
      const completed = request.status === 'completed';
      return {
        valid: completed,
        reason: completed ? null : NO_RECORD,
        sha256,
        request: {
          documentName: (await deps.documentName(request.ownerId, request.documentId)) ?? 'Document',
          status: request.status,
          completedAt: request.completedAt?.toISOString() ?? null,
          signers: signers.map((signer) => ({ name: signer.name, email: signer.email, signedAt: signer.signedAt?.toISOString() ?? null })),
          auditIntact: chain.intact,
        },
      };
    },
  };
}
export type TPdfVerifier = ReturnType<typeof createPdfVerifier>;
