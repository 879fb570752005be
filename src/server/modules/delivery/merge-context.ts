import type { z } from 'zod';
import {
  DEFAULT_MERGE_MESSAGE,
  DEFAULT_MERGE_SUBJECT,
  DOCUMENT_NAME_TAG,
  standardEmail,
  type ZMailMergeBody,
  type TMailMerge,
} from '../../../contract/delivery.ts';
import { findPlaceholderNames, type TPlaceholder } from '../../../contract/placeholders.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TMailService } from '../mail/index.ts';
import type { TAccountStanding } from '../users/index.ts';
import type { TDeliveriesRepository, TMergeRow } from './deliveries.repository.ts';
import { fillTemplate, oneLine, type TFilledRow } from './merge-templates.ts';

/** Batch documents read per query while a merge is checked or queued. */
export const PAGE = 1_000;
/** Rows the options read to see which column holds addresses. */
export const SAMPLE_ROWS = 500;
/** Problem rows the preview names. */
export const PREVIEW_PROBLEMS = 5;

export const ACTIVE = new Set(['queued', 'running']);
/** A merge's next send is worth telling once it is this far off (the send rate holds rows back). */
const RATE_WAIT_SHOWN_MS = 60_000;

/** What the mail merge is built from (see `createMailMergeService`). */
export type TMailMergeDeps = {
  repository: TDeliveriesRepository;
  mail: Pick<TMailService, 'emailSettings' | 'assertDailyRoom'>;
  standing: Pick<TAccountStanding, 'assertMayReach'>;
  /** Wakes the delivery queue's worker. */
  kick: () => void;
};

/** The state every mail merge use case shares: its dependencies and the batch's rows. */
export type TMergeContext = ReturnType<typeof createMergeContext>;

export function createMergeContext(deps: TMailMergeDeps) {
  const r = deps.repository;

  async function jobOf(ownerId: string, jobId: string) {
    const job = await r.job(ownerId, jobId);
    if (!job || job.status === 'draft') throw notFound('Batch');
    return { ...job, placeholders: (job.placeholders ?? []) as TPlaceholder[] };
  }

  /** Every document of the batch, a page at a time. */
  async function* rowsOf(ownerId: string, jobId: string, limit = Number.POSITIVE_INFINITY): AsyncGenerator<TFilledRow> {
    let after = -1;
    let seen = 0;
    while (seen < limit) {
      const page = await r.batchRows(ownerId, jobId, after, Math.min(PAGE, limit - seen));
      for (const row of page) yield row;
      seen += page.length;
      if (page.length < PAGE) return;
      after = page.at(-1)!.row;
    }
  }

  async function mergeView(merge: TMergeRow): Promise<TMailMerge> {
    const counts = await r.mergeCounts(merge.id);
    const waiting = counts.queued + counts.sending;
    return {
      id: merge.id,
      jobId: merge.jobId,
      addressHeader: merge.addressHeader,
      subject: merge.subject,
      message: merge.message,
      cc: merge.cc,
      total: merge.total,
      queued: waiting,
      sent: counts.sent,
      failed: counts.failed,
      finished: waiting === 0 && counts.sent + counts.failed >= merge.total,
      // Only a wait worth telling: rows held back by the send rate, not rows due now.
      nextSendAt:
        counts.queued > 0 && counts.nextSendAt && counts.nextSendAt.getTime() > Date.now() + RATE_WAIT_SHOWN_MS ? counts.nextSendAt.toISOString() : null,
      createdAt: merge.createdAt.toISOString(),
    };
  }

  return { deps, r, jobOf, rowsOf, mergeView };
}

export function checkColumn(job: { columns: string[] }, column: number): void {
  if (column >= job.columns.length)
    throw new AppError('validation_failed', `The spreadsheet has no column ${column + 1}.`, { addressColumn: 'Choose a column of the spreadsheet.' });
}

/**
 * The templates a merge uses: the sender's own (or the defaults), or, for an account that may
 * not write its own words, the standard email, and then any subject or message given is refused
 * rather than dropped. `standardFor` is then the name the standard email signs with.
 */
export async function wordsOf({ deps }: TMergeContext, ownerId: string, body: z.output<typeof ZMailMergeBody>) {
  const settings = await deps.mail.emailSettings(ownerId);
  if (settings.ownWords) {
    return { settings, subject: body.subject ?? DEFAULT_MERGE_SUBJECT, message: body.message ?? DEFAULT_MERGE_MESSAGE, standardFor: null };
  }
  if (body.subject !== undefined || body.message !== undefined) {
    const fields: Record<string, string> = {};
    if (body.subject !== undefined) fields.subject = 'Leave the subject out: the standard one is used.';
    if (body.message !== undefined) fields.message = 'Leave the message out: the standard one is used.';
    throw new AppError('plan_limit', settings.ownWordsNote ?? 'This account cannot write its own subject and message.', fields);
  }
  // Kept on the merge as it reads, {{document}} standing for each document's name.
  return { settings, ...standardEmail(`{{${DOCUMENT_NAME_TAG}}}`, settings.senderName), standardFor: settings.senderName };
}

/** One row's subject and message. */
export const wordsFor = (row: TFilledRow, templates: { subject: string; message: string; standardFor: string | null }) =>
  templates.standardFor !== null
    ? standardEmail(row.name, templates.standardFor)
    : { subject: oneLine(fillTemplate(templates.subject, row)) || row.name, message: fillTemplate(templates.message, row) };

export const unknownTags = (placeholders: TPlaceholder[], ...templates: string[]) => {
  const known = new Set([DOCUMENT_NAME_TAG, ...placeholders.map((p) => p.name)]);
  return [...new Set(templates.flatMap((t) => findPlaceholderNames(t)))].filter((name) => !known.has(name));
};
