/*
 * The assets module's front door: what the rest of the server may use. Everything else in this
 * folder (use cases, the context, the image checks) is the module's own.
 */
export { createAssetsRepository } from './assets.repository.ts';
export { assetsRoutes } from './assets.routes.ts';
export { createAssetsService, type TAssetsService } from './assets.service.ts';
export { connectionFailureMessage, createSafeFetcher } from './safe-fetch.ts';
