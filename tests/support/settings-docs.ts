// The settings table of docs/operations.md is made from the declarations in the gateway's
// config.ts: `npm run settings:docs` writes it, and `npm run lint:settings` fails while it is not
// what they say (a setting added, renamed or re-bounded without regenerating it).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderSettingsTable } from '../../packages/gateway/src/config-docs.js';

export const OPERATIONS_DOC = fileURLToPath(new URL('../../docs/operations.md', import.meta.url));
const START =
  '<!-- settings table: made by `npm run settings:docs` from packages/gateway/src/config.ts -->';
const END = '<!-- end of the settings table -->';

/** The document with its settings table replaced by the one the declarations make. */
export function withCurrentTable(text: string): string {
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) {
    throw new Error(`docs/operations.md has lost its settings table markers (${START} … ${END}).`);
  }
  return `${text.slice(0, from + START.length)}\n\n${renderSettingsTable()}\n\n${text.slice(to)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = readFileSync(OPERATIONS_DOC, 'utf8');
  const current = withCurrentTable(text);
  if (process.argv.includes('--write')) {
    writeFileSync(OPERATIONS_DOC, current);
  } else if (current !== text) {
    console.error(
      'The settings table in docs/operations.md is not what packages/gateway/src/config.ts declares: run npm run settings:docs.',
    );
    process.exitCode = 1;
  }
}
