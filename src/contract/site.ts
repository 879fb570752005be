/**
 * Stands for this installation's public address in pages built ahead of time (index.html, the
 * pre-rendered landing page); the server replaces it with its own address as it sends them.
 */
export const PUBLIC_URL_TOKEN = '__PUBLIC_URL__';
