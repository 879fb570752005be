import { Readable } from 'node:stream';
import type { TApiKeyMode } from '../../../contract/api-keys.ts';
import type { TBulkJob, TBulkRowError } from '../../../contract/bulk.ts';
import { AppError } from '../../http/app-error.ts';
import type { TBulkServiceDeps } from './bulk-deps.ts';
import { jobNotFound, toJob } from './bulk-job-view.ts';
import { csvCell } from '../csv-cell.ts';

/** A started batch's progress, its row errors, and cancelling it. */
export function createBatchStatus(deps: TBulkServiceDeps) {
  const status = {
    /**
     * `mode`: the API key's. Batches are made with live keys only (test keys cannot start them), so
     * a test key finds none, as it finds no live document.
     */
    async get(ownerId: string, id: string, mode?: TApiKeyMode): Promise<TBulkJob> {
      if (mode === 'test') throw jobNotFound();
      const row = await deps.bulk.get(ownerId, id);
      if (!row || row.status === 'draft') throw jobNotFound();
      return toJob(row);
    },

    async list(ownerId: string, page: { limit: number; offset: number; createdBy?: string | undefined }): Promise<TBulkJob[]> {
      return (await deps.bulk.list(ownerId, page)).map((row) => toJob(row));
    },

    async cancel(ownerId: string, id: string): Promise<TBulkJob> {
      const row = await deps.bulk.get(ownerId, id);
      if (!row || row.status === 'draft') throw jobNotFound();
      if (!(await deps.bulk.cancel(ownerId, id))) {
        throw new AppError('conflict', `This job has already ${row.status === 'cancelled' ? 'been cancelled' : 'finished'}.`);
      }
      return toJob((await deps.bulk.get(ownerId, id)) ?? row);
    },

    async rowErrors(
      ownerId: string,
      id: string,
      page: { limit: number; offset: number },
      mode?: TApiKeyMode,
    ): Promise<{ errors: TBulkRowError[]; total: number }> {
      await status.get(ownerId, id, mode);
      const rows = await deps.bulk.rowErrors(ownerId, id, page);
      const errors = rows.flatMap((r) => Object.entries(r.errors).map(([column, message]) => ({ row: r.row, column, message })));
      return { errors, total: await deps.bulk.countRowErrors(ownerId, id) };
    },

    /** The row errors as CSV (row, column, message), streamed a page at a time. */
    async errorsCsv(ownerId: string, id: string): Promise<{ job: TBulkJob; stream: Readable }> {
      const job = await status.get(ownerId, id);
      const bulk = deps.bulk;
      async function* lines() {
        yield 'row,column,message\r\n';
        for (let offset = 0; ; offset += 1000) {
          const page = await bulk.rowErrors(ownerId, id, { limit: 1000, offset });
          for (const r of page) {
            for (const [column, message] of Object.entries(r.errors)) {
              yield `${csvCell(r.row)},${csvCell(column)},${csvCell(message)}\r\n`;
            }
          }
          if (page.length < 1000) return;
        }
      }
      return { job, stream: Readable.from(lines()) };
    },
  };
  return status;
}
