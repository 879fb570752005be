import type { TBulkServiceDeps } from './bulk-deps.ts';
import { finishIfDone } from './finish-job.ts';

/** How long spooled PDFs are kept for the batch's ZIP. */
export const SPOOL_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export function createResumeUnfinished(deps: TBulkServiceDeps) {
  return {
    /** Re-queues the chunks of jobs a stopped or crashed process left unfinished, and sweeps old spools. */
    async resumeUnfinished(): Promise<number> {
      await deps.spool.sweep(SPOOL_MAX_AGE_MS);
      const jobs = await deps.bulk.unfinishedJobs();
      if (jobs.length === 0) return 0;
      const sender = await deps.chunks();
      for (const job of jobs) {
        const seqs = await deps.bulk.pendingSeqs(job.ownerId, job.id);
        if (seqs.length === 0) await finishIfDone(deps, job.ownerId, job.id);
        else await sender.requeue(job.ownerId, job.id, seqs);
      }
      return jobs.length;
    },
  };
}
