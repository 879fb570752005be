import { MAX_ATTACHMENT_BYTES } from '../../../contract/delivery.ts';
import type { TDueRowsWorker } from '../../jobs/due-rows.ts';
import type { TDocumentsService } from '../documents/index.ts';
import type { TMailer, TMailService } from '../mail/index.ts';
import type { TShareLinksService } from '../share-links/index.ts';
import type { TAccountStanding } from '../users/index.ts';
import type { TDeliveriesRepository } from './deliveries.repository.ts';
import { EMAIL_RETRY_DELAYS_MS } from './delivery-terms.ts';

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
