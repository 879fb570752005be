import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route authenticates by API key alone and never reads a cookie, so no forged request can ride on one. */
    apiKeyOnly?: boolean;
  }
}

/**
 * Cookie-authenticated writes must come from our own pages. Browsers always send Origin on
 * cross-site POSTs (and Sec-Fetch-Site), so a foreign or missing-but-cross-site origin is refused.
 * A request header proves nothing here: a forged form or script can add `Authorization: Bearer …`
 * while the browser still attaches the session cookie, and the cookie is what these routes read.
 */
export function registerCsrfProtection(app: FastifyInstance, opts: { publicUrl: string }) {
  const allowed = new Set([new URL(opts.publicUrl).origin]);
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (!request.url.startsWith('/api/')) return;
    if (request.routeOptions.config?.apiKeyOnly) return;
    const origin = request.headers.origin;
    const host = request.headers.host;
    if (origin) {
      const sameHost = host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
      if (sameHost || allowed.has(origin)) return;
      throw new AppError('csrf_rejected', 'This request came from another site and was refused.');
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw new AppError('csrf_rejected', 'This request came from another site and was refused.');
    }
  });
}
