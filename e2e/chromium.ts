/**
 * Debian's Chromium and the flags every launch uses (Playwright journeys, screenshot scripts and
 * the render bench). Kept free of Playwright imports so the bench can load it without the test
 * config; nothing downloads a browser.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
