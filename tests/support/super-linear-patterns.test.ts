// The lint's check for super-linear patterns, on small fixtures: it must find a known-bad pattern
// wherever a source can hold one, pass linear ones, and refuse a pattern built at run time unless
// a comment says why it is safe.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFiles, findPatterns } from './super-linear-patterns.js';

const root = mkdtempSync(join(tmpdir(), 'patterns-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function fixture(name: string, text: string): string {
  writeFileSync(join(root, name), text);
  return name;
}

describe('the super-linear pattern check', () => {
  it('finds regex literals and literal RegExp calls with their flags, in TS and TSX', () => {
    const { patterns, unchecked } = findPatterns(
      'a.tsx',
      [
        "const a = /^(a+)+$/u; const b = new RegExp('x+y', 'g');",
        "const c = RegExp(`z`); const d = <p title={'/not/'}>{x.split(/,\\s*/)}</p>;",
      ].join('\n'),
    );
    expect(patterns.map(({ source, flags, line }) => ({ source, flags, line }))).toEqual([
      { source: '^(a+)+$', flags: 'u', line: 1 },
      { source: 'x+y', flags: 'g', line: 1 },
      { source: 'z', flags: '', line: 2 },
      { source: ',\\s*', flags: '', line: 2 },
    ]);
    expect(unchecked).toEqual([]);
  });

  it('fails a known-bad pattern, exponential or quadratic, and passes linear ones', async () => {
    const bad = fixture(
      'bad.ts',
      [
        'export const nested = /^(a+)+$/;',
        "export const email = new RegExp('^\\\\S+@\\\\S+\\\\.\\\\S+$');",
        'export const trailing = /\\/+$/;',
      ].join('\n'),
    );
    const good = fixture(
      'good.ts',
      'export const day = /^\\d{4}-\\d{2}-\\d{2}$/;\nexport const words = /[\\w.-]+/g;\n',
    );
    const findings = await checkFiles(root, [bad, good]);
    expect(findings.map((f) => `${f.file}:${f.line}`)).toEqual([
      'bad.ts:1',
      'bad.ts:2',
      'bad.ts:3',
    ]);
    expect(findings[0]!.problem).toContain('exponential');
    expect(findings[1]!.problem).toContain('polynomial');
  }, 120_000);

  it('refuses a pattern built at run time unless the line above says why it is safe', async () => {
    const built = fixture(
      'built.ts',
      [
        'export const a = (s: string) => new RegExp(s);',
        '// recheck-ignore: the text is escaped first',
        "export const b = (s: string) => new RegExp(escape(s), 'i');",
      ].join('\n'),
    );
    const findings = await checkFiles(root, [built]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ file: 'built.ts', line: 1 });
    expect(findings[0]!.problem).toContain('recheck-ignore');
  });
});
