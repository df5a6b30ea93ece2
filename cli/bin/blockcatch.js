#!/usr/bin/env node
// The `blockcatch` executable npm links at install time (so `npx blockcatch` works from the
// repository root right after `npm ci`); it runs the built CLI, or says how to build it.
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(
    'blockcatch: the CLI is not built yet: run `npm run build` at the repository root, then `npx blockcatch --help`.\n',
  );
  process.exit(1);
}
await import(main.href);
