import { decorateWorkspace, resolveWorkspaceFor, teamInvitationRoutes, teamsRoutes } from './modules/workspaces/index.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import multipart from '@fastify/multipart';
import compress from '@fastify/compress';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { TConfig } from './config.ts';
import type { TDatabase } from './db/client.ts';
import { registerCsrfProtection } from './http/csrf.ts';
import { registerErrorHandling, sendError } from './http/error-handler.ts';
import { registerSpa } from './http/spa.ts';
import { serializeError } from './log-errors.ts';
import { pathForLog } from './log-tokens.ts';
import { registerTextGuard } from './http/text-guard.ts';
import { registerLoadShedding, type TLoadShedding } from './http/load-shedding.ts';
import { decorateCaller, resolveCallerFor } from './http/caller.ts';
import { createSecretBox } from './crypto/secret-box.ts';
import { createServices, type TServices, type TServicesOptions } from './services.ts';
import {
  adminRoutes,
  createAdminService,
  createOperatorControls,
  documentSealRoutes,
  operatorControlsRoutes,
  type TAdminService,
} from './modules/admin/index.ts';
import { apiKeysRoutes } from './modules/api-keys/index.ts';
import { assetsRoutes } from './modules/assets/index.ts';
import {
  accountRoutes,
  adminTwoFactorRoutes,
  authRoutes,
  CLIENT_IP_HEADER,
  createAdminSecondFactorGate,
  createAuthService,
  createSignUpPolicy,
  sessionKeyOf,
  type TAuthService,
  type THashGateLimits,
  type TScryptCost,
  twoFactorRoutes,
  twoFactorSignInRoutes,
} from './modules/auth/index.ts';
import { adminBillingRoutes, billingRoutes, billingWebhookRoutes } from './modules/billing/index.ts';
import { bulkRoutes } from './modules/bulk/index.ts';
import { deliveriesRoutes } from './modules/delivery/index.ts';
import { createDemoService, demoRoutes } from './modules/demo/index.ts';
import { documentsRoutes } from './modules/documents/index.ts';
import { formatsRoutes, formatTransferRoutes } from './modules/formats/index.ts';
import { adminMailRoutes, emailSettingsRoutes } from './modules/mail/index.ts';
import {
  adminApiUsageRoutes,
  apiUsageRoutes,
  authenticateApiKeys,
  publicApiDocument,
  publicApiDocumentBase,
  publicApiRoutes,
} from './modules/public-api/index.ts';
import { SHARE_PATH, sharedDocumentRoutes, shareLinksRoutes } from './modules/share-links/index.ts';
import { SIGN_PATH, signatureRequestsRoutes, signerRoutes, verifyRoutes } from './modules/signing/index.ts';
import { templateImportRoutes, type TImportLimits } from './modules/template-import/index.ts';
import { accountDataRoutes, createAccountDeletion, invitationRoutes, publicSystemRoutes, usersRoutes, type TAccountDeletion } from './modules/users/index.ts';
import { webhooksRoutes } from './modules/webhooks/index.ts';

export type TBuildAppOptions = {
  config: TConfig;
  database: TDatabase;
  background?: Pick<
    TServicesOptions,
    | 'workBulkChunks'
    | 'renderThreads'
    | 'zipStallMs'
    | 'renderBudgetMs'
    | 'webhookRetryDelaysMs'
    | 'webhookTimeoutMs'
    | 'billingClock'
    | 'mailTrustedCa'
    | 'emailRetryDelaysMs'
    | 'emailAttachmentMaxBytes'
    | 'accountExportBackgroundAbove'
    | 'signingPollMs'
  > & {
    /** Time and memory one import may use (default IMPORT_LIMITS). */
    importLimits?: TImportLimits;
    /** The sign-in throttle's clock; tests move it past the waits. */
    signInClock?: () => Date;
    /** Password hashes at once and waiting (default: from the thread pool's size). */
    passwordHashLimits?: THashGateLimits;
    /** The scrypt cost of passwords (default SCRYPT_COST, what every stored hash was made with). */
    passwordHashCost?: TScryptCost;
    /** When generations are turned away with 503 (default LOAD_SHEDDING). */
    loadShedding?: TLoadShedding;
  };
  /** Where the log goes instead of standard output (tests read it). */
  logStream?: NodeJS.WritableStream;
};

