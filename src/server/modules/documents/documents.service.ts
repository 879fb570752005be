import { randomUUID } from 'node:crypto';
import {
  DEFAULT_CLIENT_NAME,
  requiredFieldsMessage,
  type TDocument,
  clientNameOf,
  documentNameFor,
  type TDocumentListQuery,
} from '../../../contract/documents.ts';
import type { z } from 'zod';
import type { ZCreateDocumentBody } from '../../../contract/documents.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TFormatsRepository } from '../formats/formats.repository.ts';
import type { TPdfCache } from '../../jobs/pdf-cache.ts';
import type { TSnapshotRow } from '../formats/formats.repository.ts';
import type { TQuotaService } from '../quota/quota.service.ts';
import type { TWorkLimits } from '../quota/work-limits.ts';
import { QuotaExceededError, type TDocumentRow, type TDocumentScope, type TDocumentsRepository } from './documents.repository.ts';
import { sha256Hex, type TPdfService } from './pdf.service.ts';

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
  };
}

/** How long a test key's documents are kept. */
export const TEST_DOCUMENT_LIFETIME_MS = 7 * 24 * 60 * 60_000;

const documentNotFound = () => notFound('Document');

export function createDocumentsService(deps: {
  documents: TDocumentsRepository;
  formats: TFormatsRepository;
  quota: TQuotaService;
  limits: Pick<TWorkLimits, 'assertMayCheck' | 'recordFailedCheck' | 'enter'>;
  pdf: TPdfService;
  cache: TPdfCache;
  log: { error: (obj: object, msg: string) => void };
  /** Told about each document made one at a time (webhooks). */
  events?: { documentCreated(ownerId: string, document: TDocument): Promise<void> };
}) {
  // Several downloads of one document at once share one render.
  const rendering = new Map<string, Promise<Uint8Array>>();
  async function renderStored(ownerId: string, document: TDocumentRow, snapshot: TSnapshotRow): Promise<Uint8Array> {
    const { pdf } = await deps.pdf.render({
      ownerId,
      format: { content: snapshot.content, placeholders: snapshot.placeholders },
      data: document.data,
      title: document.name,
      creationDate: document.createdAt,
      testMode: document.testMode,
    });
    const sha = sha256Hex(pdf);
    if (sha !== document.pdfSha256) {
      // A renderer change altered old output; the bytes are still the document's content.
      deps.log.error({ documentId: document.id, stored: document.pdfSha256, rendered: sha }, 'document PDF hash mismatch');
    } else {
      await deps.cache.put(document.id, pdf);
    }
    return pdf;
  }

  type TPrepared = Awaited<ReturnType<typeof prepare>>;
  async function prepare(ownerId: string, body: z.output<typeof ZCreateDocumentBody>, testMode: boolean) {
    const found = await deps.formats.currentSnapshot(ownerId, body.formatId);
    if (!found) throw new AppError('not_found', 'Format not found.');
    const { format, snapshot } = found;
    // The cheap refusals come before any checking: a user with no quota left, or who keeps
    // sending data that fails, cannot make the server work.
    const { limit } = testMode ? { limit: 0 } : await deps.quota.assertCanGenerate(ownerId);
    await deps.limits.assertMayCheck(ownerId);
    const check = await deps.pdf.checkData(ownerId, snapshot.placeholders, body.data, snapshot.content);
    if (check.missing.length > 0 || Object.keys(check.fields).length > 0) await deps.limits.recordFailedCheck(ownerId);
    if (check.missing.length > 0) {
      throw new AppError('validation_failed', requiredFieldsMessage(check.missing), check.fields);
    }
    if (Object.keys(check.fields).length > 0) {
      const [[key, first] = ['', '']] = Object.entries(check.fields);
      // A list's cell is named by its path (items[3].qty), so an API client knows which row to fix.
      const where = key.includes('[') ? `${key}: ` : '';
      throw new AppError('validation_failed', `Please correct the highlighted fields. ${where}${first}`, check.fields);
    }
    const createdAt = new Date();
    const name =
      body.name || documentNameFor({ name: format.name, documentNamePattern: snapshot.content.documentNamePattern }, check.values, createdAt.toISOString().slice(0, 10));
    const clientName = body.clientName || clientNameOf(check.values) || DEFAULT_CLIENT_NAME;
    return { format, snapshot, values: check.values, limit, createdAt, name, clientName };
  }

  async function produce(ownerId: string, prepared: TPrepared, id: string, testMode: boolean): Promise<TDocument> {
    const { format, snapshot, values, limit, createdAt, name, clientName } = prepared;
    // The render thread keeps the PDF in the cache under the new document's id, so the bytes
    // never cross to this thread; a document that is then refused leaves no cache entry.
    const { sha256, warnings } = await deps.pdf.renderToCache(
      {
        ownerId,
        format: { content: snapshot.content, placeholders: snapshot.placeholders },
        data: values,
        title: name,
        creationDate: createdAt,
        testMode,
      },
      deps.cache.fileOf(id),
    );
    try {
      const row = await deps.documents.createCounted(ownerId, limit, {
        id,
        formatId: format.id,
        formatName: format.name,
        formatVersion: format.version,
        snapshotId: snapshot.id,
        name,
        clientName,
        data: values,
        status: 'generated',
        pdfSha256: sha256,
        renderWarnings: warnings,
        testMode,
        expiresAt: testMode ? new Date(createdAt.getTime() + TEST_DOCUMENT_LIFETIME_MS) : null,
        createdAt,
      });
      const document = toDocument(row);
      await deps.events?.documentCreated(ownerId, document);
      return document;
    } catch (error) {
      await deps.cache.delete(id);
      if (error instanceof QuotaExceededError) throw deps.quota.generationsExceeded(limit, 0);
      throw error;
    }
  }

  return {
    /**
     * Admits a request to make a document before its body is read: refused when the user keeps
     * sending data that fails, or has too many in progress. Call the answer when it is done.
     */
    async admit(ownerId: string, bodyBytes: number | undefined): Promise<() => void> {
      await deps.limits.assertMayCheck(ownerId);
      return deps.limits.enter('document', ownerId, bodyBytes);
    },

    /**
     * Checks, renders and stores one document. `id` lets an asynchronous request name the document
     * before it exists; a test key's document (`testMode`) is watermarked, free, and kept 7 days.
     */
    async create(
      ownerId: string,
      body: z.output<typeof ZCreateDocumentBody>,
      options: { id?: string; testMode?: boolean } = {},
    ): Promise<TDocument> {
      const testMode = options.testMode ?? false;
      return produce(ownerId, await prepare(ownerId, body, testMode), options.id ?? randomUUID(), testMode);
    },

    /**
     * Checks now and renders in the background: the id is known at once, and `settled` hears how
     * the document ended. Bad data and an exhausted quota are still refused here, before any work.
     */
    async createLater(
      ownerId: string,
      body: z.output<typeof ZCreateDocumentBody>,
      options: { testMode?: boolean },
      settled: (outcome: { document: TDocument } | { error: unknown }) => Promise<void>,
    ): Promise<{ id: string }> {
      const testMode = options.testMode ?? false;
      const prepared = await prepare(ownerId, body, testMode);
      const id = randomUUID();
      setImmediate(() => {
        produce(ownerId, prepared, id, testMode).then(
          (document) => settled({ document }),
          (error: unknown) => settled({ error }),
        ).catch((error: unknown) => deps.log.error({ err: error, documentId: id }, 'could not record how a background document ended'));
      });
      return { id };
    },

    /** `scope`: an API key's mode, which sees only documents made in that mode (see TDocumentScope). */
    async get(ownerId: string, id: string, scope?: TDocumentScope): Promise<TDocument | undefined> {
      const row = await deps.documents.get(ownerId, id, scope);
      return row && toDocument(row);
    },

    async page(ownerId: string, query: Parameters<TDocumentsRepository['page']>[1]): Promise<{ documents: TDocument[]; rows: TDocumentRow[] }> {
      const rows = await deps.documents.page(ownerId, query);
      return { documents: rows.map(toDocument), rows };
    },

    /** Drops test-key documents past their 7 days, and their cached PDFs. */
    async deleteExpired(now: Date): Promise<number> {
      const ids = await deps.documents.deleteExpired(now);
      await Promise.all(ids.map((id) => deps.cache.delete(id)));
      return ids.length;
    },

    async list(ownerId: string, page: TDocumentListQuery): Promise<TDocument[]> {
      return (await deps.documents.list(ownerId, page)).map(toDocument);
    },

    async delete(ownerId: string, id: string, scope?: TDocumentScope): Promise<void> {
      const outcome = await deps.documents.delete(ownerId, id, scope);
      if (outcome === 'not_found') throw documentNotFound();
      if (outcome === 'deleted') await deps.cache.delete(id);
      if (outcome === 'batch_running') {
        throw new AppError('conflict', 'This document belongs to a batch that is still generating. Delete it once the batch has finished, or cancel the batch first.');
      }
    },

    /** The document's bytes: from the cache when it has them, else rendered again from the snapshot. */
    async pdf(ownerId: string, id: string, scope?: TDocumentScope): Promise<{ document: TDocument; bytes: Uint8Array }> {
      const found = await deps.documents.getWithSnapshot(ownerId, id, scope);
      if (!found) throw documentNotFound();
      const { document, snapshot } = found;
      const cached = await deps.cache.get(document.id, document.pdfSha256);
      if (cached) return { document: toDocument(document), bytes: cached };
      let pending = rendering.get(document.id);
      if (!pending) {
        pending = renderStored(ownerId, document, snapshot).finally(() => rendering.delete(document.id));
        rendering.set(document.id, pending);
      }
      return { document: toDocument(document), bytes: await pending };
    },
  };
}
export type TDocumentsService = ReturnType<typeof createDocumentsService>;
