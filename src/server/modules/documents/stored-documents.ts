import { documentAccessibility } from '../../../contract/accessibility-check.ts';
import type { TDocument, TDocumentListQuery } from '../../../contract/documents.ts';
import { AppError } from '../../http/app-error.ts';
import type { TDocumentRow, TDocumentScope, TDocumentsRepository } from './documents.repository.ts';
import { documentNotFound, toDocument, type TDocumentsContext } from './documents-context.ts';

/** `scope`: an API key's mode, which sees only documents made in that mode (see TDocumentScope). */
export async function getDocument({ deps }: TDocumentsContext, ownerId: string, id: string, scope?: TDocumentScope): Promise<TDocument | undefined> {
  const found = await deps.documents.getWithSnapshot(ownerId, id, scope);
  return found && { ...toDocument(found.document), accessibility: documentAccessibility(found.snapshot.content, found.document.renderWarnings) };
}

/** A page of the owner's documents, with the rows that carry the next page's cursor. */
export async function documentsPage(
  { deps }: TDocumentsContext,
  ownerId: string,
  query: Parameters<TDocumentsRepository['page']>[1],
): Promise<{ documents: TDocument[]; rows: TDocumentRow[] }> {
  const rows = await deps.documents.page(ownerId, query);
  return { documents: rows.map(toDocument), rows };
}

/** Drops test-key documents past their 7 days, and their cached PDFs. */
export async function deleteExpired({ deps }: TDocumentsContext, now: Date): Promise<number> {
  const ids = await deps.documents.deleteExpired(now);
  await Promise.all(ids.map((id) => deps.cache.delete(id)));
  return ids.length;
}

export async function listDocuments({ deps }: TDocumentsContext, ownerId: string, page: TDocumentListQuery): Promise<TDocument[]> {
  return (await deps.documents.list(ownerId, page)).map(toDocument);
}

/** Deletes a document and its cached PDF; one of a batch still generating is refused. */
export async function deleteDocument({ deps }: TDocumentsContext, ownerId: string, id: string, scope?: TDocumentScope): Promise<void> {
  const outcome = await deps.documents.delete(ownerId, id, scope);
  if (outcome === 'not_found') throw documentNotFound();
  if (outcome === 'deleted') await deps.cache.delete(id);
  if (outcome === 'batch_running') {
    throw new AppError(
      'conflict',
      'This document belongs to a batch that is still generating. Delete it once the batch has finished, or cancel the batch first.',
    );
  }
}
