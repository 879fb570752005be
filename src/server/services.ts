/**
 * The services, wired once for both entry points: the web server (app.ts) and the bulk worker
 * process (worker.ts), so a worker on another machine runs exactly the code the server does.
 */
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from './config.ts';
import type { TDatabase } from './db/client.ts';
import { createBulkChunkSender, workBulkChunks, type TBulkChunkSender } from './jobs/bulk-chunk.job.ts';
import { createPdfCache } from './jobs/pdf-cache.ts';
import { createPdfSpool } from './jobs/pdf-spool.ts';
import { createJobQueue } from './jobs/queue.ts';
import { createRenderPool, type TRenderPool } from './jobs/render-pool.ts';
import { createAdminRepository } from './modules/admin/admin.repository.ts';
import { createAssetsRepository } from './modules/assets/assets.repository.ts';
import { createAssetsService } from './modules/assets/assets.service.ts';
import { createSafeFetcher } from './modules/assets/safe-fetch.ts';
import { createBulkRepository } from './modules/bulk/bulk.repository.ts';
import { createBulkService } from './modules/bulk/bulk.service.ts';
import { createDocumentsRepository } from './modules/documents/documents.repository.ts';
import { createDocumentsService } from './modules/documents/documents.service.ts';
import { createPdfService } from './modules/documents/pdf.service.ts';
import { createFormatsRepository } from './modules/formats/formats.repository.ts';
import { createFormatsService } from './modules/formats/formats.service.ts';
import { createSystemRepository } from './modules/system/system.repository.ts';
import { createSystemService } from './modules/system/system.service.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { createAccountStanding } from './modules/users/account-standing.ts';
import { createInvitations } from './modules/users/invitations.ts';
import { createInvitationsRepository } from './modules/users/invitations.repository.ts';
import { createQuotaService } from './modules/quota/quota.service.ts';
import { createWorkLimits } from './modules/quota/work-limits.ts';
import { createApiKeysRepository } from './modules/api-keys/api-keys.repository.ts';
import { createApiKeysService } from './modules/api-keys/api-keys.service.ts';
import { createSecretBox } from './crypto/secret-box.ts';
import { checkHost } from './net/address-rule.ts';
import type { TDocument } from '../contract/documents.ts';
import type { TBulkJob } from '../contract/bulk.ts';
import { createWebhookSender } from './modules/webhooks/webhook-sender.ts';
import { createWebhooksRepository } from './modules/webhooks/webhooks.repository.ts';
import { createWebhooksService } from './modules/webhooks/webhooks.service.ts';
import { createPublicApiRepository } from './modules/public-api/public-api.repository.ts';
import { createPublicApiService } from './modules/public-api/public-api.service.ts';
import { createBillingRepository, createBillingService, createGatewayOpener } from './modules/billing/index.ts';
import { createMailer } from './modules/mail/mail-transport.ts';
import { createMailRepository } from './modules/mail/mail.repository.ts';
import { createMailService } from './modules/mail/mail.service.ts';
import { createShareLinksRepository } from './modules/share-links/share-links.repository.ts';
import { createShareLinksService } from './modules/share-links/share-links.service.ts';
import { createDeliveriesRepository } from './modules/deliveries/deliveries.repository.ts';
import { createDeliveriesService } from './modules/deliveries/deliveries.service.ts';
import { createMailMergeService } from './modules/deliveries/mail-merge.service.ts';
import { createAccountDataRepository } from './modules/users/account-data.repository.ts';
import { createAccountExport } from './modules/users/account-export.ts';

export type TServicesOptions = {
  config: TConfig;
  database: TDatabase;
  log: FastifyBaseLogger;
  /** Whether this process takes bulk chunks from the queue (default: yes). */
  workBulkChunks?: boolean;
  /** Render threads; defaults to the cores. */
  renderThreads?: number;
  /** How long a ZIP download may go without the client reading (default two minutes). */
  zipStallMs?: number;
  /** How long one single document may take to render (default RENDER_BUDGET_MS). */
  renderBudgetMs?: number;
  /** Waits between webhook attempts (default WEBHOOK_RETRY_DELAYS_MS); tests shorten them. */
  webhookRetryDelaysMs?: number[];
  /** How long a webhook receiver may take to answer (default 10 s). */
  webhookTimeoutMs?: number;
  /** The billing clock; tests move it to reach renewals and grace periods. */
  billingClock?: () => Date;
  /** Certificate authorities SMTP servers may present besides the system's (tests' own). */
  mailTrustedCa?: string[];
  /** Waits between email attempts (default EMAIL_RETRY_DELAYS_MS); tests shorten them. */
  emailRetryDelaysMs?: number[];
  /** PDFs larger than this are emailed as a share link (default 10 MB). */
  emailAttachmentMaxBytes?: number;
  /** Accounts with more documents are exported in the background (default: EXPORT_BACKGROUND_ABOVE). */
  accountExportBackgroundAbove?: number;
};

