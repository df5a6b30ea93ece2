// Every regular expression of the SDK and the gateway sources (the exported ones and the rest),
// fed 1 MB of adversarial input: long runs of each character the pattern names and of the usual
// classes, after its literal prefix, ending in a character that makes the match fail late. A
// linear pattern reads 1 MB in a few milliseconds, up to about 50 ms for a Unicode property class
// on astral characters (/\p{L}/u on emoji: 50.2-50.7 ms on a 2-core CI machine); a quadratic one
// would take hours, so each run is stopped at 1 s. The one timing assertion of the suite: 200 ms
// per run, four times the slowest linear run, since the same machine ran 2x slower for minutes at
// a time, and still five times under the stop. It is CPU time of this process (each test file runs
// in a process of its own) around the match alone, the least of three tries, so time spent waiting
// for a core on a loaded machine is not counted.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { type FoundPattern, findPatterns, sourceFiles } from './support/super-linear-patterns.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const SIZE = 1_000_000;
const BUDGET_MS = 200;
const STOP_MS = 1_000;
const TRIES = 3;

const patterns: FoundPattern[] = sourceFiles(root)
  .filter((f) => f.startsWith('packages/sdk/src/') || f.startsWith('packages/gateway/src/'))
  .flatMap((f) => findPatterns(f, readFileSync(`${root}/${f}`, 'utf8')).patterns);

/** Characters of the usual classes: letters, digits, spaces, separators, non-ASCII, a pair. */
const CLASS_SAMPLES = [
  'a',
  'A',
  '0',
  ' ',
  '\t',
  '\n',
  '_',
  '-',
  '.',
  '@',
  '/',
  ':',
  '+',
  'é',
  '😀',
];

/** The characters a pattern names literally (`\.` is a dot; `\d`, `\w` and the like are classes). */
function literalsOf(source: string): string[] {
  const found = new Set<string>();
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[++i];
      if (next !== undefined && !/[A-Za-z0-9]/.test(next)) found.add(next);
    } else if (!'^$()[]{}|?*+'.includes(c)) {
      found.add(c);
    }
  }
  return [...found];
}

/** The text an anchored pattern must start with, e.g. `pm_` for /^pm_\w+$/. */
function literalPrefixOf(source: string): string {
  const m = /^\^((?:[A-Za-z0-9_:@-]|\\[./-])*)/.exec(source);
  return (m?.[1] ?? '').replace(/\\/g, '');
}

/** 1 MB strings built to make a backtracking pattern retry: runs of one or two characters. */
function attacksFor(pattern: FoundPattern): { name: string; text: string }[] {
  const literals = literalsOf(pattern.source);
  const singles = [...new Set([...literals, ...CLASS_SAMPLES])];
  const pairs = literals.flatMap((a) => literals.filter((b) => b !== a).map((b) => a + b));
  const prefix = literalPrefixOf(pattern.source);
  const attacks: { name: string; text: string }[] = [];
  for (const unit of [...singles, ...pairs.slice(0, 30)]) {
    const run = unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE - prefix.length - 1);
    const text = `${prefix}${run}\u0000`;
    // A joined string is copied flat by its first match: done here, so no run times the copy.
    /$/.exec(text);
    attacks.push({ name: JSON.stringify(unit), text });
  }
  return attacks;
}

/** Milliseconds of CPU this process has used, user and system. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Times one run inside the context, so that starting the run (and its stop watch) is not counted. */
const timedRun = new vm.Script('{ const started = now(); pattern.exec(text); now() - started; }');

/** Milliseconds one run of the context's pattern on `text` takes; infinite when it was stopped. */
function runMs(context: vm.Context, text: string): number {
  context.text = text;
  try {
    return timedRun.runInContext(context, { timeout: STOP_MS }) as number;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
    return Number.POSITIVE_INFINITY;
  }
}

describe('patterns on 1 MB of adversarial input', () => {
  it('finds the patterns of the SDK and the gateway', () => {
    expect(patterns.length).toBeGreaterThan(40);
    expect(patterns.map((p) => p.source)).toContain('^\\S[^\\s@]*@\\S[^\\s.]*\\.\\S+$');
  });

  it(`runs each one within ${BUDGET_MS} ms on every attack`, () => {
    const slow: string[] = [];
    let runs = 0;
    for (const found of patterns) {
      // Search from every position, as replace and test do: the flags that keep a position go.
      const pattern = new RegExp(found.source, found.flags.replace(/[gy]/g, ''));
      const context = vm.createContext({ pattern, text: '', now: cpuMs });
      for (const attack of attacksFor(found)) {
        let best = Number.POSITIVE_INFINITY;
        for (let i = 0; i < TRIES && best > BUDGET_MS; i++) {
          best = Math.min(best, runMs(context, attack.text));
          runs++;
        }
        if (best > BUDGET_MS) {
          slow.push(
            `${found.file}:${found.line} /${found.source}/${found.flags} on a run of ${attack.name}: ` +
              (Number.isFinite(best) ? `${best.toFixed(0)} ms` : `stopped after ${STOP_MS} ms`),
          );
        }
      }
    }
    expect(runs).toBeGreaterThan(patterns.length * CLASS_SAMPLES.length);
    expect(slow).toEqual([]);
  }, 600_000);
});
