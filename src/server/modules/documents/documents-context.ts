import type { TDocument } from '../../../contract/documents.ts';
import { notFound } from '../../http/app-error.ts';
import type { TPdfCache } from '../../jobs/pdf-cache.ts';
import type { TFormatsService } from '../formats/index.ts';
import type { TQuotaService, TWorkLimits } from '../quota/index.ts';
import type { TDocumentRow, TDocumentsRepository } from './documents.repository.ts';
import type { TPdfService } from '../pdf/index.ts';

export function toDocument(row: TDocumentRow): TDocument {
  return {
    id: row.id,
    name: row.name,
    formatId: row.formatId,
    // A deleted format leaves formatId null; the list shows "Unknown" for it (docs/decisions.md).
    formatName: row.formatId ? row.formatName : 'Unknown',
    clientName: row.clientName,
    data: row.data,
    status: row.status,
    pdfSha256: row.pdfSha256,
    batchId: row.batchId,
    warnings: row.renderWarnings,
    test: row.testMode,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
  };
}

/** How long a test key's documents are kept. */
export const TEST_DOCUMENT_LIFETIME_MS = 7 * 24 * 60 * 60_000;

export const documentNotFound = () => notFound('Document');

/** What the documents service is built from (see `createDocumentsService`). */
export type TDocumentsDeps = {
  documents: TDocumentsRepository;
  formats: Pick<TFormatsService, 'currentSnapshot' | 'forgetCurrent'>;
  quota: TQuotaService;
  limits: Pick<TWorkLimits, 'assertMayCheck' | 'recordFailedCheck' | 'enter'>;
  pdf: TPdfService;
  cache: TPdfCache;
  log: { error: (obj: object, msg: string) => void };
  /** Told about each document made one at a time (webhooks). */
  events?: { documentCreated(ownerId: string, document: TDocument): Promise<void> };
};

/** The state every documents use case shares: its dependencies and the renders under way. */
export type TDocumentsContext = ReturnType<typeof createDocumentsContext>;

export function createDocumentsContext(deps: TDocumentsDeps) {
  // Several downloads of one document at once share one render.
  const rendering = new Map<string, Promise<Uint8Array>>();
  return { deps, rendering };
}
