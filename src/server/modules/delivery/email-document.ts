import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { defaultEmailMessage, standardEmail, type TDelivery, type ZEmailDocumentBody } from '../../../contract/delivery.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TDocumentScope } from '../documents/index.ts';
import type { TDeliveryBase, TDeliveryContext } from './delivery-context.ts';
import { plural, SEND_RATE_WINDOW_MS, toDelivery } from './delivery-terms.ts';

/** Refuses what would pass the hour's send rate; a mail merge is spaced out instead. */
async function assertRate({ deps, r }: TDeliveryBase, ownerId: string, recipients: number): Promise<void> {
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

/** Queues one document's email and answers at once; the worker sends it. */
/** `scope`: an API key's mode, which may email only documents made in that mode. */
export async function emailDocument(
  ctx: TDeliveryContext,
  ownerId: string,
  documentId: string,
  body: z.output<typeof ZEmailDocumentBody>,
  actorId: string,
  scope?: TDocumentScope,
): Promise<TDelivery> {
  const { deps, r, worker } = ctx;
  const document = await deps.documents.get(ownerId, documentId, scope);
  if (!document) throw notFound('Document');
  await deps.standing.assertMayReach(actorId, 'email');
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
  await assertRate(ctx, ownerId, to.length + cc.length);
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
}

/**
 * Queues one of e-signing's emails (an invitation, a reminder, the signed copy). Its words are
 * e-signing's; the link or the sealed PDF is added when it is sent (see `TSigningMail`).
 */
export async function queueSigningEmail(
  { r, worker }: TDeliveryContext,
  ownerId: string,
  email: {
    documentId: string;
    to: string[];
    cc?: string[];
    subject: string;
    message: string;
    purpose: 'sign_invite' | 'sign_reminder' | 'signed_copy';
    signerId?: string;
    signatureRequestId: string;
  },
): Promise<void> {
  const cc = email.cc ?? [];
  await r.insert({
    id: randomUUID(),
    ownerId,
    documentId: email.documentId,
    to: email.to,
    cc,
    recipientCount: email.to.length + cc.length,
    subject: email.subject,
    message: email.message,
    purpose: email.purpose,
    signerId: email.signerId ?? null,
    signatureRequestId: email.signatureRequestId,
    status: 'queued',
    nextAttemptAt: new Date(),
  });
  worker.kick();
}
