import type { z } from 'zod';
import type { TMailMergeRowPage, ZMailMergeRowsQuery } from '../../../contract/delivery.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { ACTIVE, checkColumn, type TMergeContext } from './merge-context.ts';
import { cellOf } from './merge-templates.ts';
import { isoOrNull } from '../api-fields.ts';

/** A merge's rows, a page at a time, with each one's outcome. */
export async function mergeRows({ r }: TMergeContext, ownerId: string, jobId: string, query: z.output<typeof ZMailMergeRowsQuery>): Promise<TMailMergeRowPage> {
  const merge = await r.merge(ownerId, jobId);
  if (!merge) throw notFound('Mail merge');
  const { rows, total } = await r.mergeRows(ownerId, merge.id, query);
  return {
    rows: rows.map((row) => ({
      row: row.batchRow ?? 0,
      to: row.to[0] ?? '',
      status: row.status,
      error: row.error,
      smtpResponse: row.smtpResponse,
      sentAt: isoOrNull(row.sentAt),
    })),
    total,
  };
}

/**
 * The text of some columns of each row of a finished batch, with the row's document: what "Send
 * each for signature" reads its signers from.
 */
export async function* batchCells(
  { jobOf, rowsOf }: TMergeContext,
  ownerId: string,
  jobId: string,
  columns: readonly number[],
): AsyncGenerator<{ row: number; documentId: string; cells: string[] }> {
  const job = await jobOf(ownerId, jobId);
  if (ACTIVE.has(job.status)) throw new AppError('conflict', 'This batch is still generating. Send its documents once it has finished.');
  for (const column of columns) checkColumn(job, column);
  for await (const row of rowsOf(ownerId, jobId)) {
    yield { row: row.row, documentId: row.documentId, cells: columns.map((column) => cellOf(row, column, job.mapping)) };
  }
}
