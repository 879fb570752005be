import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { App } from './app';

/**
 * The app at `/` as a signed-out visitor first sees it (the landing page), rendered at build time:
 * the page shows as soon as the HTML and CSS arrive, and the script then hydrates it instead of
 * drawing it again. Nothing is fetched here, so the built-in plan catalogue shows until the live
 * one loads, exactly as in the browser's first render.
 */
export function renderLanding(): string {
  return renderToString(
    <Router ssrPath="/">
      <App />
    </Router>,
  );
}
