import './lib/zod-jitless';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, LandingPage } from './app';
import { startFromDrawnLanding } from './lib/drawn-landing';
import { installNavigationGuard } from './lib/navigation-guard';
import { installWorkspaceLinks } from './lib/workspace-links';

// Before the router renders and subscribes to popstate (see navigation-guard.ts).
installNavigationGuard();
// In a team, links to the API carry the team too (workspace-links.ts).
installWorkspaceLinks();

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// A public page drawn ahead of time (a signed-out visitor's `/`, the API reference) arrives with
// its content already in it: take it over as it is. A signed-in person's `/` arrives with the app's
// empty frame instead, which the app draws the same and then replaces with the dashboard
// (createRoot clears what was there).
const prerendered = root.hasChildNodes() && !root.querySelector('[data-app-frame]');
const landingFirst = prerendered && window.location.pathname === '/';
const app = (
  <StrictMode>
    <App landingFirst={landingFirst} />
  </StrictMode>
);
// As a transition, the first render (or hydration) yields to the browser every few milliseconds
// instead of holding the main thread for the whole page: a phone answers taps while it runs.
const start = () =>
  startTransition(() => {
    if (prerendered) hydrateRoot(root, app);
    else createRoot(root).render(app);
  });
// The landing page's code is not in the entry: it arrives (preloaded by the page's head) before
// the app takes the drawn page over, so hydration finds what it drew. (Not a top-level await: the
// bundler would then split every module the entry shares with a lazy page into its own file.)
if (landingFirst) {
  startFromDrawnLanding();
  void LandingPage.preload().then(start);
} else start();
