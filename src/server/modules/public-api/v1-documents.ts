import type { z } from 'zod';
import type { TApiKeyMode } from '../../../contract/api-keys.ts';
import type { ZEmailDocumentBody } from '../../../contract/delivery.ts';
import { ZErrorCode } from '../../../contract/errors.ts';
import type { TV1DocumentListQuery, ZGenerateBody, ZV1CreateDocumentBody } from '../../../contract/public-api.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { decodePageCursor, pageOf } from '../../http/page-cursor.ts';
import type { TApiAnswer } from './idempotency.ts';
import type { TPublicApiDeps } from './v1-deps.ts';
import { toV1Document, type TV1Urls } from './v1-shapes.ts';

/** A background document that has not appeared after this long was lost with a stopped server. */
const ASYNC_LOST_AFTER_MS = 10 * 60_000;

/** The caller's API key, as the document use cases need it. */
/** The key's workspace, its mode, and the person it acts as (who made it). */
export type TV1Caller = { ownerId: string; actorId: string; mode: TApiKeyMode };

/** Documents through the API: generated now or in the background, listed, read, emailed. */
export function createV1Documents(deps: TPublicApiDeps, urls: TV1Urls) {
  const testMode = (caller: TV1Caller) => caller.mode === 'test';

  return {
    /**
     * Generates a document: 201 with it once the PDF exists, or (`respondAsync`) 202 at once while
     * it is made in the background, its outcome kept for GET to answer.
     */
    async create(caller: TV1Caller, body: z.output<typeof ZV1CreateDocumentBody>, respondAsync: boolean): Promise<TApiAnswer> {
      if (respondAsync) {
        const { ownerId } = caller;
        const { id } = await deps.documents.createLater(ownerId, body, { testMode: testMode(caller), createdBy: caller.actorId }, async (outcome) => {
          const error =
            'error' in outcome
              ? outcome.error instanceof AppError
                ? { code: outcome.error.code, message: outcome.error.message }
                : { code: 'unprocessable', message: 'The document could not be generated. Send the request again.' }
              : null;
          await deps.publicApi.asyncDocuments.finished(ownerId, id, error);
        });
        await deps.publicApi.asyncDocuments.started(ownerId, id, caller.mode);
        return { status: 202, body: { id, status: 'pending' }, location: urls.document(id) };
      }
      const document = await deps.documents.create(caller.ownerId, body, { testMode: testMode(caller), createdBy: caller.actorId });
      return { status: 201, body: toV1Document(urls, document), location: urls.document(document.id) };
    },

    /** The landing page's short form: the same generation, answered with its snake_case names. */
    async generate(caller: TV1Caller, body: z.output<typeof ZGenerateBody>): Promise<TApiAnswer> {
      const document = await deps.documents.create(
        caller.ownerId,
        { formatId: body.template_id, data: body.data },
        { testMode: testMode(caller), createdBy: caller.actorId },
      );
      return {
        status: 201,
        body: { id: document.id, status: 'generated', document_url: `${urls.document(document.id)}/pdf` },
        location: urls.document(document.id),
      };
    },

    async list(caller: TV1Caller, query: TV1DocumentListQuery) {
      const { limit, cursor, createdAfter, ...filters } = query;
      const { documents, rows } = await deps.documents.page(caller.ownerId, {
        ...filters,
        limit: limit + 1,
        after: decodePageCursor(cursor),
        ...(createdAfter ? { createdAfter: new Date(createdAfter) } : {}),
        scope: caller.mode,
      });
      return { data: documents.slice(0, limit).map((d) => toV1Document(urls, d)), nextCursor: pageOf(rows, limit).nextCursor };
    },

    /** The document, or a pending one still being made; a failed or lost one answers its error. */
    async get(caller: TV1Caller, id: string) {
      const document = await deps.documents.get(caller.ownerId, id, caller.mode);
      if (document) return { status: 200 as const, body: toV1Document(urls, document) };
      const pending = await deps.publicApi.asyncDocuments.get(caller.ownerId, id, caller.mode);
      if (!pending) throw notFound('Document');
      if (pending.status === 'failed' && pending.error) {
        const code = ZErrorCode.safeParse(pending.error.code).data ?? 'unprocessable';
        throw new AppError(code, pending.error.message);
      }
      if (Date.now() - pending.createdAt.getTime() > ASYNC_LOST_AFTER_MS) {
        throw new AppError('unprocessable', 'The server stopped before this document was made. Send the request again.');
      }
      return { status: 202 as const, body: { id: pending.id, status: 'pending' as const } };
    },

    async pdf(caller: TV1Caller, id: string) {
      return deps.documents.pdf(caller.ownerId, id, caller.mode);
    },

    async delete(caller: TV1Caller, id: string): Promise<void> {
      await deps.documents.delete(caller.ownerId, id, caller.mode);
    },

    /** Queues an email with the document's PDF; the answer points to the delivery to poll. */
    async email(caller: TV1Caller, id: string, body: z.output<typeof ZEmailDocumentBody>) {
      const delivery = await deps.deliveries.email(caller.ownerId, id, body, caller.actorId, caller.mode);
      return { delivery, location: urls.delivery(delivery.id) };
    },

    async delivery(caller: TV1Caller, id: string) {
      return deps.deliveries.get(caller.ownerId, id, caller.mode);
    },
  };
}
