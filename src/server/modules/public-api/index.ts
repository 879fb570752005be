/*
 * The public API module's front door: the /api/v1 routes, API keys' admission and usage, and the
 * OpenAPI document. Other modules import from here, never from the files behind it.
 */
export { authenticateApiKeys } from './api-caller.ts';
export { adminApiUsageRoutes, apiUsageRoutes } from './api-usage.routes.ts';
export { publicApiDocument, publicApiDocumentBase } from './openapi.ts';
export { createPublicApiRepository } from './public-api.repository.ts';
export { publicApiRoutes } from './public-api.routes.ts';
export { createPublicApiService } from './public-api.service.ts';

/**
 * The API client's type generator (npm run api:client). Loaded on call: it builds a whole app and
 * pulls in openapi-typescript, neither of which the running server should load.
 */
export async function generateApiClientTypes(): Promise<string> {
  const { servedOpenApiDocument, typesFromOpenApi } = await import('./client/openapi-types.ts');
  return typesFromOpenApi(await servedOpenApiDocument());
}
