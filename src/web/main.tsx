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

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// `/` arrives with the landing page already in it (rendered at build time): take it over as it is.
if (root.hasChildNodes() && window.location.pathname === '/') hydrateRoot(root, app);
else createRoot(root).render(app);
