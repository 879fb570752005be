import { createBatchDownloads } from './batch-downloads.ts';
import { createBatchStatus } from './batch-status.ts';
import type { TBulkServiceDeps } from './bulk-deps.ts';
import { createDraftUploads } from './draft-uploads.ts';
import { createChunkProcessor } from './process-chunk.ts';
import { createResumeUnfinished } from './resume-unfinished.ts';
import { createBatchStarts } from './start-batch.ts';

/** The bulk use cases as one service object: what the routes, the worker and the public API call. */
export function createBulkService(deps: TBulkServiceDeps) {
  const drafts = createDraftUploads(deps);
  const status = createBatchStatus(deps);
  return {
    ...drafts,
    ...createBatchStarts(deps, drafts),
    ...status,
    ...createBatchDownloads(deps, status),
    ...createChunkProcessor(deps),
    ...createResumeUnfinished(deps),
  };
}
export type TBulkService = ReturnType<typeof createBulkService>;
