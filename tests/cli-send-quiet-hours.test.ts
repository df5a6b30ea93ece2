// A send during quiet hours says so, end to end against a gateway whose messaging clock reads 2 am
// in Miami: the dry run and the send count who waits and until when (ISO with the offset), the
// text says they wait instead of calling them sent, and `sends show --wait` says why it waits and
// gives up at its timeout.
import { insertUsers } from '@blockcatch/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliEnv, cli, cliEnv, flexPeople, loginAsAdmin, seedSandbox } from './cli-harness.js';
import { type Sandbox, startSandbox } from './sdk-harness.js';

/** 2 am in Miami (EST, UTC-5): quiet hours until 8 am there. */
const NIGHT = Date.parse('2026-11-26T07:00:00Z');
const UNTIL = '2026-11-26T08:00:00-05:00';

let sandbox: Sandbox;
let env: CliEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ sendRate: 0, quietHours: true }, { messagingClock: () => NIGHT });
  await seedSandbox(sandbox.gateway);
  await insertUsers(
    sandbox.gateway.db,
    flexPeople(2, 7100).map((p) => ({ ...p, human_region: 'Night' })),
  );
  env = cliEnv(sandbox.url);
  await loginAsAdmin(env);
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
});

/** The CLI run from Miami, so its times carry Miami's offset. */
const run = (argv: string[]) => cli(env, argv, { env: { TZ: 'America/New_York' } });

const args = ['send', 'sms', '--audience', 'flex', '--region', 'Night', '--message', 'At dawn'];

describe('a send during quiet hours', () => {
  it('counts who waits and until when, in the dry run, the send and while following it', async () => {
    const dry = await run([...args, '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      waitingForQuietHours: { count: 2, until: UNTIL },
    });

    const sent = await run([...args, '--yes', '--json']);
    expect(sent.code).toBe(0);
    const out = JSON.parse(sent.stdout);
    expect(out).toMatchObject({
      waitingForQuietHours: { count: 2, until: UNTIL },
      replayed: false,
    });

    const again = await run([...args, '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing sent now');
    expect(again.stdout).not.toMatch(/sent successfully/i);

    const waited = await run(['sends', 'show', out.jobId, '--wait', '--timeout', '1s']);
    expect(waited.code).toBe(1);
    // The worker keeps a waiting recipient's next attempt in real time (its pacing's base), so
    // against this fixed messaging clock only the reason and the zone are checked here.
    expect(waited.stderr).toMatch(/waiting: quiet hours until \d{2}:\d{2} in America\/New_York/);
    expect(waited.stderr).toContain('Not done when --timeout 1s ran out');
  }, 60_000);

  it('says in words that the recipients wait for quiet hours to end', async () => {
    const texted = await run([
      'send',
      'sms',
      '--audience',
      'flex',
      '--region',
      'Night',
      '--message',
      'Another dawn text',
      '--yes',
    ]);
    expect(texted.code).toBe(0);
    expect(texted.stdout).toContain('2 wait for quiet hours');
    expect(texted.stdout).toContain(`until ${UNTIL}`);
    expect(texted.stdout).not.toMatch(/sent successfully/i);
  }, 60_000);
});
