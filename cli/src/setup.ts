// What every command starts with: the global flags validated, the texts loaded, and (for commands
// that talk to the gateway) the context, closed however the command ends.

import type { GlobalFlags } from './command.js';
import { type Context, createContext } from './context.js';
import { type GlobalOptions, parseGlobalOptions } from './global-options.js';
import { loadTranslations, type Translate } from './i18n.js';

export interface Setup {
  globals: GlobalOptions;
  t: Translate;
}

export async function setup(invocation: { globals: GlobalFlags }): Promise<Setup> {
  const globals = parseGlobalOptions(invocation.globals);
  return { globals, t: await loadTranslations(globals.lang) };
}

export async function withContext<T>(
  invocation: { globals: GlobalFlags },
  run: (ctx: Context, s: Setup) => Promise<T>,
): Promise<T> {
  const s = await setup(invocation);
  const ctx = createContext(s.globals);
  try {
    return await run(ctx, s);
  } finally {
    await ctx.close();
  }
}

/** One line on stdout. */
export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** One line on stderr: progress and notes, kept out of the data on stdout. */
export function note(line: string): void {
  process.stderr.write(`${line}\n`);
}
