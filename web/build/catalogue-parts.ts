// Splits the shared catalogues (locales/<lang>.json, which the CLI reads whole) into the parts the
// web app loads at different times, as virtual modules:
//   virtual:catalogue/<lang>/first-load  every section the landing page, the shell and the public
//                                        pages read, in the first load of / for English
//   virtual:catalogue/<lang>/pages       the driver and admin screens' sections, fetched with the
//                                        first such screen
// The CLI's own section is left out of both. A new section lands in the first load unless it is
// listed here, so nothing goes missing on screen.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:catalogue/';
export const LANGUAGES = ['en', 'es'] as const;
export const PARTS = ['first-load', 'pages'] as const;
/** Sections only lazy screens (driver, admin, the FAQ, terms and contact pages) read. */
const PAGE_SECTIONS = new Set(['flex', 'admin', 'faqs', 'terms', 'contact']);
/** Sections only the command-line tool reads. */
const CLI_SECTIONS = new Set(['cli']);

type Part = (typeof PARTS)[number];

function partOf(section: string): Part | null {
  if (CLI_SECTIONS.has(section)) return null;
  return PAGE_SECTIONS.has(section) ? 'pages' : 'first-load';
}

/** The sections of `catalogue` that belong to `part`. */
export function pickPart(catalogue: Record<string, unknown>, part: Part): Record<string, unknown> {
  return Object.fromEntries(Object.entries(catalogue).filter(([key]) => partOf(key) === part));
}

export function catalogueParts(localesDir: string): Plugin {
  return {
    name: 'blockcatch-catalogue-parts',
    enforce: 'pre',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const [language, part] = id.slice(PREFIX.length + 1).split('/');
      if (
        !LANGUAGES.includes(language as (typeof LANGUAGES)[number]) ||
        !PARTS.includes(part as Part)
      ) {
        this.error(
          `no catalogue part ${id.slice(1)}: expected ${PREFIX}<en|es>/<first-load|pages>`,
        );
      }
      const file = join(localesDir, `${language}.json`);
      this.addWatchFile(file);
      const picked = pickPart(JSON.parse(readFileSync(file, 'utf8')), part as Part);
      // A JSON string parses faster than the same object as a JavaScript literal.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(picked))});`;
    },
  };
}
