// Mounts the web app: hydrates the landing page index.html already shows when it is the right
// page for this visitor, else renders from scratch.
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './App.js';
import { prerenderedFits } from './prerendered.js';
import { preloadPage } from './routes.js';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
if (root.hasAttribute('data-prerendered') && prerenderedFits()) {
  hydrateRoot(root, app);
} else {
  // The page's own code is fetched now, beside the session check, not once the page renders.
  preloadPage(window.location.pathname);
  root.removeAttribute('data-prerendered');
  root.replaceChildren();
  createRoot(root).render(app);
}
