/*
 * The documents module's front door: what the rest of the server may use. Everything else in
 * this folder (use cases, the context, the repository's rows) is the module's own.
 */
export {
  createDocumentsRepository,
  QuotaExceededError,
  scopeFilter,
  type TDocumentRow,
  type TDocumentScope,
  type TDocumentsRepository,
} from './documents.repository.ts';
export { documentsRoutes } from './documents.routes.ts';
export { createDocumentsService, TEST_DOCUMENT_LIFETIME_MS, toDocument, type TDocumentsDeps, type TDocumentsService } from './documents.service.ts';
export { createPdfService, expansionChecker, sha256Hex, type TPdfService } from './pdf.service.ts';
