/**
 * The services, wired once for both entry points: the web server (app.ts) and the bulk worker
 * process (worker.ts), so a worker on another machine runs exactly the code the server does.
 */
import { createTeamsRepository, createTeamsService, createWorkspacesRepository } from './modules/workspaces/index.ts';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from './config.ts';
import type { TDatabase } from './db/client.ts';
import { coresPerProcess } from './cores.ts';
import { createBulkChunkSender, workBulkChunks, type TBulkChunkSender } from './jobs/bulk-chunk.job.ts';
import { createPdfCache } from './jobs/pdf-cache.ts';
import { createPdfSpool } from './jobs/pdf-spool.ts';
import { createJobQueue, type TJobQueue } from './jobs/queue.ts';
import { createRenderPool, INTERACTIVE_RENDER_POOL, type TRenderPool } from './jobs/render-pool.ts';
import { createSecretBox } from './crypto/secret-box.ts';
import { checkHost } from './net/address-rule.ts';
import type { TDocument } from '../contract/documents.ts';
import type { TBulkJob } from '../contract/bulk.ts';
import { createAdminRepository } from './modules/admin/index.ts';
import { createApiKeysRepository, createApiKeysService } from './modules/api-keys/index.ts';
import { createAssetsRepository, createAssetsService, createSafeFetcher } from './modules/assets/index.ts';
import { createBillingRepository, createBillingService, createGatewayOpener } from './modules/billing/index.ts';
import { createBulkRepository, createBulkService } from './modules/bulk/index.ts';
import { createDeliveriesRepository, createDeliveriesService, createMailMergeService, type TSigningMail } from './modules/delivery/index.ts';
import { createDocumentsRepository, createDocumentsService, type TDocumentsService } from './modules/documents/index.ts';
import { createFormatsRepository, createFormatsService } from './modules/formats/index.ts';
import { createMailer, createMailRepository, createMailService, type TMailService } from './modules/mail/index.ts';
import { createPdfService, type TPdfService } from './modules/pdf/index.ts';
import { createPublicApiRepository, createPublicApiService } from './modules/public-api/index.ts';
import { createQuotaService, createWorkLimits } from './modules/quota/index.ts';
import { createShareLinksRepository, createShareLinksService } from './modules/share-links/index.ts';
import { createPdfVerifier, createSealKeys, createSealPool, createSigningRepository, createSigningService } from './modules/signing/index.ts';
import { createSystemRepository, createSystemService } from './modules/system/index.ts';
import {
  createAccountDataRepository,
  createAccountExport,
  createAccountStanding,
  createInvitations,
  createInvitationsRepository,
  createUserAccounts,
  createUsersRepository,
  createUsersService,
} from './modules/users/index.ts';
import {
  ACTIVE_ENDPOINTS_MEMO_MS,
  createWebhookSender,
  createWebhooksRepository,
  createWebhooksService,
  SHARED_ACTIVE_ENDPOINTS_MEMO_MS,
  type TWebhooksService,
} from './modules/webhooks/index.ts';

export type TServicesOptions = {
  config: TConfig;
  database: TDatabase;
  log: FastifyBaseLogger;
  /** Whether this process takes bulk chunks from the queue (default: yes). */
  workBulkChunks?: boolean;
  /** Bulk render threads; defaults to RENDER_THREADS, else this process's share of the cores. */
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
  /** How often signature requests are looked at for reminders and expiry (default 30 s); tests shorten it. */
  signingPollMs?: number;
  /** Accounts with more documents are exported in the background (default: EXPORT_BACKGROUND_ABOVE). */
  accountExportBackgroundAbove?: number;
};

type TArea = { config: TConfig; db: TDatabase['db']; log: FastifyBaseLogger };

/** The account's records and the rules every other area checks: plans, standing, settings. */
function createAccountCore({ config, db, log }: TArea) {
  const usersRepository = createUsersRepository(db);
  // What other modules may read and change of accounts; the repository stays with users' own services.
  const workspacesRepository = createWorkspacesRepository(db);
  const userAccounts = createUserAccounts(usersRepository, workspacesRepository);
  const adminRepository = createAdminRepository(db);
  const system = createSystemService({
    system: createSystemRepository(db),
    activeGatewayName: async () => (await adminRepository.activeGateway())?.gatewayName,
    log: (message) => log.warn(message),
    publicUrl: config.publicUrl,
    singleSignOn: config.oidc?.name ?? null,
  });
  const assetsRepository = createAssetsRepository(db);
  const signingRepository = createSigningRepository(db);
  const quota = createQuotaService({
    users: userAccounts,
    imageBytesUsed: (ownerId) => assetsRepository.usedBytes(ownerId),
    plans: () => system.planCatalogue(),
    signatureRequestsSince: (ownerId, since) => signingRepository.countCreatedSince(ownerId, since),
  });
  const mailRepository = createMailRepository(db);
  const standing = createAccountStanding({
    emailVerified: async (userId) => (await usersRepository.findById(userId))?.emailVerified,
    mailServer: async () => (await mailRepository.systemMail()) !== undefined,
  });
  const usersService = createUsersService({ users: usersRepository, workspaces: workspacesRepository, quota, standing });
  const apiKeysRepository = createApiKeysRepository(db);
  const apiKeys = createApiKeysService({ keys: apiKeysRepository, hasApiAccess: (ownerId) => quota.hasApiAccess(ownerId), standing });
  return {
    usersRepository,
    workspacesRepository,
    userAccounts,
    adminRepository,
    system,
    assetsRepository,
    quota,
    mailRepository,
    standing,
    usersService,
    apiKeys,
  };
}
type TAccountCore = ReturnType<typeof createAccountCore>;

