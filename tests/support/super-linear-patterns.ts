// The lint's check for regular expressions whose matching time grows faster than their input
// (ReDoS): every regex literal and `new RegExp('…')` of the SDK, gateway, CLI and web sources goes
// through recheck, and a vulnerable one fails `npm run lint`. A pattern built at run time cannot be
// checked here: it needs a `// recheck-ignore: <why it is safe>` comment on the line above.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// recheck's Scala.js backend: no Java and no native agent to start (the native one is an optional
// package that may be missing on a machine, and would make the result depend on which ran).
process.env.RECHECK_BACKEND = 'pure';

/** The source trees the check reads; tests are left out (their patterns read no request). */
export const CHECKED_TREES = ['packages/sdk/src', 'packages/gateway/src', 'cli/src', 'web/src'];

export interface FoundPattern {
  file: string;
  line: number;
  source: string;
  flags: string;
}

export interface Finding {
  file: string;
  line: number;
  /** What is wrong, for the lint's output. */
  problem: string;
}

const IGNORE = /^\s*\/\/\s*recheck-ignore:\s*\S/;

/** The regex literals and literal `RegExp(…)` calls of one file; dynamic ones as findings. */
export function findPatterns(
  file: string,
  text: string,
): { patterns: FoundPattern[]; unchecked: Finding[] } {
  const kind = /\.tsx$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const lines = text.split('\n');
  const patterns: FoundPattern[] = [];
  const unchecked: Finding[] = [];
  const lineOf = (node: ts.Node) =>
    sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) {
      const end = node.text.lastIndexOf('/');
      patterns.push({
        file,
        line: lineOf(node),
        source: node.text.slice(1, end),
        flags: node.text.slice(end + 1),
      });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      const [source, flags] = node.arguments ?? [];
      const literal = (n: ts.Node | undefined) =>
        n === undefined || ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n);
      const line = lineOf(node);
      if (source && literal(source) && literal(flags)) {
        patterns.push({
          file,
          line,
          source: (source as ts.StringLiteral).text,
          flags: flags ? (flags as ts.StringLiteral).text : '',
        });
      } else if (!IGNORE.test(lines[line - 2] ?? '')) {
        unchecked.push({
          file,
          line,
          problem:
            'a pattern built at run time cannot be checked: build it from a literal, or say why it is safe in a `// recheck-ignore: …` comment on the line above',
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return { patterns, unchecked };
}

/** recheck's verdict on one pattern: null when it is safe. */
export async function checkPattern(pattern: FoundPattern): Promise<Finding | null> {
  const { check } = await import('recheck');
  // No time limits inside the analysis, only its step counts: a verdict must not depend on how
  // busy the machine is.
  const result = await check(pattern.source, pattern.flags, {
    timeout: null,
    incubationTimeout: null,
    attackTimeout: null,
    seedingTimeout: null,
  });
  if (result.status === 'safe') return null;
  const where = { file: pattern.file, line: pattern.line };
  if (result.status === 'vulnerable') {
    return {
      ...where,
      problem: `/${pattern.source}/${pattern.flags} is ${result.complexity.summary} (attack: ${result.attack.pattern})`,
    };
  }
  return {
    ...where,
    problem: `/${pattern.source}/${pattern.flags} could not be checked: ${'message' in result.error ? result.error.message : result.error.kind}`,
  };
}

/** Every finding in the given files (paths relative to `root`). */
export async function checkFiles(root: string, files: readonly string[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  const seen = new Map<string, Finding | null>();
  for (const file of files) {
    const { patterns, unchecked } = findPatterns(file, readFileSync(`${root}/${file}`, 'utf8'));
    findings.push(...unchecked);
    for (const pattern of patterns) {
      const key = `${pattern.flags}/${pattern.source}`;
      if (!seen.has(key)) seen.set(key, await checkPattern(pattern));
      const finding = seen.get(key);
      if (finding) findings.push({ ...finding, file: pattern.file, line: pattern.line });
    }
  }
  return findings;
}

/** The checked trees' source files under version control, tests left out. */
export function sourceFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--', ...CHECKED_TREES], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((f) => /\.(ts|tsx|mts|js|mjs)$/.test(f) && !/\.test\.tsx?$|\/test\//.test(f));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const files = sourceFiles(root);
  const findings = await checkFiles(root, files);
  for (const f of findings) console.error(`${f.file}:${f.line}: ${f.problem}`);
  if (findings.length > 0) {
    console.error(`${findings.length} regular expression(s) need attention.`);
    process.exit(1);
  }
  console.log(`No super-linear regular expression in ${files.length} source files.`);
}
