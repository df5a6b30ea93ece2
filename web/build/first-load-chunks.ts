// How the first load of / is cut into files: few, because each is a request (six at a time over
// HTTP/1.1) and small files compress worse. The libraries every page runs form one chunk that
// stays cached across releases of the app's own code; the rest of what the entry imports
// statically from the app's own sources forms a second. Lazy pages keep Rolldown's automatic
// chunks, and so does the SDK: its index re-exports everything, so a static import through it
// says nothing about what the first load really uses (tree-shaking decides that).
import type { Rolldown } from 'vite';

type Groups = NonNullable<
  Exclude<NonNullable<Rolldown.OutputOptions['codeSplitting']>, boolean>['groups']
>;
interface GraphContext {
  getModuleInfo(id: string): { isEntry: boolean; importers: readonly string[] } | null;
}

const APP_SOURCES = /[\\/]web[\\/]src[\\/]/;
const FRAMEWORK =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next)[\\/]/;

/** Whether the entry imports `id` statically, directly or through other modules. */
function inFirstLoad(id: string, context: GraphContext, known: Map<string, boolean>): boolean {
  const cached = known.get(id);
  if (cached !== undefined) return cached;
  const seen = new Set<string>();
  const queue = [id];
  while (queue.length > 0) {
    const current = queue.pop()!;
    if (seen.has(current)) continue;
    seen.add(current);
    const info = context.getModuleInfo(current);
    if (!info) continue;
    if (info.isEntry || known.get(current) === true) {
      known.set(id, true);
      return true;
    }
    queue.push(...info.importers);
  }
  known.set(id, false);
  return false;
}

const known = new Map<string, boolean>();

export const FIRST_LOAD_CHUNKS: Groups = [
  { name: 'framework', test: FRAMEWORK, priority: 2 },
  {
    // The entry module itself stays the entry chunk; everything else it loads statically joins here.
    name: (id, context) => {
      const info = (context as GraphContext).getModuleInfo(id);
      return info &&
        !info.isEntry &&
        APP_SOURCES.test(id) &&
        inFirstLoad(id, context as GraphContext, known)
        ? 'app'
        : null;
    },
    priority: 1,
  },
];
