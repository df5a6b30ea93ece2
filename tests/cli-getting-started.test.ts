// What a newcomer meets first, end to end against the sandbox: `npx blockcatch` from the
// repository root, hints that work as typed, Spanish help and errors, one-line usage errors with
// "did you mean", tables that fit the terminal, and input typed the way the tables print it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliEnv, cli, cliEnv, loginAsAdmin, seedSandbox } from './cli-harness.js';
import { ADMIN, type Sandbox, startSandbox } from './sdk-harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** npm's own npx, beside the node running the tests. */
const NPX = join(dirname(process.execPath), 'npx');

let sandbox: Sandbox;
let env: CliEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ sendRate: 0 });
  await seedSandbox(sandbox.gateway, 30);
  env = cliEnv(sandbox.url);
  await loginAsAdmin(env);
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
});

/**
 * A PATH as clean as a fresh machine's: only node and npx, so no global `npm link` or install of
 * blockcatch can answer (plus sh, which npm runs bins with); with no npm variables inherited and an empty HOME (no user npmrc), the
 * command resolves exactly as it does in a fresh clone after `npm ci`, which is what CI runs.
 */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const bin = mkdtempSync(join(tmpdir(), 'blockcatch-path-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync(realpathSync(NPX), join(bin, 'npx'));
  // npm runs bins through sh.
  symlinkSync('/bin/sh', join(bin, 'sh'));
  const home = mkdtempSync(join(tmpdir(), 'blockcatch-home-'));
  // No registry calls: the check for a newer npm is the only one a local bin would make.
  writeFileSync(join(home, '.npmrc'), 'update-notifier=false\n');
  return {
    PATH: bin,
    HOME: home,
    XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'blockcatch-npx-')),
    BLOCKCATCH_GATEWAY_URL: sandbox.url,
    NO_COLOR: '1',
  };
}

