/**
 * "Export my data": one ZIP of everything the account holds, written while it is read (the batch
 * ZIP's writer), so memory stays flat whatever the account's size. A small account's export is
 * the answer itself; a large one's is built by the job queue into a file the owner downloads.
 */
import { createExportContext, type TAccountExportDeps } from './export-context.ts';
import { startWorking } from './export-jobs.ts';
import { downloadExport, exportStatus, removeExportFiles } from './export-status.ts';
import { startExport } from './start-export.ts';
import { useCasesOf } from '../use-cases.ts';

export { ACCOUNT_EXPORT_LIMITS, type TAccountExportDeps } from './export-context.ts';

/** Each use case lives in its own file and takes the shared context first; this binds them to one. */
export function createAccountExport(deps: TAccountExportDeps) {
  const ctx = createExportContext(deps);
  const use = useCasesOf(ctx);
  return {
    backgroundAbove: ctx.backgroundAbove,
    startWorking: use(startWorking),
    status: use(exportStatus),
    start: use(startExport),
    download: use(downloadExport),
    removeFiles: use(removeExportFiles),
  };
}
export type TAccountExportService = ReturnType<typeof createAccountExport>;
