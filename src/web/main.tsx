import { StrictMode } from 'react';
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

// A signed-out visitor's `/` arrives with the landing page already in it (rendered at build time):
// take it over as it is. A signed-in person's arrives with the app's empty frame, which the app
// draws the same and then replaces with the dashboard (createRoot clears what was there).
const landingFirst = root.hasChildNodes() && !root.querySelector('[data-app-frame]') && window.location.pathname === '/';
const app = (
  <StrictMode>
    <App landingFirst={landingFirst} />
  </StrictMode>
);
if (landingFirst) hydrateRoot(root, app);
else createRoot(root).render(app);
