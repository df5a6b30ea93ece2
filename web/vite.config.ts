import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleBudget } from './build/bundle-budget.js';
import { catalogueParts } from './build/catalogue-parts.js';
import { FIRST_LOAD_CHUNKS } from './build/first-load-chunks.js';
import { precompress } from './build/precompress.js';
import { prerenderLanding } from './build/prerender-landing.js';

export default defineConfig({
  plugins: [
    react(),
    catalogueParts(fileURLToPath(new URL('../locales', import.meta.url))),
    bundleBudget(),
    prerenderLanding(),
    precompress(),
  ],
  resolve: {
    conditions: ['source'],
    alias: [
      // React 19 has useSyncExternalStore; react-i18next's shim for older Reacts is dead weight.
      // Exactly that path: recharts' `…/shim/with-selector` is a different module.
      {
        find: /^use-sync-external-store\/shim$/,
        replacement: fileURLToPath(new URL('./build/use-sync-external-store.ts', import.meta.url)),
      },
    ],
  },
  // amazon-cognito-identity-js (through its Buffer and crypto helpers) reads Node's `global`.
  define: { global: 'globalThis' },
  build: {
    outDir: 'dist',
    // No source maps in the production build: web/dist is what the gateway serves, and a map
    // would hand out the source (the gateway refuses .map files as a second guard). Debugging
    // uses the dev server, which keeps its own.
    sourcemap: false,
    // Every browser the app supports preloads modules natively.
    modulePreload: { polyfill: false },
    rolldownOptions: { output: { codeSplitting: { groups: FIRST_LOAD_CHUNKS } } },
  },
});
