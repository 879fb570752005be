import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BUILD_APP_CONFIG, type TAppConfig } from '../../contract/admin.ts';
import { APP_CONFIG_ELEMENT_ID } from '../../contract/site.ts';
import { APP_FRAME_FILE, PRERENDERED_PAGES, PUBLIC_URL_TOKEN, SSR_DIR, SSR_LANDING_FILE } from '../../contract/site.ts';
import { sendError } from './error-handler.ts';

/**
 * Serves the built web app. Hashed assets are immutable; index.html is never cached so a deploy
 * shows at once. Unknown non-API paths get index.html and the SPA draws its 404 page; `/` gets the
 * landing page pre-rendered into it (landing.html), so a visitor sees it before any script runs,
 * and `/docs/api` the API reference's frame (docs-api.html) likewise.
 * A signed-in person's `/` is their dashboard, not the landing: with a live session the request
 * gets the app's frame instead (app.html: the app shell's skeleton, drawn at build time), so the
 * marketing page never flashes before the dashboard. That answer depends on the cookie, so `/`
 * varies by it. Both name this installation's own address (canonical, Open Graph) through PUBLIC_URL_TOKEN.
 *
 * Every page also carries the public app config (support and sales addresses, the landing and
 * About pages' figures, testimonials and team) as a JSON data block, so the app's first render
 * knows it. The landing page shows that content, so the build's copy (drawn with none of it) is
 * sent only while the settings say nothing; otherwise the page is drawn again with the settings
 * by the build's server-side module (`ssr/prerender.js`, the same React code the browser hydrates
 * with), once per change of the settings.
 */

/** The pages anyone may read, as a sitemap lists them. */
const ROOT_ELEMENT = '<div id="root"></div>';

const PUBLIC_PAGES = ['/', '/about', '/login', '/verify'];

/** A page whose answer depends on what it names (a share link): its status and extra headers. */
export type TPageAnswer = { status: number; headers?: Record<string, string> };

type TRenderPage = (config: TAppConfig) => string;
type TRendererName = (typeof PRERENDERED_PAGES)[number]['render'];

/** What of the config the public pages draw: when it says nothing, the build's copy is the page. */
function landingContent(config: TAppConfig): string {
  const { supportEmail, salesEmail, publicPages } = config;
  return JSON.stringify({ supportEmail, salesEmail, publicPages });
}

/** A JSON data block the browser never runs; `<` is escaped so no text in it can close the element. */
function configBlock(config: TAppConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${APP_CONFIG_ELEMENT_ID}">${json}</script>`;
}

export async function registerSpa(
  app: FastifyInstance,
  opts: {
    webDistDir: string;
    publicUrl: string;
    pageAnswer?: (path: string) => Promise<TPageAnswer | undefined>;
    /** The public app config every page carries (read on each page; the caller caches it). */
    appConfig: () => Promise<TAppConfig>;
    /** Whether the request carries a live session (only asked for `/`, and only when it has a cookie). */
    signedIn?: (request: FastifyRequest) => Promise<boolean>;
  },
) {
  const indexFile = path.join(opts.webDistDir, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: opts.webDistDir,
      wildcard: false,
      index: false,
      // The landing page's server-side module is for this process, not for browsers.
      globIgnore: [`${SSR_DIR}/**`],
      // One place decides caching: the plugin's own header would otherwise be written after ours.
      cacheControl: false,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=0');
      },
    });
  }
  const page = (file: string) => readFileSync(path.join(opts.webDistDir, file), 'utf8').replaceAll(PUBLIC_URL_TOKEN, opts.publicUrl);
  const indexHtml = hasWeb ? page('index.html') : undefined;
  const builtPage = (file: string) => (hasWeb && existsSync(path.join(opts.webDistDir, file)) ? page(file) : indexHtml);
  const appHtml = builtPage(APP_FRAME_FILE);
  const prerendered = new Map<string, { built: string | undefined; render: TRendererName }>(
    PRERENDERED_PAGES.map(({ path: pagePath, file, render }) => [pagePath, { built: builtPage(file), render }]),
  );
  const ssrFile = path.join(opts.webDistDir, SSR_DIR, SSR_LANDING_FILE);
  const buildContent = landingContent(BUILD_APP_CONFIG);

  // Loaded on the first public page with content of its own; a build without it (or one that
  // fails to load) sends the app without a pre-rendered page, which then draws the content itself.
  let renderer: Promise<Partial<Record<TRendererName, TRenderPage>> | undefined> | undefined;
  const loadRenderer = () =>
    (renderer ??= existsSync(ssrFile)
      ? import(pathToFileURL(ssrFile).href).catch((error: unknown) => {
          app.log.error({ err: error }, 'could not load the public pages renderer; they are drawn in the browser');
          return undefined;
        })
      : Promise.resolve(undefined));
  const drawn = new Map<string, { content: string; html: string }>();

  /** A pre-rendered page: the build's copy, or the page drawn with this installation's content. */
  async function prerenderedPage(pagePath: string, config: TAppConfig): Promise<string | undefined> {
    const built = prerendered.get(pagePath);
    if (!built) return indexHtml;
    const content = landingContent(config);
    if (content === buildContent) return built.built;
    const last = drawn.get(pagePath);
    if (last?.content === content) return last.html;
    const render = (await loadRenderer())?.[built.render];
    if (!render || !indexHtml) return indexHtml;
    let root: string;
    try {
      root = render(config).replaceAll(PUBLIC_URL_TOKEN, opts.publicUrl);
    } catch (error) {
      app.log.error({ err: error, path: pagePath }, 'could not draw a public page; it is drawn in the browser');
      return indexHtml;
    }
    // The built page's head (what it preloads), around the root drawn anew.
    const template = built.built ? built.built.slice(0, built.built.indexOf('</head>')) + indexHtml.slice(indexHtml.indexOf('</head>')) : indexHtml;
    const html = template.replace(ROOT_ELEMENT, `<div id="root">${root}</div>`);
    drawn.set(pagePath, { content, html });
    return html;
  }

  /** A stale, forged or unreadable cookie is a signed-out visitor, never a failed page. */
  async function hasSession(request: FastifyRequest): Promise<boolean> {
    if (!opts.signedIn || !request.headers.cookie) return false;
    try {
      return await opts.signedIn(request);
    } catch (error) {
      request.log.warn({ err: error }, 'could not look up the session for /; sending the landing page');
      return false;
    }
  }

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
    const config = await opts.appConfig();
    const home = path === '/';
    const body = home && (await hasSession(request)) ? appHtml : await prerenderedPage(path, config);
    const html = body!.replace('</head>', `${configBlock(config)}</head>`);
    // The app draws the page either way; a link that opens nothing says so with its status too.
    const answer = await opts.pageAnswer?.(path);
    // `/` is the landing or the app by the session cookie: no shared cache may hand one to the other.
    if (home) reply.header('vary', 'Cookie');
    return reply
      .status(answer?.status ?? 200)
      .headers({ 'cache-control': 'no-cache', ...answer?.headers })
      .type('text/html; charset=utf-8')
      .send(html);
  });
  app.setNotFoundHandler(apiNotFound);
}
