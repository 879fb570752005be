import { createHash } from 'node:crypto';
import type { TDocumentStatus } from '../../../contract/documents.ts';
import type { TSigningInput } from '../../../contract/signing.ts';
import type { TWebhookEvent } from '../../../contract/webhooks.ts';
import type { TSecretBox } from '../../crypto/secret-box.ts';
import { notFound } from '../../http/app-error.ts';
import type { TDueRowsWorker } from '../../jobs/due-rows.ts';
import type { TDocumentsService } from '../documents/index.ts';
import type { TDeliveriesService, TMailMergeService } from '../delivery/index.ts';
import type { TMailService } from '../mail/index.ts';
import type { TPdfService } from '../pdf/index.ts';
import type { TAccountStanding } from '../users/index.ts';
import type { TSealPool } from './seal/seal-pool.ts';
import type { TSealKeys } from './seal-keys.ts';
import type { TSigningRepository } from './signing.repository.ts';

/** The path a signer's link opens: a public page outside the signed-in app. */
export const SIGN_PATH = '/sign/';
export const DAY_MS = 24 * 60 * 60_000;

/** The webhooks e-signing raises; each carries the request as its owner reads it. */
export type TSigningWebhookEvent = Extract<TWebhookEvent, `signature_request.${string}`>;

/** What the signing service is built from (see `createSigningService`). */
export type TSigningDeps = {
  repository: TSigningRepository;
  documents: Pick<TDocumentsService, 'get' | 'pdf' | 'signingFields'> & {
    signedPdf(ownerId: string, id: string, signing: TSigningInput): Promise<Uint8Array>;
    setStatus(ownerId: string, id: string, status: TDocumentStatus): Promise<void>;
  };
  deliveries: Pick<TDeliveriesService, 'queueSigningEmail'>;
  /** A finished batch's rows: the chosen columns' text, and each row's document. */
  batchCells: TMailMergeService['batchCells'];
  assertBatch: TMailMergeService['assertBatch'];
  mail: Pick<TMailService, 'senderFor' | 'sendNotice'>;
  standing: Pick<TAccountStanding, 'assertMayReach'>;
  /** The plan's monthly allowance of requests. */
  allowance: { assertRoom(ownerId: string, count: number): Promise<void> };
  pdf: Pick<TPdfService, 'render'>;
  sealKeys: Pick<TSealKeys, 'inUse'>;
  /** The seal thread (shared with /verify). */
  sealPool: TSealPool;
  /** The RFC 3161 server an administrator set, if any. */
  timestampUrl: () => Promise<string | null>;
  secrets: TSecretBox;
  publicUrl: string;
  webhook?: (ownerId: string, event: TSigningWebhookEvent, requestId: string) => Promise<void>;
  log: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
  pollMs?: number;
};

export type TSigningBase = { deps: TSigningDeps; r: TSigningRepository };
/** The base and the worker that reminds, expires and seals; use cases wake it. */
export type TSigningContext = TSigningBase & { worker: TDueRowsWorker };

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
/** Every way a link can be wrong (unknown, used, ended) answers the same, so none can be told apart. */
export const linkNotFound = () => notFound('Signing link');
export const requestNotFound = () => notFound('Signature request');

/** Where an HTTP call came from, for the audit trail. */
export type TCaller = { ip: string | null; userAgent: string | null };
/** Someone in the workspace sending or managing a request: also who they are. */
export type TOwnerCaller = TCaller & { actorId: string };
