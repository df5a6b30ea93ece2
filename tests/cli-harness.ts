// What the CLI's end-to-end tests share: the sandbox gateway with an owner-admin and a few known
// users, invitations and templates, and the BUILT `blockcatch` (cli/dist/main.js) spawned with real
// pipes, so stdout, stderr and exit codes are what a shell or a cron job would see.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Gateway } from '@blockcatch/gateway';
import {
  insertInvitations,
  insertUsers,
  type NewUser,
  upsertTemplates,
} from '@blockcatch/gateway/testing';
import { ADMIN, createAdmin } from './sdk-harness.js';

export const CLI = fileURLToPath(new URL('../cli/dist/main.js', import.meta.url));

export const DAY = 86_400_000;
const NOW = Date.now();

/** Flex users 305-555-1000…; even ones in good standing, Miami for the first half. */
export function flexPeople(count: number, start = 1000): NewUser[] {
  return Array.from({ length: count }, (_, i) => ({
    product: 'flex' as const,
    phone_number: `+1305555${String(start + i).padStart(4, '0')}`,
    name: `Flex Driver ${i}`,
    human_region: i < count / 2 ? 'Miami' : 'Orlando',
    good_standing: i % 2 === 0,
    proxy_installed: true,
    setup_complete: i % 3 !== 0,
    referral: i % 4 === 0 ? 'REF1' : null,
    create_date_ts: NOW - (i + 1) * DAY,
    expiration_ts: i % 5 === 0 ? null : NOW + (i + 1) * DAY,
    status: i % 2 === 0 ? ('start' as const) : ('stop' as const),
  }));
}

export async function seedSandbox(gateway: Gateway, flexCount = 12): Promise<void> {
  await createAdmin(gateway);
  await insertUsers(gateway.db, flexPeople(flexCount));
  await insertUsers(gateway.db, [
    {
      product: 'spark',
      phone_number: '+17865550001',
      name: 'Spark One',
      delivery_area: 'Tampa',
      good_standing: true,
      status: 'start',
    },
    { product: 'spark', phone_number: '+17865550002', name: 'Spark Two', delivery_area: 'Doral' },
  ]);
  await insertInvitations(gateway.db, [
    // Registered: the first Flex driver.
    {
      phoneNumber: '(305) 555-1000',
      dateInvitedTimestamp: NOW - 3 * DAY,
      freeWeek: false,
      referralCode: 'REF1',
    },
    {
      phoneNumber: '+19545550001',
      dateInvitedTimestamp: NOW - 2 * DAY,
      freeWeek: false,
      referralCode: null,
    },
    {
      phoneNumber: '+19545550002',
      dateInvitedTimestamp: NOW - DAY,
      freeWeek: false,
      referralCode: null,
    },
    // Rewarded already: dropped.
    {
      phoneNumber: '+19545550003',
      dateInvitedTimestamp: NOW - DAY,
      freeWeek: true,
      referralCode: null,
    },
  ]);
  await upsertTemplates(gateway.db, [
    {
      id: 'tpl-renewal-en',
      name: 'renewal',
      language: 'en',
      components: [{ type: 'BODY', text: 'Your week of service ends soon.' }],
      // Only a template WhatsApp approved, with its Content SID, is sent.
      contentSid: `HX${'1'.repeat(32)}`,
      approvalStatus: 'approved',
    },
    // A value given with the send (`--var week=12`).
    {
      id: 'tpl-week-en',
      name: 'week_ends',
      language: 'en',
      components: [{ type: 'BODY', text: 'Week {{week}}: your week of service ends soon.' }],
      variables: [{ key: 'week', type: 'text', source: 'value' }],
      contentSid: `HX${'2'.repeat(32)}`,
      approvalStatus: 'approved',
    },
  ]);
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface CliEnv {
  /** XDG_CONFIG_HOME of this test file: sessions and journals live under it. */
  configHome: string;
  gatewayUrl: string;
}

export function cliEnv(gatewayUrl: string): CliEnv {
  return { configHome: mkdtempSync(join(tmpdir(), 'blockcatch-cli-')), gatewayUrl };
}

function environment(env: CliEnv, extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  // npm's own variables would tell the CLI it was started through npx or a script, and so change
  // the command its hints show: the child is started as `node cli/dist/main.js`, and says so.
  for (const name of Object.keys(base)) {
    if (name.startsWith('BLOCKCATCH_') || name.startsWith('npm_')) delete base[name];
  }
  // The system locale picks the CLI's language: English unless a test asks otherwise.
  delete base.LC_ALL;
  delete base.LC_MESSAGES;
  base.LANG = 'C.UTF-8';
  return {
    ...base,
    XDG_CONFIG_HOME: env.configHome,
    BLOCKCATCH_GATEWAY_URL: env.gatewayUrl,
    NO_COLOR: '1',
    ...extra,
  };
}

/** Starts the CLI; the caller may kill it. */
export function startCli(
  env: CliEnv,
  args: string[],
  options: { input?: string; env?: Record<string, string | undefined> } = {},
): { child: ChildProcess; done: Promise<CliRun> } {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run npm run build --workspace @blockcatch/cli`);
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], {
    env: environment(env, options.env ?? {}),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  child.stdin?.end(options.input ?? '');
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started }),
    );
  });
  return { child, done };
}

export function cli(
  env: CliEnv,
  args: string[],
  options: { input?: string; env?: Record<string, string | undefined> } = {},
): Promise<CliRun> {
  return startCli(env, args, options).done;
}

/** Signs the default profile in as the sandbox's owner-admin, without a terminal. */
export async function loginAsAdmin(env: CliEnv, profile = 'default'): Promise<CliRun> {
  const run = await cli(env, ['--profile', profile, 'login'], {
    env: { BLOCKCATCH_PHONE: ADMIN.phone, BLOCKCATCH_PASSWORD: ADMIN.password },
  });
  if (run.code !== 0) throw new Error(`login failed: ${run.stderr}`);
  return run;
}
