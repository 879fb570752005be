import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import type { TAppConfig } from '../contract/admin';
import { App } from './app';
import { AppShellSkeleton } from './components/layout/app-shell';
import { drawWithConfig } from './lib/boot-config';
import { queryClient } from './lib/query-client';

/**
 * The app at `/` as a signed-out visitor first sees it (the landing page), drawn ahead of time:
 * at build time with a new installation's config, and by the server with its own settings. The
 * page shows as soon as the HTML and CSS arrive, and the script then hydrates it with the same
 * config (the page carries it) instead of drawing it again. Nothing is fetched here, so the
 * built-in plan catalogue shows until the live one loads, exactly as in the browser's first render.
 */
export function renderLanding(config: TAppConfig): string {
  // One process draws the page for more than one config: nothing may carry over between them.
  queryClient.clear();
  drawWithConfig(config);
  try {
    return renderToString(
      <Router ssrPath="/">
        <App landingFirst />
      </Router>,
    );
  } finally {
    drawWithConfig(undefined);
    queryClient.clear();
  }
}

/** The app's empty frame, which a signed-in person's `/` arrives with (it needs no config). */
export function renderAppFrame(): string {
  return renderToString(
    <Router ssrPath="/">
      <AppShellSkeleton />
    </Router>,
  );
}
