import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  defaultEmailMessage,
  EMAIL_SHARE_DAYS,
  MAX_ATTACHMENT_BYTES,
  standardEmail,
  type TDelivery,
  type TDeliveryWithDocument,
  type ZEmailDocumentBody,
} from '../../../contract/delivery.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { createDueRowsWorker } from '../../jobs/due-rows.ts';
import type { TDocumentScope } from '../documents/documents.repository.ts';
import type { TDocumentsService } from '../documents/documents.service.ts';
import type { TMailer } from '../mail/index.ts';
import { nextUtcDay, utcDay, type TMailService } from '../mail/index.ts';
import type { TShareLinksService } from '../share-links/share-links.service.ts';
import type { TAccountStanding } from '../users/account-standing.ts';
import type { TDeliveriesRepository, TDeliveryRow } from './deliveries.repository.ts';
import { composeEmail } from './email-message.ts';

const MINUTE = 60_000;
/** The send rate counts recipients over this sliding window. */
export const SEND_RATE_WINDOW_MS = 60 * MINUTE;
/**
 * Waits between attempts after a temporary failure (a 4xx answer, a server out of reach): 1 min,
 * 5 min, 15 min, 1 h, 3 h, 6 h; the last comes about ten hours after the first, as mail servers
 * themselves keep retrying for hours.
 */
export const EMAIL_RETRY_DELAYS_MS = [1, 5, 15, 60, 180, 360].map((m) => m * MINUTE);
/** How long a leased row is reserved for its sender before another may take it. */
const LEASE_MS = 2 * MINUTE;
/** An attempt that began this long ago and never ended lost its sender mid-transaction. */
const IN_DOUBT_AFTER_MS = 15 * MINUTE;
export const IN_DOUBT_MESSAGE =
  'The server stopped while this email was being sent, so whether it arrived is unknown. It was not sent again, so nobody gets it twice; send it again if it did not arrive.';

