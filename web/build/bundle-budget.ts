// The build's bundle budget: prints the gzipped JavaScript of the first load of / and of each
// admin screen, and fails the build when the first load is over budget (docs/architecture.md,
// "The web app's first load").
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * The first load of / must stay under this much JavaScript, gzipped (kB of 1,000 bytes, as Vite
 * prints sizes), so the landing page is quick on a phone.
 */
export const FIRST_LOAD_BUDGET_BYTES = 120_000;

interface ChunkInfo {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  moduleIds: string[];
  imports: string[];
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/**
 * The first load of / is the entry with everything it imports statically (which index.html
 * preloads). The landing page must be part of it: a lazy landing page would paint only after a
 * second round trip.
 */
/** The pages under /admin in routes.tsx, each its own lazy chunk. */
const ADMIN_SCREEN =
  /\/features\/(admin-home\/Admin(Shell|DashboardPage)|users\/User\w*Page|sending\/\w+Page|billing\/AdminBillingPage|invitations\/(Invitations|Leads)Page|support\/SupportInboxPage|audit\/AuditPage|tokens\/TokensPage)\.tsx$/;

export function bundleBudget(budgetBytes = FIRST_LOAD_BUDGET_BYTES): Plugin {
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

      const entries = [...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName);
      const firstLoad = withStaticImports(entries);
      const holdsLanding = [...firstLoad].some((fileName) =>
        chunks
          .get(fileName)
          ?.moduleIds.some((id) => /\/features\/public\/LandingPage\.tsx$/.test(id)),
      );
      if (!holdsLanding) this.error('bundle budget: the first load of / lacks the landing page');
      const total = [...firstLoad].reduce((sum, fileName) => sum + sizeOf(fileName), 0);

      const lines = [`First load of / (JavaScript, gzipped): ${kB(total)} of ${kB(budgetBytes)}`];
      for (const fileName of [...firstLoad].sort((a, b) => sizeOf(b) - sizeOf(a))) {
        lines.push(`  ${kB(sizeOf(fileName)).padStart(9)}  ${fileName}`);
      }
      lines.push(
        'Admin screens (gzipped): own chunk, and with the shared chunks / does not load (the SDK among them)',
      );
      const adminScreens = [...chunks.values()].filter(
        (c) => c.facadeModuleId && ADMIN_SCREEN.test(c.facadeModuleId),
      );
      for (const chunk of adminScreens) {
        const extra = [...withStaticImports([chunk.fileName])].filter((f) => !firstLoad.has(f));
        const size = extra.reduce((sum, fileName) => sum + sizeOf(fileName), 0);
        lines.push(
          `  ${kB(sizeOf(chunk.fileName)).padStart(9)}  ${kB(size).padStart(9)}  ${chunk.fileName}`,
        );
      }
      this.info(`\n${lines.join('\n')}`);
      if (total > budgetBytes) {
        this.error(
          `bundle budget: the first load of / is ${kB(total)} of JavaScript gzipped, over ${kB(budgetBytes)}`,
        );
      }
    },
  };
}
