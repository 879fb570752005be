import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { TApiKeyMode } from '../../../contract/api-keys.ts';
import { AppError } from '../../http/app-error.ts';
import type { TApiKeysService } from '../api-keys/api-keys.service.ts';
import type { TQuotaService } from '../quota/quota.service.ts';
import type { TPublicApiService } from './public-api.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key a /api/v1 request was made with; null elsewhere. */
    apiKey: { id: string; mode: TApiKeyMode } | null;
    /** Documents this request made, for the usage log. */
    apiDocuments: number;
  }
}

const RATE_WINDOW_MS = 60_000;

/** The key from `Authorization: Bearer <key>` or `X-API-Key: <key>`; cookies never count here. */
function keyFrom(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  const header = request.headers['x-api-key'];
  return typeof header === 'string' && header.trim() ? header.trim() : undefined;
}

/**
 * Makes every route in `scope` act for the owner of the API key the request carries. In order:
 * the key (401), the plan (403), the key's rate (429 with Retry-After). Every answer carries the
 * RateLimit headers, and every request made with a valid key is logged for the usage chart.
 */
export function authenticateApiKeys(
  scope: FastifyInstance,
  deps: { keys: TApiKeysService; quota: TQuotaService; requests: TPublicApiService['requests']; log: FastifyBaseLogger },
) {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, apiKeyOnly: true };
  });
  scope.decorateRequest('apiKey', null);
  scope.decorateRequest('apiDocuments', 0);

  scope.addHook('onRequest', async (request, reply) => {
    const key = keyFrom(request);
    if (!key) {
      throw new AppError(
        'unauthorized',
        'This call needs an API key: send it as "Authorization: Bearer <key>" or "X-API-Key: <key>". Create one in Settings → API Access.',
      );
    }
    const caller = await deps.keys.authenticate(key);
    if (!caller) throw new AppError('unauthorized', 'This API key is not valid: it is mistyped or has been revoked.');
    request.callerId = caller.ownerId;
    request.apiKey = { id: caller.keyId, mode: caller.mode };

    const plan = await deps.quota.apiPlan(caller.ownerId);
    if (!plan.apiAccess) {
      throw new AppError('plan_limit', 'Your plan does not include API access. Upgrade to Enterprise in Settings → Subscription to use the API.');
    }
    const now = Date.now();
    const windowStart = now - (now % RATE_WINDOW_MS);
    const used = await deps.requests.countInWindow(caller.keyId, new Date(windowStart));
    const resetSeconds = Math.max(1, Math.ceil((windowStart + RATE_WINDOW_MS - now) / 1000));
    reply.headers({
      'ratelimit-limit': String(plan.requestsPerMinute),
      'ratelimit-remaining': String(Math.max(0, plan.requestsPerMinute - used)),
      'ratelimit-reset': String(resetSeconds),
    });
    if (used > plan.requestsPerMinute) {
      throw new AppError(
        'rate_limited',
        `This key has made more than ${plan.requestsPerMinute.toLocaleString('en-US')} requests this minute. Wait ${resetSeconds} s, or spread the calls out.`,
        undefined,
        { 'retry-after': String(resetSeconds) },
      );
    }
  });

  scope.addHook('onResponse', async (request, reply) => {
    if (!request.apiKey) return;
    deps.requests
      .record({
        ownerId: request.callerId,
        keyId: request.apiKey.id,
        method: request.method,
        route: request.routeOptions.url ?? 'unknown',
        status: reply.statusCode,
        latencyMs: Math.round(reply.elapsedTime),
        documents: request.apiDocuments,
      })
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not log an API request'));
  });
}
