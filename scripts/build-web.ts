/**
 * Builds the web app into dist/web: the client bundle (Vite), then the public pages drawn ahead of
 * time (the landing page into dist/web/landing.html, the API reference's frame into docs-api.html),
 * which the server sends for their paths so the first paint needs no script; and the app's empty
 * frame into dist/web/app.html, which a signed-in person's `/` gets instead. The server-side module
 * that draws them stays in dist/web/ssr (never served): the server draws the pages again with it
 * once an admin gives the public pages content of their own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
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

export async function buildWeb(): Promise<void> {
  await build({ configFile, logLevel: 'warn' });
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
    writeFileSync(path.join(webDist, page.file), index.replace(ROOT_ELEMENT, `<div id="root">${renderer[page.render](BUILD_APP_CONFIG)}</div>`));
  }
  writeFileSync(path.join(webDist, APP_FRAME_FILE), index.replace(ROOT_ELEMENT, `<div id="root">${renderer.renderAppFrame()}</div>`));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildWeb();
