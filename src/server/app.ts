import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import multipart from '@fastify/multipart';
import compress from '@fastify/compress';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { TConfig } from './config.ts';
import type { TDatabase } from './db/client.ts';
import { registerCsrfProtection } from './http/csrf.ts';
import { registerErrorHandling, sendError } from './http/error-handler.ts';
import { registerSpa } from './http/spa.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createSystemRepository } from './modules/system/system.repository.ts';
import { createSystemService } from './modules/system/system.service.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createDocumentsRepository } from './modules/documents/documents.repository.ts';
import { documentsRoutes } from './modules/documents/documents.routes.ts';
import { createDocumentsService } from './modules/documents/documents.service.ts';
import { createPdfService } from './modules/documents/pdf.service.ts';
import { createAssetsRepository } from './modules/assets/assets.repository.ts';
import { assetsRoutes } from './modules/assets/assets.routes.ts';
import { createAssetsService } from './modules/assets/assets.service.ts';
import { createSafeFetcher } from './modules/assets/safe-fetch.ts';
import { demoRoutes } from './modules/demo/demo.routes.ts';
import { createAdminRepository } from './modules/admin/admin.repository.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import { createSecretBox } from './crypto/secret-box.ts';
import { createDemoService } from './modules/demo/demo.service.ts';
import { createFormatsRepository } from './modules/formats/formats.repository.ts';
import { formatsRoutes } from './modules/formats/formats.routes.ts';
import { createFormatsService } from './modules/formats/formats.service.ts';
import { createUsersService } from './modules/users/users.service.ts';

export type TBuildAppOptions = { config: TConfig; database: TDatabase };

/** Query strings can carry OAuth codes and states; logs keep only the path. */
const pathOnly = (url: string) => url.split('?')[0] ?? url;

/** Builds the whole app without listening, so tests can call it with inject(). */
export async function buildApp({ config, database }: TBuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            serializers: {
              req: (req) => ({ method: req.method, url: pathOnly(req.url), remoteAddress: req.ip }),
              res: (res) => ({ statusCode: res.statusCode }),
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
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix positions popovers with style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
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
  await app.register(cookie);
  await app.register(multipart);
  await app.register(swagger, {
    openapi: { info: { title: 'Formwork API', version: '1.0.0' } },
    transform: jsonSchemaTransform,
  });
  registerCsrfProtection(app, { publicUrl: config.publicUrl });

  const { db } = database;
  const usersRepository = createUsersRepository(db);
  const adminRepository = createAdminRepository(db);
  const system = createSystemService({
    system: createSystemRepository(db),
    activeGatewayName: async () => (await adminRepository.activeGateway())?.gatewayName,
    log: (message) => app.log.warn(message),
  });
  const usersService = createUsersService({ users: usersRepository, plans: () => system.planCatalogue() });
  const auth = createAuthService({ db, config, users: usersRepository, usersService, log: app.log });
  const assets = createAssetsService({
    assets: createAssetsRepository(db),
    safeFetch: createSafeFetcher({
      timeoutMs: 5_000,
      maxBytes: 10 * 1024 * 1024,
      maxRedirects: 3,
      allowIps: config.imageFetchAllowedIps,
    }),
    log: app.log,
  });
  const pdf = createPdfService({ assets });
  const formatsRepository = createFormatsRepository(db);
  const formats = createFormatsService({ formats: formatsRepository, users: usersRepository, system, pdf });
  const documents = createDocumentsService({
    documents: createDocumentsRepository(db),
    formats: formatsRepository,
    users: usersRepository,
    usersService,
    pdf,
    log: app.log,
  });

  app.get('/healthz', async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ok', database: database.driver };
    } catch {
      return sendError(reply, 503, 'unavailable', 'The database is not reachable.');
    }
  });
  app.get('/api/openapi.json', async () => app.swagger());

  await app.register(authRoutes, { auth, config });
  await app.register(usersRoutes, { auth, users: usersService, system });
  await app.register(formatsRoutes, { auth, formats });
  await app.register(documentsRoutes, { auth, documents });
  await app.register(assetsRoutes, { auth, assets });
  await app.register(demoRoutes, { demo: createDemoService() });
  const admin = createAdminService({
    admin: adminRepository,
    users: usersRepository,
    system,
    secrets: createSecretBox(config.encryptionKey),
  });
  await app.register(adminRoutes, { auth, admin });
  await registerSpa(app, { webDistDir: config.webDistDir, publicUrl: config.publicUrl });
  return app;
}
