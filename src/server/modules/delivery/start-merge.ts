import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { TMailMerge, ZMailMergeBody } from '../../../contract/delivery.ts';
import { AppError } from '../../http/app-error.ts';
import type { TMergeRow, TNewDelivery } from './deliveries.repository.ts';
import { ACTIVE, checkColumn, PAGE, type TMergeContext, wordsFor, wordsOf } from './merge-context.ts';
import { cellOf, checkAddress } from './merge-templates.ts';

/**
 * Queues one email per document of the batch; an address that cannot be used is that row's
 * error. A batch is emailed once: asking again answers the merge already under way.
 */
export async function startMerge(
  ctx: TMergeContext,
  ownerId: string,
  jobId: string,
  body: z.output<typeof ZMailMergeBody>,
  actorId: string,
): Promise<{ merge: TMailMerge; created: boolean }> {
  const { deps, r, jobOf, mergeView } = ctx;
  const job = await jobOf(ownerId, jobId);
  await deps.standing.assertMayReach(actorId, 'email');
  const existing = await r.merge(ownerId, jobId);
  if (existing) {
    const settings = await deps.mail.emailSettings(ownerId);
    await queueRows(ctx, existing, job, settings.ownWords ? null : settings.senderName);
    return { merge: await mergeView(existing), created: false };
  }
  if (ACTIVE.has(job.status)) throw new AppError('conflict', 'This batch is still generating. Email its documents once it has finished.');
  checkColumn(job, body.addressColumn);
  const { settings, ...templates } = await wordsOf(ctx, ownerId, body);
  if (settings.sendsWith === 'none') {
    throw new AppError('unprocessable', 'No mail server is set up for this account, so Formwork cannot send email.');
  }
  // Nothing left of today's cap: say so now rather than queue a merge that waits for tomorrow.
  if (settings.sendsWith === 'system') await deps.mail.assertDailyRoom(1);
  const { merge, created } = await r.createMerge({
    id: randomUUID(),
    ownerId,
    jobId,
    addressColumn: body.addressColumn,
    addressHeader: job.columns[body.addressColumn] ?? `Column ${body.addressColumn + 1}`,
    subject: templates.subject,
    message: templates.message,
    cc: [...new Set(body.cc)],
    total: 0,
  });
  await queueRows(ctx, merge, job, templates.standardFor);
  return { merge: await mergeView((await r.merge(ownerId, jobId)) ?? merge), created };
}

/**
 * Writes the merge's rows, each with its own filled subject and message (the standard email's,
 * signed `standardFor`, when the account may not write its own); rows already written (a first
 * click, a process that stopped half-way) are left alone. Safe to run again.
 */
async function queueRows(
  { deps, r, rowsOf }: TMergeContext,
  merge: TMergeRow,
  job: { mapping: Record<string, number | null> },
  standardFor: string | null,
): Promise<void> {
  const templates = { subject: merge.subject, message: merge.message, standardFor };
  let total = 0;
  let batch: TNewDelivery[] = [];
  const now = new Date();
  const flush = async () => {
    if (batch.length > 0) await r.insertMergeRows(batch);
    batch = [];
  };
  for await (const row of rowsOf(merge.ownerId, merge.jobId)) {
    total++;
    const checked = checkAddress(cellOf(row, merge.addressColumn, job.mapping));
    const to = 'address' in checked ? [checked.address] : [cellOf(row, merge.addressColumn, job.mapping)].filter(Boolean);
    const cc = merge.cc.filter((address) => !to.includes(address));
    batch.push({
      id: randomUUID(),
      ownerId: merge.ownerId,
      documentId: row.documentId,
      to,
      cc,
      recipientCount: to.length + cc.length,
      ...wordsFor(row, templates),
      mergeId: merge.id,
      batchRow: row.row,
      ...('address' in checked ? { status: 'queued' as const, nextAttemptAt: now } : { status: 'failed' as const, error: checked.problem }),
    });
    if (batch.length >= PAGE) await flush();
  }
  await flush();
  if (total !== merge.total) await r.setMergeTotal(merge.id, total);
  deps.kick();
}
