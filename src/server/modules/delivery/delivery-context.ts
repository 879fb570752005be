import { MAX_ATTACHMENT_BYTES } from '../../../contract/delivery.ts';
import type { TDueRowsWorker } from '../../jobs/due-rows.ts';
import type { TDocumentsService } from '../documents/index.ts';
import type { TMailer, TMailService } from '../mail/index.ts';
import type { TShareLinksService } from '../share-links/index.ts';
import type { TAccountStanding } from '../users/index.ts';
import type { TDeliveriesRepository, TDeliveryRow } from './deliveries.repository.ts';
import { EMAIL_RETRY_DELAYS_MS } from './delivery-terms.ts';

/** What a signing email carries, made when it is sent: the signer's link, or the sealed PDF. */
export type TSigningEmailContent = { name: string; content: { signLink: { url: string; expiresAt: Date } } | { pdf: Uint8Array } };

/**
 * E-signing's side of its emails (the signing module, given once both exist). `content` answers
 * null when the email has no reason to go any more (the signer signed, the request ended).
 */
export type TSigningEmailRow = Pick<TDeliveryRow, 'ownerId' | 'purpose' | 'signerId' | 'signatureRequestId'>;
export type TSigningMail = {
  content(row: TSigningEmailRow): Promise<TSigningEmailContent | null>;
  sent(row: TSigningEmailRow, smtpResponse: string): Promise<void>;
};

/** What the deliveries service is built from (see `createDeliveriesService`). */
export type TDeliveriesDeps = {
  repository: TDeliveriesRepository;
  documents: Pick<TDocumentsService, 'get' | 'pdf'>;
  mail: Pick<TMailService, 'senderFor' | 'systemDailyLimit' | 'assertDailyRoom'>;
  mailer: TMailer;
  shareLinks: Pick<TShareLinksService, 'create' | 'get'>;
  standing: Pick<TAccountStanding, 'assertMayReach'>;
  emailsPerHour: (ownerId: string) => Promise<number>;
  /** This installation's host, for Message-IDs. */
  host: string;
  /** E-signing's emails; asked for late, since the signing module is built after this one. */
  signingMail?: () => TSigningMail;
  log: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
  retryDelaysMs?: readonly number[];
  /** PDFs larger than this go as a share link (default MAX_ATTACHMENT_BYTES). */
  maxAttachmentBytes?: number;
  pollMs?: number;
};

/** What the sender and the use cases share: the dependencies and the retry terms. */
export type TDeliveryBase = ReturnType<typeof createDeliveryBase>;

export function createDeliveryBase(deps: TDeliveriesDeps) {
  return {
    deps,
    r: deps.repository,
    maxAttachmentBytes: deps.maxAttachmentBytes ?? MAX_ATTACHMENT_BYTES,
    delays: deps.retryDelaysMs ?? EMAIL_RETRY_DELAYS_MS,
  };
}

/** The base and the queue's worker, which the use cases wake. */
export type TDeliveryContext = TDeliveryBase & { worker: TDueRowsWorker };