/** Images and single-document rendering. */
function createRendering({ config, log }: TArea, { assetsRepository, quota }: TAccountCore, renderBudgetMs: number | undefined) {
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
  // This process's share of the cores: the WEB_CONCURRENCY processes on this machine split them.
  const cores = coresPerProcess(config.webConcurrency);
  // Single documents (preview, generate, download, the landing demo) render on threads of their
  // own, kept warm, so a user is not queued behind a bulk job's chunks, and a render that runs
  // past its budget is stopped without touching anyone else's.
  let interactivePool: Promise<TRenderPool> | undefined;
  const pdf = createPdfService({
    assets,
    pool: () => (interactivePool ??= createRenderPool({ threads: cores, ...INTERACTIVE_RENDER_POOL })),
    threads: cores,
    budgetMs: renderBudgetMs,
  });
  const pdfCache = createPdfCache(path.join(config.dataDir, 'pdf-cache'));
  const closeInteractivePool = async () => {
    if (interactivePool) await (await interactivePool).close();
  };
  return { assets, cores, pdf, pdfCache, closeInteractivePool };
}

/** Webhooks and the events other areas raise through them. */
function createWebhooks(
  { config, db, log }: TArea,
  { quota }: TAccountCore,
  { webhookRetryDelaysMs, webhookTimeoutMs }: Pick<TServicesOptions, 'webhookRetryDelaysMs' | 'webhookTimeoutMs'>,
) {
  const webhooks = createWebhooksService({
    repository: createWebhooksRepository(db, { activeMemoMs: config.databaseUrl ? SHARED_ACTIVE_ENDPOINTS_MEMO_MS : ACTIVE_ENDPOINTS_MEMO_MS }),
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
  return { webhooks, events };
}
type TEvents = ReturnType<typeof createWebhooks>['events'];

/** Formats and the documents made from them. */
function createDocumentWork(
  { db, log }: TArea,
  { userAccounts, system, quota }: TAccountCore,
  { assets, pdf, pdfCache }: ReturnType<typeof createRendering>,
  events: TEvents,
) {
  const workLimits = createWorkLimits();
  const formatsRepository = createFormatsRepository(db);
  const formats = createFormatsService({ formats: formatsRepository, users: userAccounts, system, pdf, assets, limits: workLimits });
  const documents = createDocumentsService({
    documents: createDocumentsRepository(db),
    formats,
    quota,
    limits: workLimits,
    pdf,
    cache: pdfCache,
    log,
    events,
  });
  return { formats, documents };
}

/** Mail: the account's own server, share links, deliveries, mail merge and invitations. */
function createMessaging(
  { config, db, log }: TArea,
  { usersRepository, quota, mailRepository, standing }: TAccountCore,
  documents: TDocumentsService,
  {
    mailTrustedCa,
    emailRetryDelaysMs,
    emailAttachmentMaxBytes,
    signingMail,
  }: Pick<TServicesOptions, 'mailTrustedCa' | 'emailRetryDelaysMs' | 'emailAttachmentMaxBytes'> & { signingMail: () => TSigningMail },
) {
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
    signingMail,
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
  return { mail, shareLinks, deliveries, invitations, mailMerge };
}

/** E-signing: requests, the signer's page, and the installation's seal. */
function createSigning(
  { config, db, log }: TArea,
  { standing, quota, system }: TAccountCore,
  { pdf }: ReturnType<typeof createRendering>,
  documents: TDocumentsService,
  { mail, deliveries, mailMerge }: ReturnType<typeof createMessaging>,
  webhooks: TWebhooksService,
  pollMs: number | undefined,
) {
  const repository = createSigningRepository(db);
  const secrets = createSecretBox(config.encryptionKey);
  // The name the seal's certificates carry: the address people know this installation by.
  const sealKeys = createSealKeys({ repository, secrets, installationName: new URL(config.publicUrl).hostname });
  const sealPool = createSealPool();
  const signing = createSigningService({
    repository,
    sealPool,
    documents,
    deliveries,
    batchCells: mailMerge.batchCells,
    assertBatch: mailMerge.assertBatch,
    mail,
    standing,
    allowance: { assertRoom: (ownerId, count) => quota.assertSignatureRequestRoom(ownerId, count) },
    pdf,
    sealKeys,
    timestampUrl: () => system.timestampUrl(),
    secrets,
    publicUrl: config.publicUrl,
    ...(pollMs ? { pollMs } : {}),
    webhook: async (ownerId, event, requestId) => webhooks.emit(ownerId, event, await signing.get(ownerId, requestId)),
    log,
  });
  const verifier = createPdfVerifier({
    repository,
    sealKeys,
    documentName: async (ownerId, documentId) => (await documents.get(ownerId, documentId))?.name,
    log,
    checkSeal: (pdf, trusted) => sealPool.verify(pdf, trusted),
  });
  return { signing, sealKeys, verifier };
}

/**
 * Batches. The queue, the render threads and the chunk workers start on first use: a process that
 * never sees a bulk job pays nothing for them.
 */
function createBulkWork(
  { config, db, log }: TArea,
  database: TDatabase,
  { quota }: TAccountCore,
  { assets, cores }: ReturnType<typeof createRendering>,
  { formats }: ReturnType<typeof createDocumentWork>,
  events: TEvents,
  { work, renderThreads, zipStallMs }: { work: boolean; renderThreads: number | undefined; zipStallMs: number | undefined },
) {
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
    formats,
    quota,
    assets,
    pool: renderPool,
    spool: createPdfSpool(path.join(config.dataDir, 'spool')),
    chunks: chunkSender,
    log,
    zipStallMs,
    events,
  });
  const closeRenderPool = async () => {
    if (pool) await (await pool).close();
  };
  return { queue, chunkSender, bulk, closeRenderPool };
}