export function createServices({
  config,
  database,
  log,
  workBulkChunks: work = true,
  renderThreads,
  zipStallMs,
  renderBudgetMs,
  webhookRetryDelaysMs,
  webhookTimeoutMs,
  billingClock,
  mailTrustedCa,
  emailRetryDelaysMs,
  emailAttachmentMaxBytes,
  accountExportBackgroundAbove,
}: TServicesOptions) {
  const { db } = database;
  const usersRepository = createUsersRepository(db);
  const adminRepository = createAdminRepository(db);
  const system = createSystemService({
    system: createSystemRepository(db),
    activeGatewayName: async () => (await adminRepository.activeGateway())?.gatewayName,
    log: (message) => log.warn(message),
    publicUrl: config.publicUrl,
    singleSignOn: config.oidc?.name ?? null,
  });
  const assetsRepository = createAssetsRepository(db);
  const quota = createQuotaService({ users: usersRepository, assets: assetsRepository, plans: () => system.planCatalogue() });
  const mailRepository = createMailRepository(db);
  const standing = createAccountStanding({
    emailVerified: async (userId) => (await usersRepository.findById(userId))?.emailVerified,
    mailServer: async () => (await mailRepository.systemMail()) !== undefined,
  });
  const usersService = createUsersService({ users: usersRepository, quota, standing });
  const apiKeysRepository = createApiKeysRepository(db);
  const apiKeys = createApiKeysService({ keys: apiKeysRepository, hasApiAccess: (ownerId) => quota.hasApiAccess(ownerId), standing });
  const assets = createAssetsService({
    assets: assetsRepository,
    quota,
    safeFetch: createSafeFetcher({
      timeoutMs: 5_000,
      maxBytes: 10 * 1024 * 1024,
      maxRedirects: 3,
      allowIps: config.imageFetchAllowedIps,
    }),
    log,
  });
  const cores = os.availableParallelism();
  // Single documents (preview, generate, download, the landing demo) render on threads of their
  // own, kept warm, so a user is not queued behind a bulk job's chunks, and a render that runs
  // past its budget is stopped without touching anyone else's.
  let interactivePool: Promise<TRenderPool> | undefined;
  const pdf = createPdfService({
    assets,
    pool: () => (interactivePool ??= createRenderPool({ threads: cores, minThreads: 1, idleTimeoutMs: 60_000 })),
    threads: cores,
    budgetMs: renderBudgetMs,
  });
  const pdfCache = createPdfCache(path.join(config.dataDir, 'pdf-cache'));
  const webhooks = createWebhooksService({
    repository: createWebhooksRepository(db),
    secrets: createSecretBox(config.encryptionKey),
    hasApiAccess: (ownerId) => quota.hasApiAccess(ownerId),
    checkHost: (host) => checkHost(host, config.imageFetchAllowedIps),
    send: createWebhookSender({ timeoutMs: webhookTimeoutMs ?? 10_000, allowIps: config.imageFetchAllowedIps }),
    log,
    ...(webhookRetryDelaysMs ? { retryDelaysMs: webhookRetryDelaysMs } : {}),
  });
  const events = {
    documentCreated: (ownerId: string, document: TDocument) => webhooks.emit(ownerId, 'document.created', document),
    batchFinished: (ownerId: string, job: TBulkJob) => webhooks.emit(ownerId, job.failed > 0 || job.total === 0 ? 'batch.failed' : 'batch.completed', job),
  };
  const host = new URL(config.publicUrl).hostname;
  const mailer = createMailer({ allowIps: config.imageFetchAllowedIps, trustedCa: mailTrustedCa, clientName: host });
  const mail = createMailService({
    repository: mailRepository,
    secrets: createSecretBox(config.encryptionKey),
    mailer,
    plan: { hasApiAccess: (ownerId) => quota.hasApiAccess(ownerId), emailsPerHour: (ownerId) => quota.emailsPerHour(ownerId) },
    checkHost: (host) => checkHost(host, config.imageFetchAllowedIps),
    log,
  });
  const formatsRepository = createFormatsRepository(db);
  const workLimits = createWorkLimits();
  const formats = createFormatsService({ formats: formatsRepository, users: usersRepository, system, pdf, assets, limits: workLimits });
  const documents = createDocumentsService({
    documents: createDocumentsRepository(db),
    formats: formatsRepository,
    quota,
    limits: workLimits,
    pdf,
    cache: pdfCache,
    log,
    events,
  });
  const shareLinks = createShareLinksService({
    repository: createShareLinksRepository(db),
    documents,
    secrets: createSecretBox(config.encryptionKey),
    publicUrl: config.publicUrl,
    standing,
  });
  const deliveriesRepository = createDeliveriesRepository(db);
  const deliveries = createDeliveriesService({
    repository: deliveriesRepository,
    documents,
    mail,
    mailer,
    shareLinks,
    standing,
    emailsPerHour: (ownerId) => quota.emailsPerHour(ownerId),
    host,
    log,
    ...(emailRetryDelaysMs ? { retryDelaysMs: emailRetryDelaysMs } : {}),
    ...(emailAttachmentMaxBytes ? { maxAttachmentBytes: emailAttachmentMaxBytes } : {}),
  });
  const invitations = createInvitations({
    repository: createInvitationsRepository(db),
    users: usersRepository,
    publicUrl: config.publicUrl,
    mailServer: () => mail.hasSystemServer(),
    mailTo: (address, notice) => mail.sendNoticeTo(address, notice),
  });
  const mailMerge = createMailMergeService({ repository: deliveriesRepository, mail, standing, kick: () => deliveries.worker.kick() });

  // The queue, the render threads and the chunk workers start on first use: a process that never
  // sees a bulk job pays nothing for them.
  const queue = createJobQueue(database, log);
  let pool: Promise<TRenderPool> | undefined;
  let sender: Promise<TBulkChunkSender> | undefined;
  const renderPool = () => (pool ??= createRenderPool({ threads: renderThreads ?? config.renderThreads ?? cores }));
  const chunkSender = () =>
    (sender ??= (async () => {
      const created = await createBulkChunkSender(queue);
      if (work) {
        const threads = (await renderPool()).threads;
        // One more fetch loop than threads keeps every thread busy while a loop commits to the database.
        await workBulkChunks(queue, created, threads + 1, (payload) => bulk.processChunk(payload));
      }
      return created;
    })());
  const bulk = createBulkService({
    bulk: createBulkRepository(db),
    formats: formatsRepository,
    users: usersRepository,
    quota,
    assets,
    pool: renderPool,
    spool: createPdfSpool(path.join(config.dataDir, 'spool')),
    chunks: chunkSender,
    log,
    zipStallMs,
    events,
  });

  const publicApiRepository = createPublicApiRepository(db);
  const publicApi = createPublicApiService({ repository: publicApiRepository, keys: apiKeysRepository, users: usersRepository, plans: quota, log, documents });

  const billing = createBillingService({
    repository: createBillingRepository(db),
    system,
    quota,
    openGateway: createGatewayOpener(createSecretBox(config.encryptionKey)),
    pdf,
    publicUrl: config.publicUrl,
    log,
    notify: (ownerId, notice) => mail.sendNotice(ownerId, notice),
    ...(billingClock ? { now: billingClock } : {}),
  });

  const accountData = createAccountDataRepository(db);
  const accountExport = createAccountExport({
    data: accountData,
    users: usersRepository,
    formats: formatsRepository,
    documents,
    billing,
    queue,
    dir: path.join(config.dataDir, 'exports'),
    notify: (ownerId, notice) => mail.sendNotice(ownerId, notice),
    publicUrl: config.publicUrl,
    log,
    backgroundAbove: accountExportBackgroundAbove ?? config.exportBackgroundAbove,
  });
  // The bulk service keeps its own handle on the spool; dropping a batch's files needs only the directory.
  const spool = createPdfSpool(path.join(config.dataDir, 'spool'));

  return {
    accountData,
    accountExport,
    spool,
    billing,
    mail,
    shareLinks,
    deliveries,
    mailMerge,
    invitations,
    webhooks,
    apiKeys,
    publicApi,
    usersRepository,
    adminRepository,
    system,
    usersService,
    standing,
    quota,
    assets,
    pdf,
    formatsRepository,
    formats,
    documents,
    bulk,
    pdfCache,
    background: {
      /** Starts taking chunks now (the worker process, and a server with unfinished jobs). */
      async startWorking() {
        await chunkSender();
      },
      /** Waits for chunks in progress, then stops the queue and the render threads. */
      async stop() {
        await webhooks.stop();
        await deliveries.stop();
        await queue.stop();
        if (pool) await (await pool).close();
        if (interactivePool) await (await interactivePool).close();
      },
    },
  };
}
export type TServices = ReturnType<typeof createServices>;
