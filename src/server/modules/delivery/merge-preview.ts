import type { z } from 'zod';
import type { TMailMergePreview, ZMailMergeBody } from '../../../contract/delivery.ts';
import { checkColumn, PREVIEW_PROBLEMS, type TMergeContext, unknownTags, wordsFor, wordsOf } from './merge-context.ts';
import { cellOf, checkAddress } from './merge-templates.ts';

/** The first document's message as it will go out, and how many rows have a usable address. */
export async function previewMerge(ctx: TMergeContext, ownerId: string, jobId: string, body: z.output<typeof ZMailMergeBody>): Promise<TMailMergePreview> {
  const { jobOf, rowsOf } = ctx;
  const job = await jobOf(ownerId, jobId);
  checkColumn(job, body.addressColumn);
  const templates = await wordsOf(ctx, ownerId, body);
  let valid = 0;
  let invalid = 0;
  const problems: TMailMergePreview['problems'] = [];
  let first: TMailMergePreview['first'] = null;
  for await (const row of rowsOf(ownerId, jobId)) {
    const cell = cellOf(row, body.addressColumn, job.mapping);
    const checked = checkAddress(cell);
    if ('problem' in checked) {
      invalid++;
      if (problems.length < PREVIEW_PROBLEMS) problems.push({ row: row.row, address: cell, message: checked.problem });
      continue;
    }
    valid++;
    first ??= { row: row.row, to: checked.address, cc: body.cc, ...wordsFor(row, templates), attachmentName: `${row.name}.pdf` };
  }
  return { first, valid, invalid, problems, unknownPlaceholders: unknownTags(job.placeholders, templates.subject, templates.message) };
}
