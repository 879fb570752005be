import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in user this request acts for, resolved once by its route scope's hook before
     * the body is parsed. Empty outside a scope that resolves it.
     */
    callerId: string;
  }
}

export function decorateCaller(app: FastifyInstance) {
  app.decorateRequest('callerId', '');
}

/**
 * Every route registered in `scope` acts for the caller that `resolve` returns, or answers the
 * error `resolve` throws (401 signed out, 403 not allowed) before any handler runs.
 */
export function resolveCallerFor(scope: FastifyInstance, resolve: (request: FastifyRequest) => Promise<string>) {
  scope.addHook('onRequest', async (request) => {
    request.callerId = await resolve(request);
  });
}
