// One `vitest run` from the root runs every package's suite.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Kept in tests/ so the top level stays to the workspace's own files; paths below are from the root.
const root = fileURLToPath(new URL('..', import.meta.url));

const source = { conditions: ['source'] };
// Suites that start whole gateways get a minute per test: on two loaded cores a start alone can take
// half of that. Waiting inside a test goes through eventually(), never a fixed sleep.
/** Gateway suites that run once per database (see packages/gateway/test/helpers/database.ts). */
const STORAGE_SUITES = ['test/storage.test.ts', 'test/station-insight.test.ts'];
// Tests run in Vite's server environment, which resolves with its own conditions: without this,
// `@blockcatch/sdk` would resolve to the built dist instead of src.
const ssr = { resolve: { conditions: ['source'], externalConditions: ['source'] } };
// Pure suites run hundreds of property cases per test; on two cores beside the gateway suites a
// test that takes 1 s alone can take ten. A timeout is for a hang, not a verdict on speed.
const PURE_TIMEOUT = { testTimeout: 30_000 };
/** For the projects that start gateways: in-memory databases start migrated. */
const setupFiles = [`${root}tests/support/migrated-databases.ts`];
/**
 * Every project's files leave no state behind (each starts and closes its own gateways, browsers
 * and processes), so a worker imports the sources once for all its files instead of once per file:
 * that cost the gateway's ~80 files a quarter of their run, and the browser and cross-package
 * files (each importing the gateway, Playwright and the CLI) about 50 s of a run.
 */
const SHARED_MODULES = { isolate: false };

export default defineConfig({
  root,
  resolve: source,
  test: {
    reporters: ['default', './tests/support/slowest-files.ts'],
    // Vitest's default is one worker fewer than the cores: one worker on CI's two. Most files
    // wait on a gateway, PostgreSQL, a spawned CLI or Chromium much of the time, so two workers keep
    // both cores busy.
    maxWorkers: 2,
    projects: [
      {
        resolve: source,
        ssr,
        test: {
          name: 'sdk',
          ...SHARED_MODULES,
          ...PURE_TIMEOUT,
          root: `${root}/packages/sdk`,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        },
      },
      {
        resolve: source,
        ssr,
        test: {
          name: 'gateway',
          ...SHARED_MODULES,
          setupFiles,
          root: `${root}/packages/gateway`,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...STORAGE_SUITES, '**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      // The storage suites once per database, as two projects, so PGlite and PostgreSQL run in
      // parallel workers instead of one after the other in one file.
      ...(['pglite', 'postgres'] as const).map((database) => ({
        resolve: source,
        ssr,
        test: {
          name: `storage-${database}`,
          ...SHARED_MODULES,
          setupFiles,
          root: `${root}/packages/gateway`,
          include: STORAGE_SUITES,
          env: { BLOCKCATCH_TEST_DATABASES: database },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      })),
      {
        resolve: source,
        ssr,
        test: {
          name: 'cli',
          ...SHARED_MODULES,
          ...PURE_TIMEOUT,
          root: `${root}/cli`,
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
        },
      },
      {
        resolve: source,
        ssr,
        test: {
          name: 'web',
          ...SHARED_MODULES,
          ...PURE_TIMEOUT,
          root: `${root}/web`,
          include: ['src/**/*.test.ts'],
        },
      },
      {
        resolve: source,
        ssr,
        // Cross-package tests start gateways and spawn the CLI: seconds, not milliseconds.
        test: {
          name: 'data',
          ...SHARED_MODULES,
          setupFiles,
          root,
          include: ['tests/*.test.ts', 'tests/support/*.test.ts', 'fixtures/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: source,
        ssr,
        // The real gateway serving web/dist (built by `pretest`) to Debian's Chromium. It runs
        // beside the other projects: no test is bound to the machine's speed any more (each waits
        // with eventually() or an injected clock), and running it last left one core idle.
        test: {
          name: 'browser',
          ...SHARED_MODULES,
          setupFiles,
          root,
          include: ['tests/browser/*.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
