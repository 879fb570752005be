import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import './index.css';
import { installNavigationGuard } from './lib/navigation-guard';

// Before the router renders and subscribes to popstate (see navigation-guard.ts).
installNavigationGuard();

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
