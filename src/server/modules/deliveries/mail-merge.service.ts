import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  DEFAULT_MERGE_MESSAGE,
  DEFAULT_MERGE_SUBJECT,
  DOCUMENT_NAME_TAG,
  standardEmail,
  type TMailMerge,
  type TMailMergeOptions,
  type TMailMergePreview,
  type TMailMergeRowPage,
  type ZMailMergeBody,
  type ZMailMergeRowsQuery,
} from '../../../contract/delivery.ts';
import { findPlaceholderNames, placeholderLabel, type TPlaceholder } from '../../../contract/placeholders.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TMailService } from '../mail/index.ts';
import type { TAccountStanding } from '../users/account-standing.ts';
import type { TDeliveriesRepository, TMergeRow, TNewDelivery } from './deliveries.repository.ts';
import { cellOf, checkAddress, fillTemplate, oneLine, type TFilledRow } from './merge-templates.ts';

/** Batch documents read per query while a merge is checked or queued. */
const PAGE = 1_000;
/** Rows the options read to see which column holds addresses. */
const SAMPLE_ROWS = 500;
/** Problem rows the preview names. */
const PREVIEW_PROBLEMS = 5;

const ACTIVE = new Set(['queued', 'running']);
/** A merge's next send is worth telling once it is this far off (the send rate holds rows back). */
const RATE_WAIT_SHOWN_MS = 60_000;

/**
 * "Email each document" of a finished batch: every document goes to the address in one of the
 * spreadsheet's columns, with the subject and message filled from its own row. Each row becomes
 * one delivery, at most once (a second click or a restart finds the rows already there), and the
 * delivery queue sends them at the owner's send rate.
 */
export function createMailMergeService(deps: {
  repository: TDeliveriesRepository;
  mail: Pick<TMailService, 'emailSettings' | 'assertDailyRoom'>;
  standing: Pick<TAccountStanding, 'assertMayReach'>;
  /** Wakes the delivery queue's worker. */
  kick: () => void;
}) {
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
      nextSendAt: counts.queued > 0 && counts.nextSendAt && counts.nextSendAt.getTime() > Date.now() + RATE_WAIT_SHOWN_MS ? counts.nextSendAt.toISOString() : null,
      createdAt: merge.createdAt.toISOString(),
    };
  }

  function checkColumn(job: { columns: string[] }, column: number): void {
    if (column >= job.columns.length) throw new AppError('validation_failed', `The spreadsheet has no column ${column + 1}.`, { addressColumn: 'Choose a column of the spreadsheet.' });
  }

  /**
   * The templates a merge uses: the sender's own (or the defaults), or, for an account that may
   * not write its own words, the standard email, and then any subject or message given is refused
   * rather than dropped. `standardFor` is then the name the standard email signs with.
   */
  async function wordsOf(ownerId: string, body: z.output<typeof ZMailMergeBody>) {
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
  const wordsFor = (row: TFilledRow, templates: { subject: string; message: string; standardFor: string | null }) =>
    templates.standardFor !== null
      ? standardEmail(row.name, templates.standardFor)
      : { subject: oneLine(fillTemplate(templates.subject, row)) || row.name, message: fillTemplate(templates.message, row) };

  const unknownTags = (placeholders: TPlaceholder[], ...templates: string[]) => {
    const known = new Set([DOCUMENT_NAME_TAG, ...placeholders.map((p) => p.name)]);
    return [...new Set(templates.flatMap((t) => findPlaceholderNames(t)))].filter((name) => !known.has(name));
  };

  return {
    async options(ownerId: string, jobId: string): Promise<TMailMergeOptions> {
      const job = await jobOf(ownerId, jobId);
      const [settings, documents, merge] = await Promise.all([deps.mail.emailSettings(ownerId), r.batchDocumentCount(ownerId, jobId), r.merge(ownerId, jobId)]);
      const sample: TFilledRow[] = [];
      for await (const row of rowsOf(ownerId, jobId, SAMPLE_ROWS)) sample.push(row);
      const columns = job.columns.map((header, index) => {
        const cells = sample.map((row) => cellOf(row, index, job.mapping));
        return {
          index,
          header,
          placeholder: Object.entries(job.mapping).find(([, i]) => i === index)?.[0] ?? null,
          addresses: cells.filter((cell) => 'address' in checkAddress(cell)).length,
          sample: cells.find((cell) => cell !== '') ?? null,
        };
      });
      const best = [...columns].sort((a, b) => b.addresses - a.addresses)[0];
      return {
        columns,
        suggestedColumn: best && best.addresses > 0 ? best.index : null,
        placeholders: job.placeholders.map((p) => ({ name: p.name, label: placeholderLabel(p) })),
        defaults: { subject: DEFAULT_MERGE_SUBJECT, message: DEFAULT_MERGE_MESSAGE },
        documents,
        emailsPerHour: settings.emailsPerHour,
        sendsWith: settings.sendsWith,
        ownWords: settings.ownWords,
        ownWordsNote: settings.ownWordsNote,
        senderName: settings.senderName,
        merge: merge ? await mergeView(merge) : null,
      };
    },

    /** The first document's message as it will go out, and how many rows have a usable address. */
    async preview(ownerId: string, jobId: string, body: z.output<typeof ZMailMergeBody>): Promise<TMailMergePreview> {
      const job = await jobOf(ownerId, jobId);
      checkColumn(job, body.addressColumn);
      const templates = await wordsOf(ownerId, body);
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
    },

    /**
     * Queues one email per document of the batch; an address that cannot be used is that row's
     * error. A batch is emailed once: asking again answers the merge already under way.
     */
    async start(ownerId: string, jobId: string, body: z.output<typeof ZMailMergeBody>): Promise<{ merge: TMailMerge; created: boolean }> {
      const job = await jobOf(ownerId, jobId);
      await deps.standing.assertMayReach(ownerId, 'email');
      const existing = await r.merge(ownerId, jobId);
      if (existing) {
        const settings = await deps.mail.emailSettings(ownerId);
        await queueRows(existing, job, settings.ownWords ? null : settings.senderName);
        return { merge: await mergeView(existing), created: false };
      }
      if (ACTIVE.has(job.status)) throw new AppError('conflict', 'This batch is still generating. Email its documents once it has finished.');
      checkColumn(job, body.addressColumn);
      const { settings, ...templates } = await wordsOf(ownerId, body);
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
      await queueRows(merge, job, templates.standardFor);
      return { merge: await mergeView((await r.merge(ownerId, jobId)) ?? merge), created };
    },

    async rows(ownerId: string, jobId: string, query: z.output<typeof ZMailMergeRowsQuery>): Promise<TMailMergeRowPage> {
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
          sentAt: row.sentAt?.toISOString() ?? null,
        })),
        total,
      };
    },
  };

  /**
   * Writes the merge's rows, each with its own filled subject and message (the standard email's,
   * signed `standardFor`, when the account may not write its own); rows already written (a first
   * click, a process that stopped half-way) are left alone. Safe to run again.
   */
  async function queueRows(merge: TMergeRow, job: { mapping: Record<string, number | null> }, standardFor: string | null): Promise<void> {
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
}
export type TMailMergeService = ReturnType<typeof createMailMergeService>;