export function toDelivery(row: TDeliveryRow): TDelivery {
  return {
    id: row.id,
    documentId: row.documentId,
    to: row.to,
    cc: row.cc,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    transport: row.transport,
    smtpResponse: row.smtpResponse,
    error: row.error,
    attachment: row.attachment,
    createdAt: row.createdAt.toISOString(),
    attemptedAt: row.attemptedAt?.toISOString() ?? null,
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: row.status === 'queued' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
  };
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * Emailing documents: each email is a row in the delivery queue, sent by a worker in any process
 * (one SMTP transaction at a time per row), retried with backoff after temporary failures, held to
 * the owner's send rate, and logged with the server's own answer.
 */
export function createDeliveriesService(deps: {
  repository: TDeliveriesRepository;
  documents: Pick<TDocumentsService, 'get' | 'pdf'>;
  mail: Pick<TMailService, 'senderFor' | 'systemDailyLimit' | 'assertDailyRoom'>;
  mailer: TMailer;
  shareLinks: Pick<TShareLinksService, 'create' | 'get'>;
  standing: Pick<TAccountStanding, 'assertMayReach'>;
  emailsPerHour: (ownerId: string) => Promise<number>;
  /** This installation's host, for Message-IDs. */
  host: string;
  log: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
  retryDelaysMs?: readonly number[];
  /** PDFs larger than this go as a share link (default MAX_ATTACHMENT_BYTES). */
  maxAttachmentBytes?: number;
  pollMs?: number;
}) {
  const r = deps.repository;
  const maxAttachmentBytes = deps.maxAttachmentBytes ?? MAX_ATTACHMENT_BYTES;
  const delays = deps.retryDelaysMs ?? EMAIL_RETRY_DELAYS_MS;

  /** The PDF to attach, or a share link when it is too large (made once per delivery). */
  async function documentFor(row: TDeliveryRow): Promise<{ name: string; content: { pdf: Uint8Array } | { link: { url: string; expiresAt: Date } } }> {
    const { document, bytes } = await deps.documents.pdf(row.ownerId, row.documentId);
    if (bytes.byteLength <= maxAttachmentBytes) {
      if (row.attachment !== 'pdf') await r.setAttachment(row.id, 'pdf', null);
      return { name: document.name, content: { pdf: bytes } };
    }
    const link = row.shareLinkId
      ? await deps.shareLinks.get(row.ownerId, row.shareLinkId)
      : await deps.shareLinks.create(row.ownerId, row.documentId, EMAIL_SHARE_DAYS, 'email');
    if (!row.shareLinkId) await r.setAttachment(row.id, 'link', link.id);
    return { name: document.name, content: { link: { url: link.url, expiresAt: new Date(link.expiresAt) } } };
  }

  async function attempt(row: TDeliveryRow, stopping: AbortSignal): Promise<void> {
    // A stopping sender starts nothing new: an SMTP transaction cut short would be in doubt.
    if (stopping.aborted) return r.release(row.id, new Date());
    const sender = await deps.mail.senderFor(row.ownerId);
    if (!sender) {
      await r.finish(row.id, { status: 'failed', smtpResponse: null, error: 'No mail server is set up any more, so this email could not be sent.' });
      return;
    }
    const now = new Date();
    const dailyLimit = sender.route === 'system' ? await deps.mail.systemDailyLimit() : null;
    if (dailyLimit !== null && row.recipientCount > dailyLimit) {
      await r.finish(row.id, { status: 'failed', smtpResponse: null, error: `This email has more recipients than the installation’s mail server sends in a day (${dailyLimit}).` });
      return;
    }
    const began = await r.begin(
      row.id,
      row.ownerId,
      { limit: await deps.emailsPerHour(row.ownerId), windowStart: new Date(now.getTime() - SEND_RATE_WINDOW_MS), windowMs: SEND_RATE_WINDOW_MS },
      { at: now, transport: sender.route },
      dailyLimit !== null ? { day: utcDay(now), limit: dailyLimit, nextDay: nextUtcDay(now) } : undefined,
    );
    if (began === 'gone') return;
    if (began instanceof Date) {
      worker.kickIn(began.getTime() - Date.now());
      return;
    }
    const attemptNo = row.attempts + 1;
    let outcome;
    try {
      const { name, content } = await documentFor(row);
      let words = { subject: row.subject, message: row.message };
      if (sender.wordsRefused) {
        // Queued while the account could write its own (a plan since ended): what goes out now is
        // the standard email, and the log says so.
        words = standardEmail(name, sender.senderName);
        if (words.subject !== row.subject || words.message !== row.message) await r.setWords(row.id, words.subject, words.message);
      }
      outcome = await deps.mailer.send(
        sender.smtp,
        composeEmail({
          deliveryId: row.id,
          host: deps.host,
          sender,
          to: row.to,
          cc: row.cc,
          ...words,
          documentName: name,
          document: content,
          mailMerge: row.mergeId !== null,
        }),
        { checkAddress: sender.checkAddress },
      );
    } catch (error) {
      // The document could not be read or rendered: nothing reached the mail server.
      deps.log.error({ err: error, deliveryId: row.id }, 'could not prepare an email');
      outcome = { ok: false as const, temporary: attemptNo <= delays.length, response: null, message: 'The document could not be prepared for sending.' };
    }
    const context = { deliveryId: row.id, ownerId: row.ownerId, documentId: row.documentId, route: sender.route, smtpHost: sender.smtp.host, attempt: attemptNo };
    if (outcome.ok) {
      const rejected = outcome.rejected.length > 0 ? `The server refused ${outcome.rejected.join(', ')}.` : null;
      await r.finish(row.id, { status: 'sent', smtpResponse: outcome.response, error: rejected, at: new Date() });
      deps.log.info({ ...context, smtpResponse: outcome.response }, 'email sent');
      return;
    }
    const wait = outcome.temporary ? delays[attemptNo - 1] : undefined;
    if (wait !== undefined) {
      await r.finish(row.id, { status: 'queued', smtpResponse: outcome.response, error: outcome.message, nextAttemptAt: new Date(Date.now() + wait) });
      deps.log.warn({ ...context, smtpResponse: outcome.response, retryInMs: wait }, `email attempt failed, will retry: ${outcome.message}`);
      worker.kickIn(wait);
      return;
    }
    await r.finish(row.id, {
      status: 'failed',
      smtpResponse: outcome.response,
      error: outcome.temporary ? `${outcome.message} Gave up after ${plural(attemptNo, 'attempt', 'attempts')}.` : outcome.message,
    });
    deps.log.warn({ ...context, smtpResponse: outcome.response }, `email failed: ${outcome.message}`);
  }

  let lastDoubtSweep = 0;
  const worker = createDueRowsWorker<TDeliveryRow>({
    what: 'email',
    async take(now, leaseUntil, limit) {
      if (now.getTime() - lastDoubtSweep > MINUTE) {
        lastDoubtSweep = now.getTime();
        const failed = await r.failInDoubt(new Date(now.getTime() - IN_DOUBT_AFTER_MS), IN_DOUBT_MESSAGE);
        if (failed > 0) deps.log.warn({ count: failed }, 'emails left in doubt by a stopped sender were failed, not resent');
      }
      return r.takeDue(now, leaseUntil, limit);
    },
    attempt,
    leaseMs: LEASE_MS,
    pollMs: deps.pollMs ?? 5_000,
    batch: 4,
    log: deps.log,
  });

  /** Refuses what would pass the hour's send rate; a mail merge is spaced out instead. */
  async function assertRate(ownerId: string, recipients: number): Promise<void> {
    const limit = await deps.emailsPerHour(ownerId);
    if (recipients > limit) {
      throw new AppError('validation_failed', `Your plan sends to at most ${plural(limit, 'recipient', 'recipients')} an hour. Send to fewer people.`, {
        to: 'Too many recipients for your plan.',
      });
    }
    const used = await r.recipientsSince(ownerId, new Date(Date.now() - SEND_RATE_WINDOW_MS));
    if (used + recipients > limit) {
      throw new AppError(
        'rate_limited',
        `You have emailed ${plural(used, 'recipient', 'recipients')} in the last hour; your plan allows ${limit.toLocaleString('en-US')}. Try again later.`,
        undefined,
        { 'retry-after': '600' },
      );
    }
  }

  return {
    worker,

    /** Queues one document's email and answers at once; the worker sends it. */
    /** `scope`: an API key's mode, which may email only documents made in that mode. */
    async email(ownerId: string, documentId: string, body: z.output<typeof ZEmailDocumentBody>, scope?: TDocumentScope): Promise<TDelivery> {
      const document = await deps.documents.get(ownerId, documentId, scope);
      if (!document) throw notFound('Document');
      await deps.standing.assertMayReach(ownerId, 'email');
      const sender = await deps.mail.senderFor(ownerId);
      if (!sender) {
        throw new AppError('unprocessable', 'No mail server is set up for this account, so Formwork cannot send email. Share a link to the document instead.');
      }
      const subject = body.subject?.trim() ?? '';
      const message = body.message?.trim() ?? '';
      if (sender.wordsRefused && (subject !== '' || message !== '')) {
        const fields: Record<string, string> = {};
        if (subject !== '') fields.subject = 'Leave the subject out: the standard one is used.';
        if (message !== '') fields.message = 'Leave the message out: the standard one is used.';
        throw new AppError('plan_limit', sender.wordsRefused, fields);
      }
      const to = [...new Set(body.to)];
      const cc = [...new Set(body.cc ?? [])].filter((address) => !to.includes(address));
      await assertRate(ownerId, to.length + cc.length);
      if (sender.route === 'system') await deps.mail.assertDailyRoom(to.length + cc.length);
      const words = sender.wordsRefused
        ? standardEmail(document.name, sender.senderName)
        : { subject: subject || document.name, message: message || defaultEmailMessage(document.name) };
      const row = await r.insert({
        id: randomUUID(),
        ownerId,
        documentId,
        to,
        cc,
        recipientCount: to.length + cc.length,
        ...words,
        status: 'queued',
        nextAttemptAt: new Date(),
      });
      worker.kick();
      return toDelivery(row);
    },

    async ofDocument(ownerId: string, documentId: string): Promise<TDelivery[]> {
      if (!(await deps.documents.get(ownerId, documentId))) throw notFound('Document');
      return (await r.ofDocument(ownerId, documentId, 100)).map(toDelivery);
    },

    async get(ownerId: string, id: string, scope?: TDocumentScope): Promise<TDelivery> {
      const row = await r.get(ownerId, id, scope);
      if (!row) throw notFound('Delivery');
      return toDelivery(row);
    },

    async recent(ownerId: string, limit: number): Promise<TDeliveryWithDocument[]> {
      return (await r.recent(ownerId, limit)).map((row) => ({ ...toDelivery(row), documentName: row.documentName }));
    },

    start: () => worker.start(),
    stop: () => worker.stop(),
  };
}
export type TDeliveriesService = ReturnType<typeof createDeliveriesService>;
