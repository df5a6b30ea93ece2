// Writes a Brotli (.br) and a gzip (.gz) copy beside every compressible file of the build, at the
// highest levels, so the gateway sends them as they are (@fastify/static's preCompressed) instead
// of compressing the same bytes on every request at a quick, weaker level. It reads the files as
// written: Vite still rewrites chunks (preload markers) in its own late generateBundle hooks.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
/** Below this, compression saves less than a packet and @fastify/compress leaves files alone. */
const MIN_BYTES = 1024;

export function precompress(): Plugin {
  return {
    name: 'blockcatch-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      await Promise.all(
        Object.keys(bundle)
          .filter((fileName) => COMPRESSIBLE.test(fileName))
          .map(async (fileName) => {
            const path = join(dir, fileName);
            const bytes = await readFile(path);
            if (bytes.length < MIN_BYTES) return;
            const [br, gz] = await Promise.all([
              brotli(bytes, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                },
              }),
              gzipAsync(bytes, { level: 9 }),
            ]);
            await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
          }),
      );
    },
  };
}
