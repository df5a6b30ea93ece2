// Every command but send, end to end: the built CLI against the sandbox gateway, with real stdout,
// stderr and exit codes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliEnv, cli, cliEnv, loginAsAdmin, seedSandbox } from './cli-harness.js';
import { ADMIN, type Sandbox, startSandbox } from './sdk-harness.js';

let sandbox: Sandbox;
let env: CliEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ sendRate: 0 });
  await seedSandbox(sandbox.gateway);
  env = cliEnv(sandbox.url);
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
});

describe('help and usage errors', () => {
  it('prints help with examples and exits 0', async () => {
    const run = await cli(env, ['send', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Examples:');
    expect(run.stdout).toContain('--dry-run');
  });

  it('exits 2 naming an unknown option', async () => {
    const run = await cli(env, ['users', 'list', '--product', 'flex', '--colour']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--colour');
  });

  it('exits 2 naming the flag, the value and the fix for a bad value', async () => {
    const run = await cli(env, ['users', 'list', '--product', 'uber']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('--product: "uber" is not valid; use flex or spark');
  });

  it('exits 2 for a date that is not a calendar day', async () => {
    const run = await cli(env, [
      'users',
      'list',
      '--product',
      'flex',
      '--created-from',
      '2026-02-30',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '--created-from: "2026-02-30" is not valid; give a calendar day as YYYY-MM-DD',
    );
  });

  it('exits 2 for a gateway that is not a URL', async () => {
    const run = await cli(env, ['--gateway', 'localhost', 'health']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--gateway: "localhost" is not valid');
  });
});

describe('without a session', () => {
  it('says to sign in and exits 1', async () => {
    const fresh = cliEnv(sandbox.url);
    const run = await cli(fresh, ['whoami']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cli/dist/main.js login');
  });

  it('says how to reach the gateway when nothing answers, and exits 1', async () => {
    const run = await cli({ ...env, gatewayUrl: 'http://127.0.0.1:9' }, ['health']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Cannot reach http://127.0.0.1:9');
  });

  it('reads version id and CDN id from the health check', async () => {
    const run = await cli(env, ['health', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ versionId: 'sandbox-1', cdnId: 'sandbox-cdn' });
  });

  it('measures an SMS text in English and in Spanish', async () => {
    const en = await cli(env, ['segments', 'Precio: 10€']);
    expect(en.stdout).toContain('Encoding GSM-7, 1 segment(s), 148 characters remaining');
    const es = await cli(env, ['--lang', 'es', 'segments', 'Hola']);
    expect(es.stdout).toContain('quedan 156 caracteres');
    const json = await cli(env, ['segments', '¿Qué tal? 😀', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    const piped = await cli(env, ['segments', '-', '--json'], { input: 'Hola desde un tubo\n' });
    expect(JSON.parse(piped.stdout)).toMatchObject({ text: 'Hola desde un tubo', units: 18 });
  });
});

describe('signed in', () => {
  beforeAll(async () => {
    await loginAsAdmin(env);
  }, 30_000);

  it('keeps the session in the profile file, private, without printing tokens', async () => {
    const file = join(env.configHome, 'blockcatch', 'default.json');
    expect(readFileSync(file, 'utf8')).toContain('idToken');
    const run = await cli(env, ['whoami', '--verbose']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(ADMIN.name);
    expect(run.stdout).toContain('+1 (305) 555-0100');
    expect(run.stdout + run.stderr).not.toMatch(/eyJ/);
  });

  it('reads the password from stdin with --password-stdin', async () => {
    const run = await cli(
      env,
      ['--profile', 'stdin', 'login', '--phone', ADMIN.phone, '--password-stdin'],
      {
        input: `${ADMIN.password}\n`,
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Signed in as ${ADMIN.name}.`);
  });

  it('refuses a wrong password with exit 1 and what to do', async () => {
    const run = await cli(
      env,
      ['--profile', 'wrong', 'login', '--phone', ADMIN.phone, '--password-stdin'],
      {
        input: 'nope-nope-1',
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Phone number or password incorrect');
  });

  it('lists Flex users as the admin table, paged', async () => {
    const run = await cli(env, [
      'users',
      'list',
      '--product',
      'flex',
      '--region',
      'Miami',
      '--rows-per-page',
      '20',
      '--wide',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Good standing');
    expect(run.stdout).toContain('+1 (305) 555-1000');
    expect(run.stdout).toMatch(/\b(ON|OFF)\b/);
    expect(run.stdout).toMatch(/None|\d{4}-\d\d-\d\d/);
    expect(run.stdout).not.toContain('Orlando');
    // Off a terminal stdout is the rows alone; the page line is on stderr.
    expect(run.stderr).toContain('Page 1 of 1');
  });

  it('prints a table for programs when piped: tab-separated, no borders, nothing cut', async () => {
    const run = await cli(env, ['users', 'list', '--product', 'flex', '--region', 'Miami']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(run.stdout).not.toMatch(/[│┌└─…]/);
    const header = lines[0]!.split('\t');
    expect(header).toContain('Account connected');
    expect(lines.slice(1).every((l) => l.split('\t').length === header.length)).toBe(true);
    expect(lines.some((l) => l.startsWith('Flex Driver 0\t+1 (305) 555-1000\t'))).toBe(true);
  });

  it('selects fields with --json name,phoneNumber, and names the fields when one is unknown', async () => {
    const args = ['users', 'list', '--product', 'flex', '--region', 'Miami'];
    const run = await cli(env, [...args, '--json', 'name,phoneNumber']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { items: Record<string, unknown>[] };
    expect(out.items.length).toBeGreaterThan(0);
    for (const item of out.items) expect(Object.keys(item)).toEqual(['name', 'phoneNumber']);
    const bad = await cli(env, [...args, '--json', 'name,accountConnected']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('accountConnected is not a field');
    expect(bad.stderr).toContain('proxyInstalled');
  });

  it('filters by good standing and prints JSON', async () => {
    const run = await cli(env, [
      'users',
      'list',
      '--product',
      'flex',
      '--good-standing',
      'no',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as {
      count: number;
      items: Array<{ name: string; goodStanding: boolean }>;
    };
    // Six of the twelve drivers, and the admin (a Flex user who never paid).
    expect(out.count).toBe(7);
    expect(out.items.filter((u) => u.name.startsWith('Flex Driver'))).toHaveLength(6);
    expect(out.items.every((u) => !u.goodStanding)).toBe(true);
  });

  it('exports Spark users as CSV with a header row', async () => {
    const run = await cli(env, ['users', 'export', '--product', 'spark']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      'name,phoneNumber,referral,region,goodStanding,proxyInstalled,setupComplete,expirationDate,status',
    );
    expect(lines).toContain('Spark One,+17865550001,,Tampa,true,false,false,,ON');
    expect(lines).toHaveLength(3);
  });

  it('writes the CSV to a file with --csv FILE', async () => {
    const file = join(env.configHome, 'flex.csv');
    const run = await cli(env, [
      'users',
      'export',
      '--product',
      'flex',
      '--search',
      'driver 1',
      '--csv',
      file,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.slice(1).every((l) => l.startsWith('Flex Driver 1'))).toBe(true);
  });

  it('lists invitees merged with their users, without rewarded or repeated invitations', async () => {
    const run = await cli(env, ['invitations', 'list', '--json']);
    const out = JSON.parse(run.stdout) as {
      count: number;
      items: Array<{ name: string; unregistered: boolean }>;
    };
    expect(out.count).toBe(3);
    expect(out.items.map((i) => i.name)).toEqual(['Flex Driver 0', 'Unregistered', 'Unregistered']);
    const unregistered = await cli(env, ['invitations', 'export', '--registered', 'no']);
    expect(unregistered.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('lists the WhatsApp templates', async () => {
    const run = await cli(env, ['templates', 'list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('renewal');
    expect(run.stdout).toContain('Your week of service ends soon.');
  });

  it('reads the sandbox outbox', async () => {
    const run = await cli(env, ['outbox', '--limit', '5', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveProperty('items');
    const bad = await cli(env, ['outbox', '--limit', '5000']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit');
  });

  it('signs out, after which whoami asks for a sign-in', async () => {
    await loginAsAdmin(env, 'leaving');
    const out = await cli(env, ['--profile', 'leaving', 'logout', '--global']);
    expect(out.code).toBe(0);
    const after = await cli(env, ['--profile', 'leaving', 'whoami']);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('cli/dist/main.js login');
  });
});
