import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC_URL_TOKEN } from '../../contract/site.ts';
import { sendError } from './error-handler.ts';

/**
 * Serves the built web app. Hashed assets are immutable; index.html is never cached so a deploy
 * shows at once. Unknown non-API paths get index.html and the SPA draws its 404 page; `/` gets the
 * landing page pre-rendered into it (landing.html), so a visitor sees it before any script runs.
 * Both name this installation's own address (canonical, Open Graph) through PUBLIC_URL_TOKEN.
 */

/** The pages anyone may read, as a sitemap lists them. */
const PUBLIC_PAGES = ['/', '/about', '/login'];

/** A page whose answer depends on what it names (a share link): its status and extra headers. */
export type TPageAnswer = { status: number; headers?: Record<string, string> };

export async function registerSpa(
  app: FastifyInstance,
  opts: { webDistDir: string; publicUrl: string; pageAnswer?: (path: string) => Promise<TPageAnswer | undefined> },
) {
  const indexFile = path.join(opts.webDistDir, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: opts.webDistDir,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  const page = (file: string) => readFileSync(path.join(opts.webDistDir, file), 'utf8').replaceAll(PUBLIC_URL_TOKEN, opts.publicUrl);
  const indexHtml = hasWeb ? page('index.html') : undefined;
  const landingHtml = hasWeb && existsSync(path.join(opts.webDistDir, 'landing.html')) ? page('landing.html') : indexHtml;

  const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/healthz') || url.startsWith('/readyz');
  const apiNotFound = (request: FastifyRequest, reply: FastifyReply) =>
    sendError(reply, 'not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`);

  // Crawlers get what they ask for, with this installation's own address, not the app's HTML.
  app.get('/robots.txt', (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(`User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${opts.publicUrl}/sitemap.xml\n`),
  );
  app.get('/sitemap.xml', (_request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${PUBLIC_PAGES.map(
          (page) => `  <url><loc>${opts.publicUrl}${page}</loc></url>\n`,
        ).join('')}</urlset>\n`,
      ),
  );

  // A real route (not the not-found handler) so the whole hook chain, compression included, applies.
  app.get('/*', async (request, reply) => {
    if (isApiPath(request.url)) return apiNotFound(request, reply);
    if (!indexHtml) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built. Run `npm run build`, or start with `npm start`, which builds it.');
    }
    const path = request.url.split('?')[0] ?? '/';
    const html = path === '/' ? landingHtml : indexHtml;
    // The app draws the page either way; a link that opens nothing says so with its status too.
    const answer = await opts.pageAnswer?.(path);
    return reply
      .status(answer?.status ?? 200)
      .headers({ 'cache-control': 'no-cache', ...answer?.headers })
      .type('text/html; charset=utf-8')
      .send(html);
  });
  app.setNotFoundHandler(apiNotFound);
}
