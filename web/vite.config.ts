import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** The first load of / must stay under this much JavaScript, gzipped, so the landing page is quick on a phone. */
export const FIRST_LOAD_BUDGET_BYTES = 150 * 1024;

interface ChunkInfo {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  dynamicImports: string[];
}

/**
 * Prints the gzipped JavaScript of the first load of / (the entry with everything it imports
 * statically, which index.html preloads, plus the landing page's lazy chunk and its own static
 * imports) and of each admin screen's chunk, and fails the build over the budget.
 */
function bundleBudget(): Plugin {
  return {
    name: 'blockcatch-bundle-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkInfo>();
      for (const item of Object.values(bundle)) {
        if (item.type === 'chunk') chunks.set(item.fileName, item as unknown as ChunkInfo);
      }
      const gzipped = new Map<string, number>();
      const sizeOf = (fileName: string) => {
        let size = gzipped.get(fileName);
        if (size === undefined) {
          size = gzipSync(chunks.get(fileName)?.code ?? '', { level: 9 }).length;
          gzipped.set(fileName, size);
        }
        return size;
      };
      const withStaticImports = (start: string[], into = new Set<string>()) => {
        const queue = [...start];
        while (queue.length > 0) {
          const fileName = queue.pop()!;
          if (into.has(fileName)) continue;
          into.add(fileName);
          queue.push(...(chunks.get(fileName)?.imports ?? []));
        }
        return into;
      };
      const byModule = (pattern: RegExp) =>
        [...chunks.values()].filter((c) => c.facadeModuleId && pattern.test(c.facadeModuleId));

      const entries = [...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName);
      const landing = byModule(/\/routes\/public\/LandingPage\.tsx$/).map((c) => c.fileName);
      if (landing.length === 0) this.error('bundle budget: no chunk holds the landing page');
      const firstLoad = withStaticImports([...entries, ...landing]);
      const total = [...firstLoad].reduce((sum, fileName) => sum + sizeOf(fileName), 0);
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

      const lines = [
        `First load of / (JavaScript, gzipped): ${kb(total)} of ${kb(FIRST_LOAD_BUDGET_BYTES)}`,
      ];
      for (const fileName of [...firstLoad].sort((a, b) => sizeOf(b) - sizeOf(a))) {
        lines.push(`  ${kb(sizeOf(fileName)).padStart(9)}  ${fileName}`);
      }
      lines.push(
        'Admin screens (gzipped): own chunk, and with the shared chunks / does not load (the SDK among them)',
      );
      for (const chunk of byModule(/\/routes\/admin\/[^/]+\.tsx$/)) {
        const extra = [...withStaticImports([chunk.fileName])].filter((f) => !firstLoad.has(f));
        const size = extra.reduce((sum, fileName) => sum + sizeOf(fileName), 0);
        lines.push(
          `  ${kb(sizeOf(chunk.fileName)).padStart(9)}  ${kb(size).padStart(9)}  ${chunk.fileName}`,
        );
      }
      this.info(`\n${lines.join('\n')}`);
      if (total > FIRST_LOAD_BUDGET_BYTES) {
        this.error(
          `bundle budget: the first load of / is ${kb(total)} of JavaScript gzipped, over ${kb(FIRST_LOAD_BUDGET_BYTES)}`,
        );
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), bundleBudget()],
  resolve: { conditions: ['source'] },
  // amazon-cognito-identity-js (through its Buffer and crypto helpers) reads Node's `global`.
  define: { global: 'globalThis' },
  build: { outDir: 'dist', sourcemap: true },
});
