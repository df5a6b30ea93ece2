// Re-running `blockcatch send` after something changed, end to end against the sandbox: one send
// is one job named by its key, so a re-run with one more --only person, a grown audience or a
// deselected row never skips anyone in silence and never texts anyone twice; other text under the
// same key is refused (exit 2). The dry run asks the gateway's preview: skipped numbers with their
// reasons, people the job already has, a schedule with its offset.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { insertUsers } from '@blockcatch/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliEnv, cli, cliEnv, flexPeople, loginAsAdmin, seedSandbox } from './cli-harness.js';
import { deliveredTo, type Sandbox, startSandbox } from './sdk-harness.js';

let sandbox: Sandbox;
let env: CliEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ sendRate: 0 });
  await seedSandbox(sandbox.gateway);
  env = cliEnv(sandbox.url);
  await loginAsAdmin(env);
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
});

/** `count` Flex drivers in their own region, numbered from `start`. */
async function region(name: string, count: number, start: number): Promise<string[]> {
  const people = flexPeople(count, start).map((p) => ({ ...p, human_region: name }));
  await insertUsers(sandbox.gateway.db, people);
  return people.map((p) => p.phone_number);
}

function onlyFile(name: string, phones: string[]): string {
  const file = join(env.configHome, `${name}.csv`);
  writeFileSync(file, `phone\n${phones.join('\n')}\n`);
  return file;
}

const sms = (where: string, text: string) => [
  'send',
  'sms',
  '--audience',
  'flex',
  '--region',
  where,
  '--message',
  text,
];

