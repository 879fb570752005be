import type { z } from 'zod';
import type { ZV1CreateSignatureRequestBody } from '../../../contract/signature-requests.ts';
import type { TCaller } from '../signing/index.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TApiAnswer } from './idempotency.ts';
import type { TPublicApiDeps } from './v1-deps.ts';
import type { TV1Caller } from './v1-documents.ts';
import type { TV1Urls } from './v1-shapes.ts';

/** Every request is live (test keys may not send one), so a test key finds none: 404, as anything another key made. */
function liveOwner(caller: TV1Caller): string {
  if (caller.mode === 'test') throw notFound('Signature request');
  return caller.ownerId;
}

/** Signature requests through the API: sent for a document, or for one made now from a format. */
export function createV1Signing(deps: TPublicApiDeps, urls: TV1Urls) {
  return {
    async create(caller: TV1Caller, body: z.output<typeof ZV1CreateSignatureRequestBody>, from: TCaller): Promise<TApiAnswer> {
      // Signers get real email: a test key, which makes throwaway documents, may not send any.
      if (caller.mode === 'test') {
        throw new AppError('forbidden', 'Signature requests need a live key: test keys would email real people. Use a key that starts with fw_live_.');
      }
      const { documentId, formatId, data, ...request } = body;
      let id = documentId;
      if (formatId !== undefined) {
        id = (await deps.documents.create(caller.ownerId, { formatId, data: data ?? {} }, { createdBy: caller.actorId })).id;
      } else if (!id || !(await deps.documents.get(caller.ownerId, id, caller.mode))) {
        throw notFound('Document');
      }
      const created = await deps.signing.create(caller.ownerId, id!, request, { ...from, actorId: caller.actorId });
      return { status: 201, body: created, location: urls.signatureRequest(created.id) };
    },
    detail: (caller: TV1Caller, id: string) => deps.signing.detail(liveOwner(caller), id),
    audit: (caller: TV1Caller, id: string) => deps.signing.audit(liveOwner(caller), id),
    sealedPdf: (caller: TV1Caller, id: string) => deps.signing.sealedPdf(liveOwner(caller), id),
    remind: (caller: TV1Caller, id: string, from: TCaller) => deps.signing.remind(liveOwner(caller), id, from),
    cancel: (caller: TV1Caller, id: string, from: TCaller) => deps.signing.cancel(liveOwner(caller), id, from),
  };
}