/** Runs `npx blockcatch …` from the repository root, as the README says. */
function npx(args: string[], extra: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const env = { ...cleanEnvironment(), ...extra };
    const child = spawn(join(env.PATH!, 'npx'), ['--no-install', 'blockcatch', ...args], {
      cwd: ROOT,
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const lines = (text: string) => text.split('\n').filter((l) => l.length > 0);

describe('getting started', () => {
  it('runs as npx blockcatch from the repository root with a clean PATH, and its hints say npx blockcatch', async () => {
    const help = await npx(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('$ npx blockcatch login');
    const whoami = await npx(['whoami']);
    expect(whoami.code).toBe(1);
    expect(whoami.stderr).toContain('Run `npx blockcatch login` first.');
  });

  it('is linked by npm to a committed launcher, so a fresh install has it before any build', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'cli/package.json'), 'utf8'));
    expect(manifest.bin.blockcatch).toBe('./bin/blockcatch.js');
    expect(readFileSync(join(ROOT, 'cli/bin/blockcatch.js'), 'utf8')).toMatch(
      /^#!\/usr\/bin\/env node/,
    );
  });

  it('signs in against the banner API URL, /api included', async () => {
    const fresh = cliEnv(`${sandbox.url}/api`);
    const run = await cli(fresh, ['login'], {
      env: { BLOCKCATCH_PHONE: ADMIN.phone, BLOCKCATCH_PASSWORD: ADMIN.password },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect((await cli(fresh, ['whoami'])).stdout).toContain(ADMIN.name);
  });
});

describe('usage errors', () => {
  it('answers an unknown command on one line, with "did you mean", exit 2', async () => {
    const run = await cli(env, ['users', 'lst']);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([
      'blockcatch: unknown command lst; did you mean list? (add --help for usage)',
    ]);
  });

  it('answers a mistyped option on one line, with "did you mean", exit 2', async () => {
    const run = await cli(env, ['users', 'list', '--product', 'flex', '--rows-per-pag', '40']);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^blockcatch: unknown option --rows-per-pag; did you mean --rows-per-page\?/,
    );
  });
});

describe('in Spanish', () => {
  it('prints help in Spanish with --lang es, commander words included', async () => {
    const run = await cli(env, ['--lang', 'es', 'users', 'list', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Uso: blockcatch users list');
    expect(run.stdout).toContain('Opciones:');
    expect(run.stdout).toContain('muestra la ayuda del comando');
    expect(run.stdout).toContain('Ejemplos:');
    expect(run.stdout).not.toContain('Options:');
  });

  it('says usage errors in Spanish with BLOCKCATCH_LANG=es', async () => {
    const unknown = await cli(env, ['users', 'lst'], { env: { BLOCKCATCH_LANG: 'es' } });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('blockcatch: comando desconocido lst; ¿quisiste decir list?');
    const bad = await cli(env, ['users', 'list', '--product', 'uber'], {
      env: { BLOCKCATCH_LANG: 'es' },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--product: "uber" no es válido; usa flex o spark');
    const signedOut = await cli(cliEnv(sandbox.url), ['--lang', 'es', 'whoami']);
    expect(signedOut.stderr).toContain('No has iniciado sesión');
  });
});

describe('input forgiveness', () => {
  it('finds a user by the phone as the table prints it', async () => {
    for (const search of ['555-1005', '(305) 555-1005', '+1 (305) 555-1005']) {
      const run = await cli(env, [
        'users',
        'list',
        '--product',
        'flex',
        '--search',
        search,
        '--json',
      ]);
      expect(run.code, search).toBe(0);
      const phones = JSON.parse(run.stdout).items.map(
        (u: { phoneNumber: string }) => u.phoneNumber,
      );
      expect(phones, search).toEqual(['+13055551005']);
    }
  });

  it('matches regions whatever their case', async () => {
    const lower = JSON.parse(
      (await cli(env, ['users', 'list', '--product', 'flex', '--region', 'miami', '--json']))
        .stdout,
    );
    const exact = JSON.parse(
      (await cli(env, ['users', 'list', '--product', 'flex', '--region', 'Miami', '--json']))
        .stdout,
    );
    expect(lower.count).toBeGreaterThan(0);
    expect(lower.count).toBe(exact.count);
  });

  it('calls a reversed date range a usage error and says so', async () => {
    const run = await cli(env, [
      'users',
      'list',
      '--product',
      'flex',
      '--expires-from',
      '2026-04-01',
      '--expires-to',
      '2026-03-01',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the range is reversed');
    const invitees = await cli(env, [
      'invitations',
      'list',
      '--invited-from',
      '2026-02-02',
      '--invited-to',
      '2026-02-01',
    ]);
    expect(invitees.code).toBe(2);
    expect(invitees.stderr).toContain('--invited-from 2026-02-02 is after --invited-to 2026-02-01');
  });

  it('calls a page past the last a usage error naming the last page', async () => {
    const run = await cli(env, ['users', 'list', '--product', 'flex', '--page', '9']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--page 9: there are only 2 pages at 20 rows per page');
  });

  it('takes yes/no and products in any case', async () => {
    const run = await cli(env, [
      'users',
      'list',
      '--product',
      'Flex',
      '--good-standing',
      'NO',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(
      JSON.parse(run.stdout).items.every((u: { goodStanding: boolean }) => !u.goodStanding),
    ).toBe(true);
  });
});

describe('tables that fit', () => {
  it('keeps to 60 columns at a terminal: no rule between rows, name and phone kept, hidden columns said', async () => {
    const run = await cli(env, ['users', 'list', '--product', 'flex'], {
      env: { COLUMNS: '60', BLOCKCATCH_FORCE_TTY: '1' },
    });
    expect(run.code).toBe(0);
    const table = lines(run.stdout).slice(0, -1);
    expect(Math.max(...table.map((l) => [...l].length))).toBeLessThanOrEqual(60);
    // Top rule, header, the rule under it, 20 rows, bottom rule.
    expect(table).toHaveLength(24);
    // Who a row is stays whole: the other columns gave way first.
    expect(run.stdout).toMatch(/│ Flex Driver 29 │ \+1 \(305\) 555-1029 │/);
    expect(run.stderr).toContain('--wide shows every column');
  });

  it('shows every column on 200 columns, and with --wide anywhere', async () => {
    const wide = await cli(env, ['users', 'list', '--product', 'flex'], {
      env: { COLUMNS: '200', BLOCKCATCH_FORCE_TTY: '1' },
    });
    expect(wide.stdout).toContain('Account connected');
    expect(wide.stdout).toContain('Expiration date');
    expect(wide.stderr).toBe('');
    const forced = await cli(env, ['users', 'list', '--product', 'flex', '--wide'], {
      env: { COLUMNS: '60', BLOCKCATCH_FORCE_TTY: '1' },
    });
    expect(forced.stdout).toContain('Filters complete');
  });

  it('prints expiration days as YYYY-MM-DD in tables and CSV', async () => {
    const table = await cli(env, ['users', 'list', '--product', 'flex', '--wide']);
    expect(table.stdout).toMatch(/\d{4}-\d\d-\d\d/);
    expect(table.stdout).not.toMatch(/\d\d\/\d\d\/\d\d/);
    const csv = await cli(env, ['users', 'export', '--product', 'flex']);
    expect(csv.stdout).toMatch(/,\d{4}-\d\d-\d\d,/);
  });

  it('says what export --csv FILE wrote', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'blockcatch-export-')), 'flex.csv');
    const run = await cli(env, ['users', 'export', '--product', 'flex', '--csv', file]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`Wrote 31 rows to ${file} \\(\\d`));
  });
});
