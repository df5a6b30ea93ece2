import { defineConfig } from 'tsup';

export default defineConfig({
  // The embedded database's worker thread is started from its own file, beside the bundle.
  entry: {
    main: 'src/main.ts',
    index: 'src/index.ts',
    testing: 'src/testing.ts',
    'pglite-worker': 'src/storage/pglite-worker.js',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  dts: { entry: ['src/index.ts', 'src/testing.ts'] },
});