const PDF_CACHE_MAX_AGE_MS = 7 * 24 * 60 * 60_000;

/** Builds the whole app without listening, so tests can call it with inject(). */
export async function buildApp({ config, database, background = {}, logStream }: TBuildAppOptions): Promise<FastifyInstance> {
  const app = createFastify(config, logStream);
  const checkout = checkoutOrigins();
  await registerHttpEdge(app, config, checkout, background.loadShedding);

  const { importLimits: _importLimits, signInClock, passwordHashLimits, passwordHashCost, loadShedding: _loadShedding, ...serviceOptions } = background;
  const services = createServices({ config, database, log: app.log, ...serviceOptions });
  const auth = createAuth(app, config, database, services, { signInClock, passwordHashLimits, passwordHashCost });
  const accountDeletion = createAccountDeletionFor(app, services, auth);
  // The auth library records a session's address from a header; only the address we resolved goes in it.
  app.addHook('onRequest', async (request) => {
    request.headers[CLIENT_IP_HEADER] = request.ip;
  });
  // Subscriptions move on at their period's end (renewal, grace, back to free) within a minute.
  const refreshCheckoutSources = () =>
    services.billing
      .checkoutSources()
      .then((sources) => checkout.set(sources))
      .catch((error: unknown) => app.log.warn({ err: error }, 'could not read the checkout origins'));
  registerBackgroundWork(app, services, auth, refreshCheckoutSources);
  registerProbes(app, database);

  await registerPublicRoutes(app, config, services, auth);
  decorateCaller(app);
  decorateWorkspace(app);
  await registerApiKeyRoutes(app, config, services);
  await registerSignedInRoutes(app, config, services, { auth, accountDeletion, importLimits: background.importLimits });
  const admin = createAdminService({
    admin: services.adminRepository,
    users: services.userAccounts,
    system: services.system,
    secrets: createSecretBox(config.encryptionKey),
    planSetByAdmin: (userId, planId) => services.billing.detachForAdmin(userId, planId),
    quotaChanged: (userId) => services.quota.forgetRoom(userId),
    gatewaysChanged: () => void refreshCheckoutSources(),
    markEmailVerified: (userId) => auth.markVerified(userId),
  });
  await registerAdminRoutes(app, config, database, services, { auth, admin });
  await registerSpa(app, {
    webDistDir: config.webDistDir,
    publicUrl: config.publicUrl,
    appConfig: () => services.system.appConfig(),
    // The same cached lookup signed-in routes use: a known cookie costs no query.
    signedIn: (request) =>
      auth.currentUserId(request.headers).then(
        () => true,
        () => false,
      ),
    // A share link's or a signer's page: 404 once it can no longer be used, and never indexed or cached.
    pageAnswer: async (path) => {
      const isOpen = path.startsWith(SHARE_PATH)
        ? () => services.shareLinks.isOpen(path.slice(SHARE_PATH.length))
        : path.startsWith(SIGN_PATH)
          ? () => services.signing.isOpen(path.slice(SIGN_PATH.length))
          : undefined;
      if (!isOpen) return undefined;
      return { status: (await isOpen()) ? 200 : 404, headers: { 'x-robots-tag': 'noindex, nofollow', 'cache-control': 'private, no-store' } };
    },
  });
  return app;
}

