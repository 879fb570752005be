/*
 * The signing module's front door: what the rest of the server may use. Everything else in this
 * folder is the module's own; the repository factory is here for the composition roots only.
 */
export { createSealKeys, type TSealKeys } from './seal-keys.ts';
export { createSigningRepository } from './signing.repository.ts';
export { callerOf, signatureRequestsRoutes, signerRoutes } from './signing.routes.ts';
export { SIGN_PATH, type TCaller } from './signing-context.ts';
export { createSigningService, type TSigningService } from './signing.service.ts';
