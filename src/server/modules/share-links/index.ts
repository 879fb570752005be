/*
 * The share-links module's front door: what the rest of the server may use. Everything else in
 * this folder is the module's own; the repository factory is here for the composition roots only.
 */
export { createShareLinksRepository } from './share-links.repository.ts';
export { sharedDocumentRoutes, shareLinksRoutes } from './share-links.routes.ts';
export { createShareLinksService, SHARE_PATH, type TShareLinksService } from './share-links.service.ts';
