import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route authenticates by API key alone and never reads a cookie, so no forged request can ride on one. */
    apiKeyOnly?: boolean;
  }
}

const REFUSED = 'This request came from another site and was refused.';
const UNPROVEN =
  'This request carries a session cookie but no Origin header, so it cannot be told apart from a forged one, and was refused. Send it from the app, or call the API with a key.';

/**
 * Cookie-authenticated writes must come from our own pages. Browsers send Origin on every
 * cross-origin write and `Sec-Fetch-Site` on every request, so a write that carries a cookie must
 * show one of them: an Origin that is ours, or `Sec-Fetch-Site: same-origin` (with no Origin, or
 * the hidden origin "null"). A write with neither
 * comes from something that is not a current browser (or a browser bug we do not want to rely
 * on), and a cookie is all it would take to act as the user. Writes without a cookie (sign-up,
 * sign-in, a payment gateway's webhook) act as nobody and only need not come from another site.
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
    const site = request.headers['sec-fetch-site'];
    // "null" is an origin the browser hides: our own pages' form posts send it, as their
    // Referrer-Policy is no-referrer. Sec-Fetch-Site (which no page can set) then says where from.
    if (origin && origin !== 'null') {
      const sameHost = host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
      if (sameHost || allowed.has(origin)) return;
      throw new AppError('csrf_rejected', REFUSED);
    }
    if (site === 'same-origin') return;
    if (origin === 'null') throw new AppError('csrf_rejected', REFUSED);
    if (site !== undefined && site !== 'none') throw new AppError('csrf_rejected', REFUSED);
    if (request.headers.cookie) throw new AppError('csrf_rejected', UNPROVEN);
  });
}
