import { createMergeContext, type TMailMergeDeps } from './merge-context.ts';
import { mergeOptions } from './merge-options.ts';
import { previewMerge } from './merge-preview.ts';
import { batchCells, mergeRows } from './merge-rows.ts';
import { startMerge } from './start-merge.ts';
import { useCasesOf } from '../use-cases.ts';

/**
 * "Email each document" of a finished batch: every document goes to the address in one of the
 * spreadsheet's columns, with the subject and message filled from its own row. Each row becomes
 * one delivery, at most once (a second click or a restart finds the rows already there), and the
 * delivery queue sends them at the owner's send rate.
 */
export function createMailMergeService(deps: TMailMergeDeps) {
  const ctx = createMergeContext(deps);
  const use = useCasesOf(ctx);
  return {
    options: use(mergeOptions),
    preview: use(previewMerge),
    start: use(startMerge),
    rows: use(mergeRows),
    batchCells: use(batchCells),
    /** Throws not_found unless the owner has this batch (a draft is not one yet). */
    assertBatch: async (ownerId: string, jobId: string): Promise<void> => void (await ctx.jobOf(ownerId, jobId)),
  };
}
export type TMailMergeService = ReturnType<typeof createMailMergeService>;
