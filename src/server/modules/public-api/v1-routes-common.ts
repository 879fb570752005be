import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '../../../contract/errors.ts';
import type { TPublicApiService } from './public-api.service.ts';
import type { TV1Api } from './v1-api.ts';
import type { TV1Caller } from './v1-documents.ts';

/** Every call may answer these; the OpenAPI document lists them on each operation. */
export const errors = {
  400: ZApiError.describe('The request is malformed or a value is invalid (`bad_request`, `validation_failed`).'),
  401: ZApiError.describe('No API key, or a wrong or revoked one (`unauthorized`).'),
  403: ZApiError.describe('The plan has no API access (`plan_limit`).'),
  404: ZApiError.describe('Not found, or owned by someone else (`not_found`).'),
  429: ZApiError.describe('Too many requests this minute (`rate_limited`, with Retry-After), or the monthly quota is used up (`quota_exceeded`).'),
};
/** What a generation may also answer: turned away before any work, so a retry is always safe. */
export const busy = {
  503: ZApiError.describe(
    'The server is busy and did not start this request (`unavailable`). Nothing was made or counted: send the same request again after the `Retry-After` header’s seconds.',
  ),
};
export const security: { [scheme: string]: string[] }[] = [{ bearerAuth: [] }, { apiKeyHeader: [] }];

/** The key's mode: a test key sees only what test keys made, a live key never sees it. */
export const modeOf = (request: FastifyRequest) => request.apiKey?.mode ?? 'live';
export const callerOf = (request: FastifyRequest): TV1Caller => ({ ownerId: request.callerId, actorId: request.actorId, mode: modeOf(request) });

/** The app with zod schemas typing each route's request and answer. */
export const typedApi = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();

/** What each group of /api/v1 routes is registered with. */
export type TV1Routes = {
  api: ReturnType<typeof typedApi>;
  v1: TV1Api;
  idempotency: TPublicApiService['idempotency'];
};
