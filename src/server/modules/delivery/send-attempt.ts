import { EMAIL_SHARE_DAYS, standardEmail } from '../../../contract/delivery.ts';
import { createDueRowsWorker, type TDueRowsWorker } from '../../jobs/due-rows.ts';
import { nextUtcDay, utcDay } from '../mail/index.ts';
import type { TDeliveryRow } from './deliveries.repository.ts';
import type { TDeliveryBase } from './delivery-context.ts';
import { IN_DOUBT_AFTER_MS, IN_DOUBT_MESSAGE, LEASE_MS, MINUTE, plural, SEND_RATE_WINDOW_MS } from './delivery-terms.ts';
import { composeEmail, type TEmailContent } from './email-message.ts';

/** The PDF to attach, or a share link when it is too large (made once per delivery); a signing email's own content. */
async function documentFor(
  { deps, r, maxAttachmentBytes }: TDeliveryBase,
  row: TDeliveryRow,
): Promise<{ name: string; content: TEmailContent['document'] } | null> {
  if (row.purpose !== 'document') {
    if (!deps.signingMail) throw new Error('signing emails need the signing module');
    return deps.signingMail().content(row);
  }
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

/** One attempt at one leased row: begun under the send rate, sent, and finished, retried or failed. */
async function attempt(ctx: TDeliveryBase, worker: TDueRowsWorker, row: TDeliveryRow, stopping: AbortSignal): Promise<void> {
  const { deps, r, delays } = ctx;
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
    await r.finish(row.id, {
      status: 'failed',
      smtpResponse: null,
      error: `This email has more recipients than the installation’s mail server sends in a day (${dailyLimit}).`,
    });
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
    const prepared = await documentFor(ctx, row);
    if (!prepared) {
      await r.finish(row.id, { status: 'failed', smtpResponse: null, error: 'Not sent: the signer had already answered, or the request had ended.' });
      return;
    }
    const { name, content } = prepared;
    let words = { subject: row.subject, message: row.message };
    // A signing email's words are Formwork's own around the sender's note, checked when it was queued.
    if (sender.wordsRefused && row.purpose === 'document') {
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
    if (row.purpose !== 'document') await deps.signingMail?.().sent(row, outcome.response);
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

/** The delivery queue's worker: takes due rows of everyone, first failing those left in doubt. */
export function createDeliveryWorker(ctx: TDeliveryBase): TDueRowsWorker {
  const { deps, r } = ctx;
  let lastDoubtSweep = 0;
  const worker: TDueRowsWorker = createDueRowsWorker<TDeliveryRow>({
    what: 'email',
    async take(now, leaseUntil, limit) {
      if (now.getTime() - lastDoubtSweep > MINUTE) {
        lastDoubtSweep = now.getTime();
        const failed = await r.failInDoubt(new Date(now.getTime() - IN_DOUBT_AFTER_MS), IN_DOUBT_MESSAGE);
        if (failed > 0) deps.log.warn({ count: failed }, 'emails left in doubt by a stopped sender were failed, not resent');
      }
      return r.takeDue(now, leaseUntil, limit);
    },
    attempt: (row, stopping) => attempt(ctx, worker, row, stopping),
    leaseMs: LEASE_MS,
    pollMs: deps.pollMs ?? 5_000,
    batch: 4,
    log: deps.log,
  });
  return worker;
}
