import { defineConfig } from 'tsup';

export default defineConfig({
  // `index` must stay browser-safe; `node` holds the file stores and the undici transport.
  entry: ['src/index.ts', 'src/node.ts'],
  format: ['esm'],
  target: 'es2022',
  platform: 'neutral',
  external: [/^node:/, 'undici', 'amazon-cognito-identity-js'],
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
});
