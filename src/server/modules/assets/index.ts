/*
 * The assets module's front door: what the rest of the server may use. Everything else in this
 * folder (use cases, the context, the image checks) is the module's own.
 */
export { createAssetsRepository, type TAssetsRepository } from './assets.repository.ts';
export { assetsRoutes, MAX_IMAGE_UPLOAD_BYTES } from './assets.routes.ts';
export { ASSET_URL_PREFIX, assetUrl, createAssetsService, type TAssetsDeps, type TAssetsService } from './assets.service.ts';
export { connectionFailureMessage, createSafeFetcher, type TSafeFetch } from './safe-fetch.ts';
