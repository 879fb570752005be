import type { z } from 'zod';
import type { TMailMergeRowPage, ZMailMergeRowsQuery } from '../../../contract/delivery.ts';
import { notFound } from '../../http/app-error.ts';
import type { TMergeContext } from './merge-context.ts';
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