function createFastify(config: TConfig, logStream: NodeJS.WritableStream | undefined): FastifyInstance {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...(logStream ? { stream: logStream } : {}),
            serializers: {
              req: (req) => ({ method: req.method, url: pathForLog(req.url), remoteAddress: req.ip }),
              res: (res) => ({ statusCode: res.statusCode }),
              err: serializeError,
            },
            redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
            hooks: {
              // main.ts prints one start-up line with the public URL; Fastify's per-interface lines are noise.
              logMethod(args, method) {
                if (typeof args[0] === 'string' && args[0].startsWith('Server listening at')) return;
                method.apply(this, args);
              },
            },
          },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Keep-alive sockets must not hold a graceful shutdown open.
    forceCloseConnections: 'idle',
    // A client that stops reading a download without leaving would otherwise hold its socket and
    // buffers for good (Node sets no idle timeout); five quiet minutes either way end it.
    connectionTimeout: 5 * 60_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  return app;
}

/**
 * Razorpay Checkout runs its script and frame from Razorpay's origins on our pages; they are
 * allowed as the gateways admins set up say (refreshed when one changes, and every minute for
 * changes made through another process).
 */
function checkoutOrigins() {
  let sources: string[] = [];
  return {
    directive: () => sources.join(' ') || "'self'",
    set: (next: string[]) => (sources = next),
  };
}

/** Security headers, compression, cookies, uploads, the OpenAPI description and the request guards. */
async function registerHttpEdge(app: FastifyInstance, config: TConfig, checkout: ReturnType<typeof checkoutOrigins>, loadShedding?: TLoadShedding) {
  const withCheckout = (...base: string[]) => [...base, checkout.directive];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: withCheckout("'self'"),
        // Radix positions popovers with style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: withCheckout("'self'"),
        frameSrc: withCheckout("'self'", 'blob:'),
        objectSrc: ["'self'"],
        frameAncestors: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: config.publicUrl.startsWith('https://'),
  });
  // The web bundle is ~0.7 MB of text; PDFs and images are already compressed and are left alone.
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  // Before the body is read and before any session, key or CSRF check: a turned-away request costs almost nothing.
  await registerLoadShedding(app, loadShedding);
  await app.register(cookie);
  await app.register(multipart);
  await app.register(swagger, {
    openapi: publicApiDocumentBase(config.publicUrl),
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  registerCsrfProtection(app, { publicUrl: config.publicUrl });
  registerTextGuard(app);
}

function createAuth(
  app: FastifyInstance,
  config: TConfig,
  database: TDatabase,
  services: TServices,
  { signInClock, passwordHashLimits, passwordHashCost }: { signInClock?: () => Date; passwordHashLimits?: THashGateLimits; passwordHashCost?: TScryptCost },
) {
  return createAuthService({
    db: database.db,
    config,
    users: services.userAccounts,
    usersService: services.usersService,
    log: app.log,
    notify: (userId, notice) => services.mail.sendNotice(userId, notice),
    mailServer: () => services.mail.hasSystemServer(),
    mailTo: (address, notice) => services.mail.sendNoticeTo(address, notice),
    clock: signInClock,
    hashLimits: passwordHashLimits,
    hashCost: passwordHashCost,
    signUpPolicy: createSignUpPolicy({
      policy: () => services.system.signUpPolicy(),
      invitations: services.invitations,
      teamInvites: async (token, email) => (await services.teams.preview(token))?.email === email.trim().toLowerCase(),
      singleSignOn: config.oidc?.name ?? null,
    }),
  });
}

function createAccountDeletionFor(app: FastifyInstance, services: TServices, auth: TAuthService) {
  return createAccountDeletion({
    data: services.accountData,
    confirmIdentity: (userId, proof, origin) => auth.confirmIdentity(userId, proof, origin),
    cancelSubscription: (userId) => services.billing.cancelForDeletion(userId),
    forgetSessions: (userId) => auth.forgetSessionsOf(userId),
    removeFiles: {
      cachedPdf: (id) => services.pdfCache.delete(id),
      batchSpool: (id) => services.spool.drop(id),
      exports: (ids) => services.accountExport.removeFiles(ids),
    },
    log: app.log,
  });
}

/**
 * Jobs left unfinished by a stopped or crashed process carry on once the app is ready.
 * Cached PDFs of single documents are dropped a week after they were made: a download after
 * that renders the same bytes again, and the disk holds at most a week of documents.
 */
function registerBackgroundWork(app: FastifyInstance, services: TServices, auth: TAuthService, refreshCheckoutSources: () => Promise<unknown>) {
  const sweepPdfCache = () =>
    services.pdfCache.sweep(PDF_CACHE_MAX_AGE_MS).catch((error: unknown) => app.log.warn({ err: error }, 'could not sweep the PDF cache'));
  const sweepPublicApi = () => services.publicApi.sweep().catch((error: unknown) => app.log.warn({ err: error }, 'could not sweep the API tables'));
  const sweepBilling = () => {
    void refreshCheckoutSources();
    return services.billing.sweep().catch((error: unknown) => app.log.warn({ err: error }, 'could not sweep subscriptions'));
  };
  let sweeper: NodeJS.Timeout | undefined;
  let apiSweeper: NodeJS.Timeout | undefined;
  let billingSweeper: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    services.bulk.resumeUnfinished().catch((error: unknown) => app.log.error({ err: error }, 'could not resume bulk jobs'));
    void sweepPdfCache();
    sweeper = setInterval(() => void sweepPdfCache(), 6 * 60 * 60_000);
    sweeper.unref();
    void sweepPublicApi();
    services.webhooks.start();
    services.deliveries.start();
    services.signing.start();
    apiSweeper = setInterval(() => void sweepPublicApi(), 60 * 60_000);
    apiSweeper.unref();
    void sweepBilling();
    billingSweeper = setInterval(() => void sweepBilling(), 60_000);
    billingSweeper.unref();
    auth.start();
  });
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    clearInterval(apiSweeper);
    clearInterval(billingSweeper);
    await auth.stop();
    await services.publicApi.flushRequestLog();
    await services.background.stop();
  });
}

