/**
 * Stands for this installation's public address in pages built ahead of time (index.html, the
 * pre-rendered landing page); the server replaces it with its own address as it sends them.
 */
export const PUBLIC_URL_TOKEN = '__PUBLIC_URL__';

/**
 * Where the web build leaves the module that draws the landing page on the server (inside the
 * build, never served to browsers), and its file name.
 */
export const SSR_DIR = 'ssr';
export const SSR_LANDING_FILE = 'prerender.js';

/** The app's frame (its shell's skeleton, drawn at build time): what a signed-in person's `/` gets. */
export const APP_FRAME_FILE = 'app.html';

/**
 * The public pages drawn ahead of time: each page's path, the file the build leaves it in, and the
 * function of the server-side module that draws it again with an installation's own settings.
 */
export const PRERENDERED_PAGES = [
  { path: '/', file: 'landing.html', render: 'renderLanding' },
  { path: '/docs/api', file: 'docs-api.html', render: 'renderApiDocs' },
] as const;

/**
 * Where the server writes the app config into every page it sends (a JSON data block, never run),
 * so the first render already knows it: the pre-rendered landing page hydrates with the same
 * content the server drew.
 */
export const APP_CONFIG_ELEMENT_ID = 'app-config';
