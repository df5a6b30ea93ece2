// The lint's guard rails fail on what they guard against: knip on a package with an export nobody
// imports, and the import-cycle check (the lint's own configuration) on two modules that import
// each other's types. A route without an answer schema is refused at start (test/pipeline.test.ts).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { OPERATIONS_DOC, withCurrentTable } from './settings-docs.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = `${root}tests/support/lint-fixtures`;
const run = promisify(execFile);

/** Exit code and output of one of the repository's own tools. */
async function tool(name: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(`${root}node_modules/.bin/${name}`, args, {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

const scripts = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).scripts as Record<
  string,
  string
>;

describe('npm run lint', () => {
  it('runs the unused-code, cycle and answer-schema checks', () => {
    for (const check of ['lint:unused', 'lint:cycles', 'lint:answers', 'lint:settings']) {
      expect(scripts.lint).toContain(`npm run ${check}`);
    }
    expect(scripts['lint:unused']).toMatch(/^knip\b/);
    expect(scripts['lint:cycles']).toContain('--config .dependency-cruiser.cjs');
  });

  it('fails on an export that nothing imports, and names it', async () => {
    const result = await tool('knip', [
      '--no-progress',
      '--directory',
      `${fixtures}/unused-export`,
    ]);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/Unused exports \(1\)[\s\S]*forgottenHelper/);
    expect(result.output).not.toContain('usedEverywhere');
  });

  it('fails on an import cycle, type-only imports included, and names both modules', async () => {
    const result = await tool('depcruise', [
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'err',
      'tests/support/lint-fixtures/cycle',
    ]);
    expect(result.code).toBeGreaterThan(0);
    expect(result.output).toMatch(/no-circular: tests\/support\/lint-fixtures\/cycle\/first\.ts/);
    expect(result.output).toContain('cycle/second.ts');
  });

  it('keeps the settings table of docs/operations.md as config.ts declares it', () => {
    const text = readFileSync(OPERATIONS_DOC, 'utf8');
    expect(withCurrentTable(text)).toBe(text);
    expect(text).toContain('| `BLOCKCATCH_DB_POOL_SIZE`');
  });
});
