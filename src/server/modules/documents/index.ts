/*
 * The documents module's front door: what the rest of the server may use. Everything else in
 * this folder (use cases, the context, the repository's rows) is the module's own.
 */
export { createDocumentsRepository, scopeFilter, type TDocumentScope } from './documents.repository.ts';
export { documentsRoutes } from './documents.routes.ts';
export { createDocumentsService, type TDocumentsService } from './documents.service.ts';
