/*
 * The public API module's front door: the /api/v1 routes, API keys' admission and usage, and the
 * OpenAPI document. Other modules import from here, never from the files behind it.
 */
export { authenticateApiKeys } from './api-caller.ts';
export { adminApiUsageRoutes, apiUsageRoutes } from './api-usage.routes.ts';
export { isPublicApiPath, publicApiDocument, publicApiDocumentBase } from './openapi.ts';
export { createPublicApiRepository, type TPublicApiRepository } from './public-api.repository.ts';
export { publicApiRoutes, type TPublicApiDeps } from './public-api.routes.ts';
export { API_REQUEST_RETENTION_DAYS, createPublicApiService, type TAdmission, type TPublicApiService } from './public-api.service.ts';

/**
 * The API client's type generator (npm run api:client). Loaded on call: it builds a whole app and
 * pulls in openapi-typescript, neither of which the running server should load.
 */
export async function generateApiClientTypes(): Promise<string> {
  const { servedOpenApiDocument, typesFromOpenApi } = await import('./client/openapi-types.ts');
  return typesFromOpenApi(await servedOpenApiDocument());
}
