import type { FastifyInstance } from 'fastify';
import { createV1Api } from './v1-api.ts';
import { v1BatchRoutes } from './v1-batches.routes.ts';
import type { TPublicApiDeps } from './v1-deps.ts';
import { landingPageGenerateRoute, v1DocumentRoutes } from './v1-documents.routes.ts';
import { v1EmailRoutes } from './v1-email.routes.ts';
import { v1FormatRoutes } from './v1-formats.routes.ts';
import { v1SigningRoutes } from './v1-signing.routes.ts';
import { typedApi, type TV1Routes } from './v1-routes-common.ts';

export type { TPublicApiDeps };

/**
 * The API-key routes: /api/v1 and the landing page's short form. Each route parses, calls one
 * use case (v1-api.ts) and shapes the HTTP answer. Registered in this order because the OpenAPI
 * document lists operations in the order they were registered.
 */
export async function publicApiRoutes(app: FastifyInstance, deps: TPublicApiDeps) {
  const routes: TV1Routes = {
    api: typedApi(app),
    v1: createV1Api(deps),
    idempotency: deps.publicApi.idempotency,
  };
  v1FormatRoutes(routes);
  v1DocumentRoutes(routes);
  v1EmailRoutes(routes);
  v1BatchRoutes(routes);
  v1SigningRoutes(routes);
  landingPageGenerateRoute(routes);
}
