import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TApiKeyMode } from '../../../contract/api-keys.ts';
import { AppError } from '../../http/app-error.ts';
import type { TPublicApiService } from './public-api.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key a /api/v1 request was made with; null elsewhere. */
    apiKey: { id: string; mode: TApiKeyMode } | null;
    /** Documents this request made, for the usage log. */
    apiDocuments: number;
  }
}

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
 * These routes never read a cookie, so the CSRF check (which guards cookie sessions) skips them.
 */
export function authenticateApiKeys(scope: FastifyInstance, deps: { publicApi: Pick<TPublicApiService, 'admit' | 'logRequest'> }) {
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
    const started = performance.now();
    const admitted = await deps.publicApi.admit(key);
    // What the key check and rate count cost this request, for clients and the benchmark.
    reply.header('server-timing', `key;dur=${(performance.now() - started).toFixed(1)}`);
    if (!admitted) throw new AppError('unauthorized', 'This API key is not valid: it is mistyped or has been revoked.');
    if (admitted.suspended)
      throw new AppError('unauthorized', 'The account this API key belongs to is suspended. Ask an administrator of this installation to restore it.');
    if (admitted.makerAway)
      throw new AppError(
        'unauthorized',
        'This API key no longer works: the person who made it is no longer an admin of its team. A team admin can make a new key in Settings → API Access.',
      );
    request.callerId = admitted.ownerId;
    // A key acts for its workspace; what it does is done in the name of whoever made it.
    request.actorId = admitted.createdBy ?? admitted.ownerId;
    request.apiKey = { id: admitted.keyId, mode: admitted.mode };
    if (!admitted.apiAccess) {
      throw new AppError('plan_limit', 'Your plan does not include API access. Upgrade to Enterprise in Settings → Subscription to use the API.');
    }
    reply.headers({
      'ratelimit-limit': String(admitted.limit),
      'ratelimit-remaining': String(Math.max(0, admitted.limit - admitted.used)),
      'ratelimit-reset': String(admitted.resetSeconds),
    });
    if (admitted.used > admitted.limit) {
      throw new AppError(
        'rate_limited',
        `This key has made more than ${admitted.limit.toLocaleString('en-US')} requests this minute. Wait ${admitted.resetSeconds} s, or spread the calls out.`,
        undefined,
        { 'retry-after': String(admitted.resetSeconds) },
      );
    }
  });

  scope.addHook('onResponse', async (request, reply) => {
    if (!request.apiKey) return;
    deps.publicApi.logRequest({
      ownerId: request.callerId,
      keyId: request.apiKey.id,
      method: request.method,
      route: request.routeOptions.url ?? 'unknown',
      status: reply.statusCode,
      latencyMs: Math.round(reply.elapsedTime),
      documents: request.apiDocuments,
    });
  });
}
