// `blockcatch send` without a terminal, end to end against the sandbox: dry runs (the gateway's
// preview), --yes, the 'Limit characters' rule, --only/--exclude files, a cron job that fires
// twice, and a send killed half-way that resumes with another batch size without sending anyone
// twice. Re-runs that change the audience or the content: cli-send-rerun.test.ts.
import { writeFileSync } from 'node:fs';
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
  ADMIN,
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
      queued: 6,
      earlier: 0,
      skipped: [],
      scheduledFor: null,
      waitingForQuietHours: { count: 0, until: null },
      segments: 1,
      estimatedCost: 0.0498,
      preview: { text: 'Hola 😀' },
      skippedRows: [],
    });
    expect(out.preview.to).toBe(out.recipients.numbers[0]);
    expect(out.key).toMatch(/^auto-\d{4}-\d{2}-\d{2}-[0-9a-f]{32}$/);
  });
});

describe('rules checked before anything is sent', () => {
  it('refuses a real send without --yes when there is no terminal: exit 2', async () => {
    const run = await cli(env, [...miami, '--message', 'No yes']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('pass --yes');
  });

  it("refuses a message longer than one segment ('Limit characters') unless --allow-multipart and the role allows it", async () => {
    const long = 'x'.repeat(161);
    const run = await cli(env, [...miami, '--message', long, '--dry-run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("'Limit characters'");
    expect(run.stderr).toContain('--allow-multipart');
    const dryRun = [...miami, '--message', long, '--allow-multipart', '--dry-run', '--json'];
    // The dry run is the gateway's preview: it refuses what the send would refuse.
    const refused = await cli(env, dryRun);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('your role may send only single-segment messages');
    await sandbox.gateway.db.query(
      'UPDATE users SET can_send_multi_segment = true WHERE phone_number = $1',
      [ADMIN.phone],
    );
    try {
      const allowed = await cli(env, dryRun);
      expect(allowed.code).toBe(0);
      expect(JSON.parse(allowed.stdout)).toMatchObject({
        message: { segments: 2 },
        segments: 2,
        estimatedCost: 0.0996,
      });
    } finally {
      await sandbox.gateway.db.query(
        'UPDATE users SET can_send_multi_segment = false WHERE phone_number = $1',
        [ADMIN.phone],
      );
    }
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
  it('sends with --yes and reports the job, what was queued and its cost as JSON', async () => {
    const body = 'Spark hello';
    const args = ['send', 'sms', '--audience', 'spark', '--message', body, '--yes', '--json'];
    const run = await cli(env, args);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({
      dryRun: false,
      replayed: false,
      recipientsTotal: 2,
      queued: 2,
      added: 2,
      earlier: 0,
      skipped: [],
      scheduledFor: null,
      waitingForQuietHours: { count: 0, until: null },
      estimatedCost: 0.0166,
    });
    expect(out.jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(run.stdout).not.toContain('successfully');
    expect(await deliveredTo(sandbox, body, 2)).toEqual(['+17865550001', '+17865550002']);
    const again = JSON.parse((await cli(env, args)).stdout);
    expect(again).toMatchObject({ jobId: out.jobId, replayed: true, queued: 0, earlier: 2 });
  });

  it('sends a WhatsApp template with its values from --var, naming the job', async () => {
    const args = [
      'send',
      'whatsapp',
      '--audience',
      'flex',
      '--search',
      'Flex Driver 11',
      '--template',
      'week_ends',
    ];
    const missing = await cli(env, [...args, '--dry-run']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('msgTemplate.values.week');
    const run = await cli(env, [...args, '--var', 'week=12', '--yes']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Job [0-9a-f-]{36} \(key auto-/);
    expect(run.stdout).toContain('Queued now: 1.');
    expect(run.stdout).toContain('Estimated cost: $');
    expect(await deliveredTo(sandbox, 'Week 12: your week of service ends soon.', 1)).toEqual([
      '+13055551011',
    ]);
    const twice = await cli(env, [...args, '--var', 'week=1', '--var', 'week=2', '--yes']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('--var week is given twice');
  });

  it('sends once when a cron job fires twice on the same day, and says nothing was sent the second time', async () => {
    const body = 'Cron: your week ends soon';
    const args = [...miami, '--good-standing', 'yes', '--message', body, '--yes'];
    const first = await cli(env, args);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Queued now: 3.');
    const second = await cli(env, args);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      /Already sent earlier under key auto-.*3 recipients\); nothing sent now\./,
    );
    expect(second.stdout).not.toContain('Queued now');
    expect(await deliveredTo(sandbox, body, 3)).toEqual([
      '+13055551000',
      '+13055551002',
      '+13055551004',
    ]);
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
    expect((await cli(env, [...args, '--key', 'k-1'])).stdout).toContain('nothing sent now');
    expect((await cli(env, [...args, '--key', 'k-2'])).code).toBe(0);
    expect(await deliveredTo(sandbox, body, 2)).toEqual(['+17865550001', '+17865550001']);
  });

  it('reads the message from standard input with --message-file -', async () => {
    const body = 'From a pipe';
    const run = await cli(
      env,
      [...miami, '--search', 'Flex Driver 0', '--message-file', '-', '--dry-run', '--json'],
      { input: `${body}\n` },
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).message.text).toBe(body);
  });
});

describe('an interrupted send', () => {
  let proxy: FaultProxy;
  const people = flexPeople(40, 5000).map((p) => ({ ...p, human_region: 'Keys' }));

  beforeAll(async () => {
    await insertUsers(sandbox.gateway.db, people);
    proxy = await startFaultProxy(sandbox.url);
    // A session is kept per gateway: the proxy is another address, signed in through itself.
    await loginAsAdmin({ ...env, gatewayUrl: proxy.url });
  });

  afterAll(async () => {
    await proxy?.close();
  });

  /** Recipients the gateway holds for jobs sending this text. */
  const inJobs = async (body: string) => {
    const [row] = await sandbox.gateway.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM send_recipients r JOIN send_jobs j ON j.id = r.job_id
       WHERE j.body = $1`,
      [body],
    );
    return row?.n ?? 0;
  };

  /** The first two parts are answered; later ones hang until the CLI dies, then reach the gateway. */
  const hangAfterTwo = () => {
    let posts = 0;
    proxy.plan = (req) =>
      req.method === 'POST' && req.path.startsWith('/api/flex/v1/admin/sendsms') && posts++ >= 2
        ? { kind: 'hang' }
        : { kind: 'forward' };
  };

  it('is killed half-way, resumes with another batch size, and reaches everyone exactly once', async () => {
    const body = 'Resumable message';
    const args = ['send', 'sms', '--audience', 'flex', '--region', 'Keys', '--message', body];
    const proxied = { ...env, gatewayUrl: proxy.url };
    hangAfterTwo();
    const { child, done } = startCli(proxied, [...args, '--batch-size', '4', '--yes']);
    await eventually(async () => expect(await inJobs(body)).toBe(8));
    child.kill('SIGKILL');
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');
    proxy.plan = () => ({ kind: 'forward' });

    const again = await cli(proxied, [...args, '--batch-size', '7', '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/(8|12) sent earlier, (32|28) added/);
    const to = await deliveredTo(sandbox, body, 40);
    expect(to).toHaveLength(40);
    expect(new Set(to).size).toBe(40);
  }, 60_000);

  it('exits 130 on Ctrl-C and says how to resume', async () => {
    const body = 'Interrupted by Ctrl-C';
    const args = ['send', 'sms', '--audience', 'flex', '--region', 'Keys', '--message', body];
    const proxied = { ...env, gatewayUrl: proxy.url };
    hangAfterTwo();
    const { child, done } = startCli(proxied, [...args, '--batch-size', '4', '--yes']);
    await eventually(async () => expect(await inJobs(body)).toBe(8));
    child.kill('SIGINT');
    const stopped = await done;
    proxy.plan = () => ({ kind: 'forward' });
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('Run the same command again today to send the rest');
    const resumed = await cli(proxied, [...args, '--yes']);
    expect(resumed.code).toBe(0);
    const to = await deliveredTo(sandbox, body, 40);
    expect(new Set(to).size).toBe(40);
    expect(to).toHaveLength(40);
  }, 60_000);
});
