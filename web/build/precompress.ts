// Writes a Brotli (.br) and a gzip (.gz) copy beside every compressible file of the build, at the
// highest levels, so the gateway sends them as they are (@fastify/static's preCompressed) instead
// of compressing the same bytes on every request at a quick, weaker level.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
/** Below this, compression saves less than a packet and @fastify/compress leaves files alone. */
const MIN_BYTES = 1024;

export function precompress(): Plugin {
  return {
    name: 'blockcatch-precompress',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const item of Object.values(bundle)) {
        if (!COMPRESSIBLE.test(item.fileName)) continue;
        const source = item.type === 'chunk' ? item.code : item.source;
        const bytes = typeof source === 'string' ? Buffer.from(source) : Buffer.from(source);
        if (bytes.length < MIN_BYTES) continue;
        this.emitFile({
          type: 'asset',
          fileName: `${item.fileName}.br`,
          source: brotliCompressSync(bytes, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
        });
        this.emitFile({
          type: 'asset',
          fileName: `${item.fileName}.gz`,
          source: gzipSync(bytes, { level: 9 }),
        });
      }
    },
  };
}
