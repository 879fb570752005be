import type { TBulkServiceDeps } from './bulk-deps.ts';
import { toJob } from './bulk-job-view.ts';

/** Completes a job whose rows are all settled, and tells the owner's webhooks how it ended. */
export async function finishIfDone(deps: TBulkServiceDeps, ownerId: string, jobId: string): Promise<void> {
  if (!(await deps.bulk.finishIfDone(ownerId, jobId))) return;
  deps.log.info({ jobId }, 'bulk job completed');
  const row = await deps.bulk.get(ownerId, jobId);
  if (row) await deps.events?.batchFinished(ownerId, toJob(row));
}
