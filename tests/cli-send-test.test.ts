// `blockcatch send … --test`: the message, rendered for the audience's first recipient, goes to the
// signed-in admin's own phone only, with no --yes and no send job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliEnv, cli, cliEnv, loginAsAdmin, seedSandbox } from './cli-harness.js';
import { ADMIN, type Sandbox, startSandbox } from './sdk-harness.js';

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

const miami = ['send', 'sms', '--audience', 'flex', '--region', 'Miami'];

async function outbox() {
  return sandbox.gateway.db.query<{ to_number: string; body: string; job_id: string | null }>(
    'SELECT to_number, body, job_id FROM outbox_messages ORDER BY id',
  );
}

describe('send --test', () => {
  it('texts only the signed-in admin, makes no job, and needs no --yes', async () => {
    const before = (await outbox()).length;
    const run = await cli(env, [...miami, '--message', 'Only for me', '--test']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Test sent to your phone (${ADMIN.phone})`);
    expect(run.stdout).toContain('Only for me');
    expect((await outbox()).slice(before)).toEqual([
      { to_number: ADMIN.phone, body: 'Only for me', job_id: null },
    ]);
    const [jobs] = await sandbox.gateway.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM send_jobs',
    );
    expect(jobs!.n).toBe(0);
  });

  it('prints the result as JSON with --json, marked as a test', async () => {
    const run = await cli(env, [...miami, '--message', 'Json test', '--test', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      to: ADMIN.phone,
      text: 'Json test',
      test: true,
    });
  });

  it('refuses --test with --dry-run as a usage error, sending nothing', async () => {
    const before = (await outbox()).length;
    const run = await cli(env, [...miami, '--message', 'x', '--test', '--dry-run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--test and --dry-run do not go together');
    expect((await outbox()).length).toBe(before);
  });
});
