// `blockcatch send` without a terminal, end to end against the sandbox: dry runs, --yes, the
// 'Limit characters' rule, --only/--exclude files, a cron job that fires twice, and a send killed
// half-way that resumes without sending anyone twice.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { insertUsers } from '@blockcatch/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliEnv,
  cli,
  cliEnv,
  flexPeople,
  loginAsAdmin,
  seedSandbox,
  startCli,
} from './cli-harness.js';
import {
  adminClient,
  deliveredTo,
  type FaultProxy,
  type Sandbox,
  startFaultProxy,
  startSandbox,
} from './sdk-harness.js';
import { eventually } from './support/eventually.js';

let sandbox: Sandbox;
let env: CliEnv;
let admin: Awaited<ReturnType<typeof adminClient>>;

beforeAll(async () => {
  sandbox = await startSandbox({ sendRate: 0 });
  await seedSandbox(sandbox.gateway);
  admin = await adminClient(sandbox);
  env = cliEnv(sandbox.url);
  await loginAsAdmin(env);
}, 60_000);

afterAll(async () => {
  admin?.auth.dispose();
  await sandbox?.close();
});

const miami = ['send', 'sms', '--audience', 'flex', '--region', 'Miami'];

describe('dry run', () => {
  it('prints recipients, message, encoding and segments, sends nothing, exits 0', async () => {
    const body = 'Dry run only';
    const run = await cli(env, [...miami, '--message', body, '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Dry run: nothing will be sent. Recipients: 6.');
    expect(run.stdout).toContain(`Message: ${body}`);
    expect(run.stdout).toContain('Encoding GSM-7, 1 segment(s), 148 characters remaining');
    expect(run.stdout).toContain('+13055551000');
    expect(run.stdout).toContain('A real send needs --yes');
    expect(await deliveredTo(sandbox, body, 0)).toEqual([]);
  });

  it('prints the documented JSON with --json', async () => {
    const run = await cli(env, [...miami, '--message', 'Hola 😀', '--dry-run', '--json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({
      dryRun: true,
      channel: 'sms',
      audience: 'flex',
      message: { text: 'Hola 😀', encoding: 'UCS-2', segments: 1, units: 7, remaining: 63 },
      recipients: { count: 6 },
      alreadySent: { batches: 0, of: 1 },
      skippedRows: [],
    });
    expect(out.key).toMatch(/^auto-\d{4}-\d{2}-\d{2}-[0-9a-f]{32}$/);
  });
});

describe('rules checked before anything is sent', () => {
  it('refuses a real send without --yes when there is no terminal: exit 2', async () => {
    const run = await cli(env, [...miami, '--message', 'No yes']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('pass --yes');
  });

  it("refuses a message longer than one segment ('Limit characters') unless --allow-multipart", async () => {
    const long = 'x'.repeat(161);
    const run = await cli(env, [...miami, '--message', long, '--dry-run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("'Limit characters'");
    expect(run.stderr).toContain('--allow-multipart');
    const allowed = await cli(env, [
      ...miami,
      '--message',
      long,
      '--allow-multipart',
      '--dry-run',
      '--json',
    ]);
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout).message.segments).toBe(2);
  });

  it('keeps messages to unpaid invitations to one segment, even with --allow-multipart', async () => {
    const run = await cli(env, [
      'send',
      'sms',
      '--audience',
      'invitees',
      '--message',
      'y'.repeat(200),
      '--allow-multipart',
      '--dry-run',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('one segment');
  });

  it('needs exactly one message source and a template for WhatsApp', async () => {
    const both = await cli(env, [
      ...miami,
      '--message',
      'a',
      '--message-file',
      'b.txt',
      '--dry-run',
    ]);
    expect(both.code).toBe(2);
    const none = await cli(env, ['send', 'whatsapp', '--audience', 'spark', '--dry-run']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--template');
    const unknown = await cli(env, [
      'send',
      'whatsapp',
      '--audience',
      'spark',
      '--template',
      'nope',
      '--dry-run',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('renewal');
  });

  it('exits 2 for a bad audience, naming it', async () => {
    const run = await cli(env, [
      'send',
      'sms',
      '--audience',
      'everyone',
      '--message',
      'x',
      '--dry-run',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '--audience: "everyone" is not valid; use flex, spark or invitees.',
    );
  });
});

describe('--only and --exclude', () => {
  it('keeps the listed phones, reports bad rows by line and skips them', async () => {
    const only = join(env.configHome, 'only.csv');
    writeFileSync(only, 'name,phone\nA,(305) 555-1000\nB,not-a-phone\nC,305.555.1001\nD,\n');
    const exclude = join(env.configHome, 'exclude.csv');
    writeFileSync(exclude, 'Phone Number\n3055551001\n');
    const run = await cli(env, [
      ...miami,
      '--message',
      'Only one',
      '--only',
      only,
      '--exclude',
      exclude,
      '--dry-run',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.recipients).toEqual({ count: 1, numbers: ['+13055551000'] });
    expect(out.skippedRows).toEqual([
      { flag: '--only', file: only, line: 3, value: 'not-a-phone', reason: 'invalid' },
      { flag: '--only', file: only, line: 5, value: '', reason: 'empty' },
    ]);
    expect(run.stderr).toContain(`--only ${only} line 3: not-a-phone is not a US phone number`);
  });

  it('stops before sending when a file is not readable CSV', async () => {
    const broken = join(env.configHome, 'broken.csv');
    writeFileSync(broken, 'phone\n"3055551000\n3055551001\n');
    const body = 'Never sent: broken list';
    const run = await cli(env, [...miami, '--message', body, '--exclude', broken, '--yes']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not readable CSV');
    expect(run.stderr).toContain('nothing was sent');
    expect(await deliveredTo(sandbox, body, 0)).toEqual([]);
  });

  it('stops when the file has no phone column', async () => {
    const file = join(env.configHome, 'nophone.csv');
    writeFileSync(file, 'name,email\nA,a@example.com\n');
    const run = await cli(env, [...miami, '--message', 'x', '--only', file, '--dry-run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('has no phone column');
  });
});

describe('real sends', () => {
  it('sends with --yes and reports the result as JSON', async () => {
    const body = 'Spark hello';
    const run = await cli(env, [
      'send',
      'sms',
      '--audience',
      'spark',
      '--message',
      body,
      '--yes',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      dryRun: false,
      batchesTotal: 1,
      batchesSent: 1,
      recipientsTotal: 2,
      queued: 2,
      message: 'Message sent successfully to 2 users.',
    });
    expect(await deliveredTo(sandbox, body, 2)).toEqual(['+17865550001', '+17865550002']);
  });

  it('sends a WhatsApp template', async () => {
    const run = await cli(env, [
      'send',
      'whatsapp',
      '--audience',
      'flex',
      '--search',
      'Flex Driver 11',
      '--template',
      'renewal',
      '--yes',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Message sent successfully to 1 user.');
  });

  it('sends once when a cron job fires twice on the same day', async () => {
    const body = 'Cron: your week ends soon';
    const args = [...miami, '--good-standing', 'yes', '--message', body, '--yes'];
    const first = await cli(env, args);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Message sent successfully to 3 users.');
    const second = await cli(env, args);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('Already sent');
    expect(await deliveredTo(sandbox, body, 3)).toEqual([
      '+13055551000',
      '+13055551002',
      '+13055551004',
    ]);
    const journal = readFileSync(
      join(env.configHome, 'blockcatch', 'default', 'send-journal.jsonl'),
      'utf8',
    );
    expect(journal).toMatch(/"key":"auto-/);
  });

  it('sends again under a new --key', async () => {
    const body = 'Keyed message';
    const args = [
      'send',
      'sms',
      '--audience',
      'spark',
      '--search',
      'Spark One',
      '--message',
      body,
      '--yes',
    ];
    expect((await cli(env, [...args, '--key', 'k-1'])).code).toBe(0);
    expect((await cli(env, [...args, '--key', 'k-1'])).stderr).toContain('Already sent');
    expect((await cli(env, [...args, '--key', 'k-2'])).code).toBe(0);
    expect(await deliveredTo(sandbox, body, 2)).toEqual(['+17865550001', '+17865550001']);
  });
});

describe('an interrupted send', () => {
  let proxy: FaultProxy;
  const people = flexPeople(40, 5000).map((p) => ({ ...p, human_region: 'Keys' }));

  beforeAll(async () => {
    await insertUsers(sandbox.gateway.db, people);
    proxy = await startFaultProxy(sandbox.url);
    // The first two sends are answered; every later one hangs until the CLI dies, and then reaches
    // the gateway anyway: the gateway did the work, but the CLI never heard of it.
    proxy.plan = (req) =>
      req.method === 'POST' && req.path.startsWith('/api/flex/v1/admin/sendsms') && req.seen >= 2
        ? { kind: 'hang' }
        : { kind: 'forward' };
  });

  afterAll(async () => {
    await proxy?.close();
  });

  it('is killed half-way, resumes, and reaches everyone exactly once', async () => {
    const body = 'Resumable message';
    const args = [
      'send',
      'sms',
      '--audience',
      'flex',
      '--region',
      'Keys',
      '--message',
      body,
      '--batch-size',
      '4',
      '--yes',
    ];
    const journal = join(env.configHome, 'blockcatch', 'default', 'send-journal.jsonl');
    const proxied = { ...env, gatewayUrl: proxy.url };
    const journaled = () =>
      safeRead(journal)
        .split('\n')
        .filter((l) => l.includes('"key"')).length;
    const before = journaled();
    const { child, done } = startCli(proxied, args);
    // Kill it once the two answered batches are journaled.
    await eventually(() => expect(journaled() - before).toBe(2));
    child.kill('SIGKILL');
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');
    proxy.plan = () => ({ kind: 'forward' });

    const again = await cli(proxied, args);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/Resuming: 2 of 10 batches already sent/);
    expect(again.stdout).toMatch(/Resumed: \d+ of 10 batches/);
    const to = await deliveredTo(sandbox, body, 40);
    expect(to).toHaveLength(40);
    expect(new Set(to).size).toBe(40);
  }, 60_000);
});

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