/** Subscriptions, and the account's data for export and deletion. */
function createBillingAndExports(
  { config, db, log }: TArea,
  { userAccounts, system, quota }: TAccountCore,
  pdf: TPdfService,
  { formats, documents }: ReturnType<typeof createDocumentWork>,
  {
    mail,
    queue,
    billingClock,
    accountExportBackgroundAbove,
  }: { mail: TMailService; queue: TJobQueue } & Pick<TServicesOptions, 'billingClock' | 'accountExportBackgroundAbove'>,
) {
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
    users: userAccounts,
    formats,
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

  return { billing, accountData, accountExport, spool };
}

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
  signingPollMs,
}: TServicesOptions) {
  const { db } = database;
  const area: TArea = { config, db, log };
  const core = createAccountCore(area);
  const { userAccounts, adminRepository, system, usersService, standing, quota, apiKeys } = core;
  const rendering = createRendering(area, core, renderBudgetMs);
  const { assets, pdf, pdfCache } = rendering;
  const { webhooks, events } = createWebhooks(area, core, { webhookRetryDelaysMs, webhookTimeoutMs });
  const documentWork = createDocumentWork(area, core, rendering, events);
  const { formats, documents } = documentWork;
  // Deliveries send e-signing's emails, and e-signing queues them: the signing module is made
  // second and handed to deliveries when an email is sent.
  const late: { signingMail?: TSigningMail } = {};
  const messaging = createMessaging(area, core, documents, {
    mailTrustedCa,
    emailRetryDelaysMs,
    emailAttachmentMaxBytes,
    signingMail: () => late.signingMail!,
  });
  const { mail, shareLinks, deliveries, invitations, mailMerge } = messaging;
  const { signing, sealKeys, verifier } = createSigning(area, core, rendering, documents, messaging, webhooks, signingPollMs);
  late.signingMail = signing.mail;
  const { queue, chunkSender, bulk, closeRenderPool } = createBulkWork(area, database, core, rendering, documentWork, events, {
    work,
    renderThreads,
    zipStallMs,
  });

  const publicApiRepository = createPublicApiRepository(db);
  const publicApi = createPublicApiService({ repository: publicApiRepository, keys: apiKeys, users: userAccounts, plans: quota, log, documents });

  const teams = createTeamsService({
    teams: createTeamsRepository(db),
    findUserByEmail: (email) => userAccounts.findByEmail(email),
    publicUrl: config.publicUrl,
    mailServer: () => mail.hasSystemServer(),
    mailTo: (address, notice) => mail.sendNoticeTo(address, notice),
    emit: (ownerId, event, data) => webhooks.emit(ownerId, event, data),
  });

  const { billing, accountData, accountExport, spool } = createBillingAndExports(area, core, pdf, documentWork, {
    mail,
    queue,
    billingClock,
    accountExportBackgroundAbove,
  });

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
    teams,
    signing,
    sealKeys,
    verifier,
    webhooks,
    apiKeys,
    publicApi,
    userAccounts,
    adminRepository,
    system,
    usersService,
    standing,
    quota,
    assets,
    pdf,
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
        await signing.stop();
        await deliveries.stop();
        await queue.stop();
        await closeRenderPool();
        await rendering.closeInteractivePool();
      },
    },
  };
}
export type TServices = ReturnType<typeof createServices>;