describe('the same key, changed', () => {
  it('adds one more --only person and texts only them', async () => {
    const phones = await region('OnlyGrows', 4, 6000);
    const text = 'Only list grows';
    const args = [...sms('OnlyGrows', text), '--key', 'only-grows', '--yes'];
    const first = await cli(env, [...args, '--only', onlyFile('three', phones.slice(0, 3))]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Queued now: 3.');
    const second = await cli(env, [...args, '--only', onlyFile('four', phones)]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('3 sent earlier, 1 added');
    expect(second.stdout).toContain('Queued now: 1.');
    expect(await deliveredTo(sandbox, text, 4)).toEqual([...phones].sort());
  });

  it('refuses other text under the same key with exit 2, naming what changed, and sends nothing', async () => {
    await region('OtherText', 2, 6100);
    const first = await cli(env, [...sms('OtherText', 'First text'), '--key', 'k-text', '--yes']);
    expect(first.code).toBe(0);
    const other = await cli(env, [...sms('OtherText', 'Second text'), '--key', 'k-text', '--yes']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('the text changed');
    expect(other.stderr).toContain('new --key');
    const dry = await cli(env, [
      ...sms('OtherText', 'Second text'),
      '--key',
      'k-text',
      '--dry-run',
    ]);
    expect(dry.code).toBe(2);
    expect(await deliveredTo(sandbox, 'First text', 2)).toHaveLength(2);
    expect(await deliveredTo(sandbox, 'Second text', 0)).toEqual([]);
  });
});

describe('a cron job without --key', () => {
  it('texts only the person who joined the audience since the morning run', async () => {
    const morning = await region('Grows', 3, 6200);
    const text = 'Your week ends today';
    const args = [...sms('Grows', text), '--yes'];
    expect((await cli(env, args)).stdout).toContain('Queued now: 3.');
    const joined = await region('Grows', 1, 6210);
    const evening = await cli(env, args);
    expect(evening.code).toBe(0);
    expect(evening.stdout).toContain('3 sent earlier, 1 added');
    expect(await deliveredTo(sandbox, text, 4)).toEqual([...morning, ...joined].sort());
  });

  it('keeps the job when someone is left out after a resume: nobody is texted again', async () => {
    const phones = await region('Deselect', 3, 6300);
    const text = 'Deselect after resume';
    expect((await cli(env, [...sms('Deselect', text), '--yes'])).code).toBe(0);
    const fewer = await cli(env, [
      ...sms('Deselect', text),
      '--exclude',
      onlyFile('leave-out', [phones[0]!]),
      '--yes',
    ]);
    expect(fewer.code).toBe(0);
    expect(fewer.stdout).toContain('nothing sent now');
    expect(await deliveredTo(sandbox, text, 3)).toEqual([...phones].sort());
  });
});

describe('the dry run is the gateway preview', () => {
  it('lists each skipped number with its reason, who the job already has, and the cost', async () => {
    const phones = await region('Preview', 3, 6400);
    await sandbox.gateway.db.query(
      'INSERT INTO opt_outs (phone_number, opted_out_ts) VALUES ($1, $2)',
      [phones[2], Date.now()],
    );
    const text = 'Preview me';
    const stranger = '+13055559876';
    const only = onlyFile('preview-only', [...phones, stranger]);
    await cli(env, [...sms('Preview', text), '--only', onlyFile('first', [phones[0]!]), '--yes']);
    const run = await cli(env, [...sms('Preview', text), '--only', only, '--dry-run', '--json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({
      recipients: { count: 3 },
      queued: 1,
      earlier: 1,
      skipped: [
        { number: phones[2], reason: 'opted-out' },
        { number: stranger, reason: 'not-in-audience' },
      ],
      estimatedCost: 0.0083,
    });
    expect(out.jobId).toMatch(/^[0-9a-f-]{36}$/);
    const text_ = await cli(env, [...sms('Preview', text), '--only', only, '--dry-run']);
    expect(text_.stdout).toContain('1 already in job');
    expect(text_.stdout).toContain(`Skipped ${stranger}: in --only but not in the audience`);
    expect(text_.stdout).toContain(`Skipped ${phones[2]}: opted out`);
    expect(text_.stdout).toContain('Would queue 1 now.');
  });

  it('shows a scheduled send with its time and offset, and the send says it is scheduled, not sent', async () => {
    await region('Later', 2, 6500);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    const args = [...sms('Later', 'See you tomorrow'), '--at', `${day}T09:00`];
    const dry = JSON.parse((await cli(env, [...args, '--dry-run', '--json'])).stdout);
    expect(dry.scheduledFor).toMatch(new RegExp(`^${day}T09:00:00[+-]\\d{2}:\\d{2}$`));
    const sent = await cli(env, [...args, '--yes', '--json']);
    const out = JSON.parse(sent.stdout);
    expect(out).toMatchObject({ queued: 2, scheduledFor: dry.scheduledFor, replayed: false });
    const text = await cli(env, [...args, '--yes']);
    expect(text.stdout).toContain('nothing sent now');

    // Followed by the start of its id, it says why it waits, and gives up at the timeout.
    const short = out.jobId.slice(0, 8);
    const waited = await cli(env, ['sends', 'show', short, '--wait', '--timeout', '1s']);
    expect(waited.code).toBe(1);
    expect(waited.stderr).toContain(`waiting: scheduled for ${dry.scheduledFor}`);
    expect(waited.stderr).toContain('Not done when --timeout 1s ran out');
    expect(waited.stderr).toContain(`sends show ${out.jobId} --wait`);
    const noWait = await cli(env, ['sends', 'show', short, '--timeout', '1s']);
    expect(noWait.code).toBe(2);
    // send --wait says the same, and gives up at its --timeout too.
    const sendWaits = await cli(env, [...args, '--yes', '--wait', '--timeout', '1s']);
    expect(sendWaits.code).toBe(1);
    expect(sendWaits.stdout).toContain('nothing sent now');
    expect(sendWaits.stderr).toContain(`waiting: scheduled for ${dry.scheduledFor}`);
    expect(sendWaits.stderr).toContain('Not done when --timeout 1s ran out');

    const listed = JSON.parse(
      (await cli(env, ['sends', 'list', '--key', out.key, '--json'])).stdout,
    );
    expect(listed.items.map((j: { jobId: string }) => j.jobId)).toEqual([out.jobId]);
    // Times in JSON are ISO 8601 with the offset, as in text.
    expect(listed.items[0]).toMatchObject({
      createdAt: expect.stringMatching(/T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/),
      sendAt: dry.scheduledFor,
    });
    expect((await cli(env, ['sends', 'cancel', short])).code).toBe(0);
  });
});