function registerProbes(app: FastifyInstance, database: TDatabase) {
  // Liveness: the process answers. It touches nothing that could queue behind other requests
  // (the embedded database runs one query at a time), so a busy server is not taken for a dead one.
  app.get('/healthz', async () => ({ status: 'ok' }));
  // Readiness: the database answers, so requests can be served.
  app.get('/readyz', async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ready', database: database.driver };
    } catch {
      return sendError(reply, 'unavailable', 'The database is not reachable.');
    }
  });
  // Integrators get the public API; the whole surface (the web app's own calls too) stays
  // described for our tests and tools.
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => publicApiDocument(app.swagger()));
  app.get('/api/internal/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** Routes anyone may call: signing in, invitations, the demo, payment webhooks, shared documents, checking a sealed PDF. */
async function registerPublicRoutes(app: FastifyInstance, config: TConfig, services: TServices, auth: TAuthService) {
  await app.register(authRoutes, { auth, config });
  await app.register(twoFactorSignInRoutes, { auth });
  await app.register(invitationRoutes, {
    invitations: services.invitations,
    teamInvitationAddress: async (token) => (await services.teams.preview(token))?.email,
  });
  await app.register(teamInvitationRoutes, { teams: services.teams });
  await app.register(publicSystemRoutes, { system: services.system });
  await app.register(demoRoutes, { demo: createDemoService({ pdf: services.pdf }) });
  await app.register(billingWebhookRoutes, { billing: services.billing });
  await app.register(sharedDocumentRoutes, { shareLinks: services.shareLinks });
  await app.register(signerRoutes, { signing: services.signing });
  await app.register(verifyRoutes, { verifier: services.verifier });
}

/** The public API, for callers holding an API key. */
async function registerApiKeyRoutes(app: FastifyInstance, config: TConfig, services: TServices) {
  await app.register(async (keyed) => {
    authenticateApiKeys(keyed, { publicApi: services.publicApi });
    await keyed.register(publicApiRoutes, {
      publicUrl: config.publicUrl,
      formats: services.formats,
      documents: services.documents,
      deliveries: services.deliveries,
      bulk: services.bulk,
      signing: services.signing,
      publicApi: services.publicApi,
    });
  });
}

async function registerSignedInRoutes(
  app: FastifyInstance,
  config: TConfig,
  services: TServices,
  { auth, accountDeletion, importLimits }: { auth: TAuthService; accountDeletion: TAccountDeletion; importLimits: TImportLimits | undefined },
) {
  // The person's own account: profile, password, second factor, their data, and their teams.
  await app.register(async (signedIn) => {
    resolveCallerFor(signedIn, (request) => auth.currentUserId(request.headers));
    await signedIn.register(accountRoutes, { auth });
    await signedIn.register(twoFactorRoutes, { auth });
    await signedIn.register(accountDataRoutes, {
      exports: services.accountExport,
      deletion: accountDeletion,
      secureCookies: config.publicUrl.startsWith('https://'),
    });
    await signedIn.register(teamsRoutes, { teams: services.teams, users: services.userAccounts });
  });
  // What belongs to a workspace: the person's own, or a team's when the request names one.
  await app.register(async (workspace) => {
    resolveWorkspaceFor(workspace, { currentUserId: (request) => auth.currentUserId(request.headers), roleOf: services.teams.roleOf });
    await workspace.register(usersRoutes, { users: services.usersService });
    await workspace.register(apiKeysRoutes, { keys: services.apiKeys });
    await workspace.register(apiUsageRoutes, { publicApi: services.publicApi });
    await workspace.register(webhooksRoutes, { webhooks: services.webhooks });
    await workspace.register(emailSettingsRoutes, { mail: services.mail });
    await workspace.register(deliveriesRoutes, { deliveries: services.deliveries, mailMerge: services.mailMerge });
    await workspace.register(shareLinksRoutes, { shareLinks: services.shareLinks });
    await workspace.register(signatureRequestsRoutes, { signing: services.signing });
    await workspace.register(formatsRoutes, { formats: services.formats });
    await workspace.register(formatTransferRoutes, { formats: services.formats, assets: services.assets, requireTeamRole: services.teams.requireRole });
    await workspace.register(documentsRoutes, { documents: services.documents });
    await workspace.register(bulkRoutes, { bulk: services.bulk });
    await workspace.register(assetsRoutes, { assets: services.assets });
    await workspace.register(templateImportRoutes, { assets: services.assets, limits: importLimits });
    await workspace.register(billingRoutes, { billing: services.billing, sessionOf: sessionKeyOf });
  });
}

/** Admin routes: a signed-in admin, with a second factor when the installation asks for one. */
async function registerAdminRoutes(
  app: FastifyInstance,
  config: TConfig,
  database: TDatabase,
  services: TServices,
  { auth, admin }: { auth: TAuthService; admin: TAdminService },
) {
  const adminSecondFactor = createAdminSecondFactorGate({ db: database.db, required: () => services.system.adminTwoFactorRequired() });
  const operatorControls = createOperatorControls({
    admin,
    adminRepository: services.adminRepository,
    users: services.userAccounts,
    system: services.system,
    invitations: services.invitations,
    singleSignOn: config.oidc?.name ?? null,
    auth,
    mailServer: () => services.mail.hasSystemServer(),
  });
  await app.register(async (admins) => {
    resolveCallerFor(admins, async (request) => {
      const row = await admin.requireAdmin(await auth.currentUserId(request.headers));
      await adminSecondFactor(row);
      return row.id;
    });
    await admins.register(adminTwoFactorRoutes, { auth, audit: admin.audit });
    await admins.register(adminRoutes, { admin });
    await admins.register(operatorControlsRoutes, { controls: operatorControls });
    await admins.register(documentSealRoutes, {
      keys: services.sealKeys,
      system: services.system,
      adminRepository: services.adminRepository,
      audit: admin.audit,
    });
    await admins.register(adminApiUsageRoutes, { publicApi: services.publicApi });
    await admins.register(adminBillingRoutes, { billing: services.billing });
    await admins.register(adminMailRoutes, { mail: services.mail, audit: admin.audit });
  });
}
