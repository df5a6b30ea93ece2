// The start command as a person runs it: a real process, its banner, a second start on the same
// data folder (refused while the first runs, then a restart), a graceful stop on SIGTERM, and one
// clear line for a bad flag.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../../fixtures/generate-data.js';
import { listSettings } from '../src/config.js';
import { writeFixturesDir } from './helpers/fixtures-dir.js';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let fixturesDir: string;
let dataDir: string;
let data: Dataset;

beforeAll(async () => {
  ({ dir: fixturesDir, data } = await writeFixturesDir(60, 5));
  dataDir = await mkdtemp(join(tmpdir(), 'blockcatch-main-'));
});

afterAll(async () => {
  await rm(fixturesDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

function startMain(
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): ChildProcess & { output: () => string; errors: () => string } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BLOCKCATCH_FIXTURES_DIR: fixturesDir,
    // No load balancer to tell: a stop need not wait out the five seconds of drain.
    BLOCKCATCH_SHUTDOWN_DRAIN_MS: '0',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  delete env.BLOCKCATCH_PORT;
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  return Object.assign(child, { output: () => out, errors: () => err });
}

const exited = (child: ChildProcess) =>
  new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );

/** The start banner, once its last line is out; fails at once if the process exits first. */
function waitForBanner(child: ReturnType<typeof startMain>): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (child.output().includes('Sent messages')) resolve(child.output());
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${child.errors()}`)));
    check();
  });
}

describe('blockcatch-gateway', () => {
  it('prints the URL and the staff sign-ins, serves health, and stops on SIGTERM', async () => {
    const child = startMain(['--port', '0', '--data-dir', dataDir]);
    const banner = await waitForBanner(child);
    const url = /API\s+(http:\/\/127\.0\.0\.1:\d+)\/api/.exec(banner)?.[1];
    expect(url).toBeDefined();
    for (const member of data.staff) {
      expect(banner).toContain(member.phoneNumber);
      expect(banner).toContain(member.password);
    }
    expect(banner).toMatch(/Seeded\s+48 Flex and 12 Spark users/);
    expect(banner).toContain('/api/sandbox/outbox');
    expect(banner).toContain('us-east-1_Sandbox01');
    const health = await fetch(`${url}/api/status/health`);
    expect(health.status).toBe(200);
    // A second gateway on the same folder would corrupt it: it refuses, naming the first.
    const second = startMain(['--port', '0', '--data-dir', dataDir]);
    expect(await exited(second)).toBe(1);
    expect(second.errors()).toContain(`in use by process ${child.pid}`);
    child.kill('SIGTERM');
    expect(await exited(child), child.errors()).toBe(0);
  }, 90_000);

  it('keeps its data across a restart and does not seed twice', async () => {
    const child = startMain(['--port', '0', '--data-dir', dataDir]);
    const banner = await waitForBanner(child);
    expect(banner).toMatch(/Seeded\s+earlier/);
    child.kill('SIGINT');
    expect(await exited(child), child.errors()).toBe(0);
  }, 90_000);

  it('refuses a bad flag value with one line naming the flag, and exit code 2', async () => {
    const child = startMain(['--port', 'eighty']);
    expect(await exited(child)).toBe(2);
    const lines = child.errors().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/--port "eighty" is not valid/);
  });

  it('refuses a bad variable with one line naming the variable, and exit code 2', async () => {
    const child = startMain(['--port', '0'], { BLOCKCATCH_DB_POOL_SIZE: '0' });
    expect(await exited(child)).toBe(2);
    const lines = child.errors().trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^blockcatch-gateway: BLOCKCATCH_DB_POOL_SIZE "0" is not valid: /),
    ]);
  });

  it('lists every setting under --help', async () => {
    const child = startMain(['--help']);
    expect(await exited(child)).toBe(0);
    for (const { meta } of listSettings()) expect(child.output()).toContain(meta.env);
    expect(child.output()).toContain('--data-dir');
  });

  it('refuses to start with Twilio and no address for its delivery reports, naming the settings', async () => {
    const child = startMain(['--port', '0'], {
      BLOCKCATCH_MESSAGE_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC0123',
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_FROM: '+15550000000',
      BLOCKCATCH_PUBLIC_URL: '',
      TWILIO_STATUS_CALLBACK_URL: '',
    });
    expect(await exited(child)).toBe(2);
    expect(child.errors()).toMatch(/BLOCKCATCH_PUBLIC_URL .* or TWILIO_STATUS_CALLBACK_URL/);
    expect(child.output()).not.toContain('Sent messages');
  });

  it('refuses an unknown flag with exit code 2', async () => {
    const child = startMain(['--prot', '80']);
    expect(await exited(child)).toBe(2);
    expect(child.errors()).toMatch(/--prot.*--help/);
  });
});
