import type { TDocumentsService } from '../documents/documents.service.ts';
import type { TPublicApiRepository } from './public-api.repository.ts';

/** Raw request rows are kept this long, then only their daily roll-up remains. */
export const API_REQUEST_RETENTION_DAYS = 7;
const DAY_MS = 24 * 60 * 60_000;

/** Housekeeping for the public API, run at start and every hour. */
export function createPublicApiService(deps: { repository: TPublicApiRepository; documents: Pick<TDocumentsService, 'deleteExpired'> }) {
  const r = deps.repository;
  return {
    /** Each key's requests: counted per minute for the rate limit, and logged for the usage chart. */
    requests: {
      countInWindow: r.countRequest,
      record: r.recordRequest,
    },
    /** Where Idempotency-Keys and their first answers are kept. */
    idempotency: {
      claim: r.claimIdempotencyKey,
      complete: r.completeIdempotencyKey,
      release: r.releaseIdempotencyKey,
    },
    /** Documents asked for with `Prefer: respond-async`, until they exist. */
    asyncDocuments: {
      started: r.insertAsyncDocument,
      finished: r.finishAsyncDocument,
      get: r.asyncDocument,
    },

    async sweep(now = new Date()): Promise<void> {
      await deps.repository.sweep(now, new Date(now.getTime() - API_REQUEST_RETENTION_DAYS * DAY_MS), new Date(now.getTime() - DAY_MS));
      await deps.repository.sweepAsyncDocuments(new Date(now.getTime() - DAY_MS));
      await deps.documents.deleteExpired(now);
    },
  };
}
export type TPublicApiService = ReturnType<typeof createPublicApiService>;
