/**
 * Builds the web app into dist/web: the client bundle (Vite), then the landing page drawn ahead
 * of time into dist/web/landing.html, which the server sends for `/` so the first paint needs no
 * script; and the app's empty frame into dist/web/app.html, which a signed-in person's `/` gets
 * instead. The server-side module that draws it stays in dist/web/ssr (never served): the server
 * draws the landing page again with it once an admin gives the public pages content of their own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { BUILD_APP_CONFIG, type TAppConfig } from '../src/contract/admin.ts';
import { APP_FRAME_FILE, SSR_DIR, SSR_LANDING_FILE } from '../src/contract/site.ts';

const root = path.resolve(import.meta.dirname, '..');
const configFile = path.join(root, 'vite.config.ts');
const webDist = path.join(root, 'dist/web');
const ssrDist = path.join(webDist, SSR_DIR);
export const LANDING_FILE = 'landing.html';
const ROOT_ELEMENT = '<div id="root"></div>';

export async function buildWeb(): Promise<void> {
  await build({ configFile, logLevel: 'warn' });
  await build({
    configFile,
    logLevel: 'warn',
    build: { ssr: path.join(root, 'src/web/prerender.tsx'), outDir: ssrDist, emptyOutDir: true, copyPublicDir: false },
  });
  const { renderLanding, renderAppFrame } = (await import(pathToFileURL(path.join(ssrDist, SSR_LANDING_FILE)).href)) as {
    renderLanding: (config: TAppConfig) => string;
    renderAppFrame: () => string;
  };
  const index = readFileSync(path.join(webDist, 'index.html'), 'utf8');
  if (!index.includes(ROOT_ELEMENT)) throw new Error(`dist/web/index.html has no ${ROOT_ELEMENT} to fill.`);
  writeFileSync(path.join(webDist, LANDING_FILE), index.replace(ROOT_ELEMENT, `<div id="root">${renderLanding(BUILD_APP_CONFIG)}</div>`));
  writeFileSync(path.join(webDist, APP_FRAME_FILE), index.replace(ROOT_ELEMENT, `<div id="root">${renderAppFrame()}</div>`));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildWeb();
