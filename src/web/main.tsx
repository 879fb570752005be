import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import './index.css';
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
startTransition(() => {
  if (prerendered) hydrateRoot(root, app);
  else createRoot(root).render(app);
});
