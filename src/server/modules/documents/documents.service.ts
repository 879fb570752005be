import { admit, createDocument, createDocumentLater } from './create-document.ts';
import { documentPdf, signedDocumentPdf, signingFields } from './document-pdf.ts';
import { createDocumentsContext, type TDocumentsDeps } from './documents-context.ts';
import { deleteDocument, deleteExpired, documentsPage, getDocument, listDocuments } from './stored-documents.ts';
import { useCasesOf } from '../use-cases.ts';
import type { TDocumentStatus } from '../../../contract/documents.ts';

export { type TDocumentsDeps } from './documents-context.ts';

/** Making, reading and deleting documents, each use case in its own file. */
export function createDocumentsService(deps: TDocumentsDeps) {
  const ctx = createDocumentsContext(deps);
  const use = useCasesOf(ctx);
  return {
    admit: use(admit),
    create: use(createDocument),
    createLater: use(createDocumentLater),
    get: use(getDocument),
    page: use(documentsPage),
    deleteExpired: use(deleteExpired),
    list: use(listDocuments),
    delete: use(deleteDocument),
    pdf: use(documentPdf),
    signedPdf: use(signedDocumentPdf),
    signingFields: use(signingFields),
    setStatus: (ownerId: string, id: string, status: TDocumentStatus) => deps.documents.setStatus(ownerId, id, status),
  };
}
export type TDocumentsService = ReturnType<typeof createDocumentsService>;
