/*
 * The signing module's front door: what the rest of the server may use. Everything else in this
 * folder (the seal, the audit trail, the repository's rows) is the module's own; the repository
 * and seal-key factories are here for the composition roots only.
 */
export { createSealKeys, type TSealKeys } from './seal-keys.ts';
export { createSigningRepository, type TSigningRepository } from './signing.repository.ts';
export { createPdfVerifier, type TPdfVerifier } from './verify-pdf.ts';
export { verifyRoutes } from './verify.routes.ts';
