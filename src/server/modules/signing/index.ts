/*
 * The signing module's front door: what the rest of the server may use. Everything else in this
 * folder (the seal, the audit trail, the repository's rows) is the module's own; the repository
 * and seal-key factories are here for the composition roots only.
 */
export { appendPdf } from './append-pages.ts';
export { certificateRender } from './certificate.ts';
export { createSealCertificates } from './seal/certificates.ts';
export { sealPdf } from './seal/seal-pdf.ts';
export { createSealKeys, type TSealKeys } from './seal-keys.ts';
export { createSealPool } from './seal/seal-pool.ts';
export { createSigningRepository } from './signing.repository.ts';
export { callerOf, signatureRequestsRoutes, signerRoutes } from './signing.routes.ts';
export { SIGN_PATH, type TCaller } from './signing-context.ts';
export { createSigningService, type TSigningService } from './signing.service.ts';
export { createPdfVerifier } from './verify-pdf.ts';
export { verifyRoutes } from './verify.routes.ts';
