import type { TDelivery } from '../../../contract/delivery.ts';
import type { TDeliveryRow } from './deliveries.repository.ts';
import { isoOrNull } from '../api-fields.ts';

export const MINUTE = 60_000;
/** The send rate counts recipients over this sliding window. */
export const SEND_RATE_WINDOW_MS = 60 * MINUTE;
/**
 * Waits between attempts after a temporary failure (a 4xx answer, a server out of reach): 1 min,
 * 5 min, 15 min, 1 h, 3 h, 6 h; the last comes about ten hours after the first, as mail servers
 * themselves keep retrying for hours.
 */
export const EMAIL_RETRY_DELAYS_MS = [1, 5, 15, 60, 180, 360].map((m) => m * MINUTE);
/** How long a leased row is reserved for its sender before another may take it. */
export const LEASE_MS = 2 * MINUTE;
/** An attempt that began this long ago and never ended lost its sender mid-transaction. */
export const IN_DOUBT_AFTER_MS = 15 * MINUTE;
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
    attemptedAt: isoOrNull(row.attemptedAt),
    sentAt: isoOrNull(row.sentAt),
    nextAttemptAt: row.status === 'queued' ? isoOrNull(row.nextAttemptAt) : null,
  };
}

export const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
