import type { TSigningEmailContent, TSigningEmailRow, TSigningMail } from '../delivery/index.ts';
import {
  auditTrail,
  cancelSignatureRequest,
  createSignatureRequest,
  getSignatureRequest,
  remindSigners,
  requestsOfDocument,
  sealedPdf,
  signatureRequestDetail,
} from './owner-requests.ts';
import { batchSignatureProgress, sendBatchForSignature } from './batch-requests.ts';
import { createSigningWorker } from './request-progress.ts';
import { decline, linkIsOpen, sign, signingPdf, signingSession } from './signer-actions.ts';
import { SIGN_PATH, type TSigningBase, type TSigningContext, type TSigningDeps } from './signing-context.ts';
import { useCasesOf } from '../use-cases.ts';

export type { TSigningDeps } from './signing-context.ts';

/** What e-signing's emails carry when they are sent: the signer's link while it may still be used, or the sealed PDF. */
function signingMailOf({ deps, r }: TSigningBase): TSigningMail {
  return {
    async content(row: TSigningEmailRow): Promise<TSigningEmailContent | null> {
      const loaded = row.signatureRequestId ? await r.getRequest(row.ownerId, row.signatureRequestId) : undefined;
      if (!loaded) return null;
      const document = await deps.documents.get(row.ownerId, loaded.request.documentId);
      if (!document) return null;
      if (row.purpose === 'signed_copy') {
        const pdf = await r.sealedPdf(loaded.request.id);
        return pdf ? { name: `${document.name} (signed)`, content: { pdf: new Uint8Array(pdf) } } : null;
      }
      const signer = loaded.signers.find((s) => s.id === row.signerId);
      const open = loaded.request.status === 'sent' || loaded.request.status === 'partly_signed';
      if (!signer || !open || (signer.status !== 'notified' && signer.status !== 'viewed')) return null;
      const url = `${deps.publicUrl}${SIGN_PATH}${deps.secrets.open(signer.tokenEnc)}`;
      return { name: document.name, content: { signLink: { url, expiresAt: loaded.request.expiresAt } } };
    },
    async sent(row: TSigningEmailRow, smtpResponse: string): Promise<void> {
      if (!row.signatureRequestId) return;
      await r.appendEvent(row.signatureRequestId, {
        type: 'delivered',
        signerId: row.signerId,
        details: { email: row.purpose, smtpResponse: smtpResponse.slice(0, 200) },
      });
    },
  };
}

/**
 * E-signing: the owner's requests, the signer's page, and the worker that reminds, expires and
 * seals (docs/e-signing.md).
 */
export function createSigningService(deps: TSigningDeps) {
  const base: TSigningBase = { deps, r: deps.repository };
  const worker = createSigningWorker(base);
  const ctx: TSigningContext = { ...base, worker };
  const use = useCasesOf(ctx);
  return {
    create: use(createSignatureRequest),
    get: use(getSignatureRequest),
    detail: use(signatureRequestDetail),
    audit: use(auditTrail),
    ofDocument: use(requestsOfDocument),
    sealedPdf: use(sealedPdf),
    remind: use(remindSigners),
    sendBatch: use(sendBatchForSignature),
    batchProgress: use(batchSignatureProgress),
    cancel: use(cancelSignatureRequest),
    isOpen: use(linkIsOpen),
    session: use(signingSession),
    pdf: use(signingPdf),
    sign: use(sign),
    decline: use(decline),
    mail: signingMailOf(base),
    start: () => worker.start(),
    async stop() {
      await worker.stop();
      await deps.sealPool.close();
    },
  };
}
export type TSigningService = ReturnType<typeof createSigningService>;
