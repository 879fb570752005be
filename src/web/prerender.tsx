import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import type { TAppConfig } from '../contract/admin';
import { App, LandingPage } from './app';
import { LiveDemo } from './pages/landing-page';
import { AppShellSkeleton } from './components/layout/app-shell';
import { drawWithConfig } from './lib/boot-config';
import { queryClient } from './lib/query-client';

/**
 * The app's public pages as a signed-out visitor first sees them (the landing page at `/`, the API
 * reference's frame at `/docs/api`), drawn ahead of time: at build time with a new installation's
 * config, and by the server with its own settings. The page shows as soon as the HTML and CSS
 * arrive, and the script then hydrates it with the same config (the page carries it) instead of
 * drawing it again. Nothing is fetched here, so the built-in plan catalogue shows until the live
 * one loads, exactly as in the browser's first render; what loads on demand (the API reference
 * itself) is drawn as its placeholder, which the browser fills in.
 */
// Drawn synchronously below: the code the browser loads on demand must be here first.
await LandingPage.preload();
await LiveDemo.preload();

function renderAt(path: string, config: TAppConfig): string {
  // One process draws the page for more than one config: nothing may carry over between them.
  queryClient.clear();
  drawWithConfig(config);
  try {
    return renderToString(
      <Router ssrPath={path}>
        <App landingFirst />
      </Router>,
    );
  } finally {
    drawWithConfig(undefined);
    queryClient.clear();
  }
}

export const renderLanding = (config: TAppConfig): string => renderAt('/', config);
export const renderApiDocs = (config: TAppConfig): string => renderAt('/docs/api', config);

/** The app's empty frame, which a signed-in person's `/` arrives with (it needs no config). */
export function renderAppFrame(): string {
  return renderToString(
    <Router ssrPath="/">
      <AppShellSkeleton />
    </Router>,
  );
}
