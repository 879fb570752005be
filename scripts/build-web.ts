/**
 * Builds the web app into dist/web: the client bundle (Vite), then the landing page pre-rendered
 * into dist/web/landing.html, which the server sends for `/` so the first paint needs no script.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const configFile = path.join(root, 'vite.config.ts');
const webDist = path.join(root, 'dist/web');
const prerenderDist = path.join(root, 'dist/prerender');
export const LANDING_FILE = 'landing.html';
const ROOT_ELEMENT = '<div id="root"></div>';

export async function buildWeb(): Promise<void> {
  await build({ configFile, logLevel: 'warn' });
  await build({
    configFile,
    logLevel: 'warn',
    build: { ssr: path.join(root, 'src/web/prerender.tsx'), outDir: prerenderDist, emptyOutDir: true, copyPublicDir: false },
  });
  const { renderLanding } = (await import(pathToFileURL(path.join(prerenderDist, 'prerender.js')).href)) as { renderLanding: () => string };
  const index = readFileSync(path.join(webDist, 'index.html'), 'utf8');
  if (!index.includes(ROOT_ELEMENT)) throw new Error(`dist/web/index.html has no ${ROOT_ELEMENT} to fill.`);
  writeFileSync(path.join(webDist, LANDING_FILE), index.replace(ROOT_ELEMENT, `<div id="root">${renderLanding()}</div>`));
  rmSync(prerenderDist, { recursive: true, force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildWeb();
