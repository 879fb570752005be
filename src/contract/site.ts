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
