/**
 * Builds the web app into dist/web: the client bundle (Vite), then the public pages drawn ahead of
 * time (the landing page into dist/web/landing.html, the API reference's frame into docs-api.html),
 * which the server sends for their paths so the first paint needs no script; and the app's empty
 * frame into dist/web/app.html, which a signed-in person's `/` gets instead. The server-side module
 * that draws them stays in dist/web/ssr (never served): the server draws the pages again with it
 * once an admin gives the public pages content of their own.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { BUILD_APP_CONFIG, type TAppConfig } from '../src/contract/admin.ts';
import { APP_FRAME_FILE, PRERENDERED_PAGES, SSR_DIR, SSR_LANDING_FILE } from '../src/contract/site.ts';

const root = path.resolve(import.meta.dirname, '..');
const configFile = path.join(root, 'vite.config.ts');
const webDist = path.join(root, 'dist/web');
const ssrDist = path.join(webDist, SSR_DIR);
const ROOT_ELEMENT = '<div id="root"></div>';
const MANIFEST = '.vite/manifest.json';

/**
 * What a page drawn ahead of time (keyed by its path, or by file for the app's frame) fetches
 * first, named in its head so the browser starts at once instead of after the app's script has
 * run: the code it loads on demand (its source file, as Vite's manifest names it) and the data it
 * reads.
 */
const PAGE_PRELOADS: Record<string, { modules: string[]; fetches: string[] }> = {
  '/': { modules: ['pages/landing-page.tsx'], fetches: [] },
  '/docs/api': { modules: ['features/api-docs/api-reference.tsx'], fetches: ['/api/openapi.json'] },
  // A signed-in person's `/`: the dashboard's figures load with the session, not after it. (Its
  // code is not named: preloaded with the entry, it slowed the entry down and the dashboard with it.)
  [APP_FRAME_FILE]: { modules: [], fetches: ['/api/auth/session', '/api/user/stats'] },
};

/**
 * A page drawn ahead of time paints from its HTML and CSS alone: its scripts only take it over, so
 * they load at low priority and do not compete with what the first paint needs (the stylesheet,
 * the text font).
 */
function lowPriorityScripts(html: string): string {
  const marked = html
    .replace(/<script type="module" crossorigin src=/g, '<script type="module" crossorigin fetchpriority="low" src=')
    .replace(/<link rel="modulepreload" crossorigin href=/g, '<link rel="modulepreload" crossorigin fetchpriority="low" href=');
  if (marked === html) throw new Error('dist/web/index.html has no module script to load at low priority.');
  return marked;
}

type TManifest = Record<string, { file: string; imports?: string[]; dynamicImports?: string[] }>;

/** The page's entry (src/web/boot.ts) loads the app's start once the page has painted: every drawn page fetches it at once. */
const APP_START_FROM = 'index.html';

/** The head links that start a page's own code and data loading with the HTML. */
function preloadLinks(manifest: TManifest, index: string, page: string): string {
  const wanted = PAGE_PRELOADS[page];
  if (!wanted) return '';
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the web build's manifest: its preload would point nowhere.`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  const appStart = manifest[APP_START_FROM]?.dynamicImports;
  if (!appStart?.length) throw new Error(`${APP_START_FROM} loads no app start in the web build's manifest: the pages would preload nothing.`);
  [...appStart, ...wanted.modules].forEach(visit);
  // What index.html already loads (the entry and its imports) is not named twice.
  const modules = [...files].filter((file) => !index.includes(`/${file}"`));
  return [
    ...modules.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    // The app's calls send cookies (credentials: include): the preload must ask the same way to be reused.
    ...wanted.fetches.map((url) => `<link rel="preload" as="fetch" href="${url}" crossorigin="use-credentials">`),
  ].join('');
}

export async function buildWeb(): Promise<void> {
  await build({ configFile, logLevel: 'warn', build: { manifest: MANIFEST } });
  const manifestFile = path.join(webDist, MANIFEST);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as TManifest;
  // The manifest is for this script, not for browsers.
  rmSync(path.dirname(manifestFile), { recursive: true, force: true });
  await build({
    configFile,
    logLevel: 'warn',
    build: { ssr: path.join(root, 'src/web/prerender.tsx'), outDir: ssrDist, emptyOutDir: true, copyPublicDir: false },
  });
  const renderer = (await import(pathToFileURL(path.join(ssrDist, SSR_LANDING_FILE)).href)) as Record<
    (typeof PRERENDERED_PAGES)[number]['render'],
    (config: TAppConfig) => string
  > & { renderAppFrame: () => string };
  const index = readFileSync(path.join(webDist, 'index.html'), 'utf8');
  if (!index.includes(ROOT_ELEMENT)) throw new Error(`dist/web/index.html has no ${ROOT_ELEMENT} to fill.`);
  for (const page of PRERENDERED_PAGES) {
    const html = lowPriorityScripts(index.replace('</head>', `${preloadLinks(manifest, index, page.path)}</head>`));
    writeFileSync(path.join(webDist, page.file), html.replace(ROOT_ELEMENT, `<div id="root">${renderer[page.render](BUILD_APP_CONFIG)}</div>`));
  }
  // The frame's scripts keep their priority: the dashboard that replaces it needs them (measured).
  const appFrame = index.replace('</head>', `${preloadLinks(manifest, index, APP_FRAME_FILE)}</head>`);
  writeFileSync(path.join(webDist, APP_FRAME_FILE), appFrame.replace(ROOT_ELEMENT, `<div id="root">${renderer.renderAppFrame()}</div>`));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildWeb();
