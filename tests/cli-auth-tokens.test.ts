// Credentials for machines, end to end: an owner creates a token for a cron job (shown once), the
// job sends with BLOCKCATCH_TOKEN and no password, the token's last use shows, a revoked token is
// refused; and a profile's session is never sent to another gateway.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliEnv, cli, cliEnv, loginAsAdmin, seedSandbox } from './cli-harness.js';
import { deliveredTo, type Sandbox, startSandbox } from './sdk-harness.js';

let sandbox: Sandbox;
let env: CliEnv;
let stranger: Server;
let strangerUrl: string;
const strangerSaw: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ sendRate: 0 });
  await seedSandbox(sandbox.gateway);
  env = cliEnv(sandbox.url);
  await loginAsAdmin(env);
  // Another server on this machine: it records what it is sent and answers 401.
  stranger = createServer((req, res) => {
    strangerSaw.push(req.headers);
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 'unauthenticated', message: 'User is not authenticated' }));
  });
  await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
  strangerUrl = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => stranger?.close(resolve));
  await sandbox?.close();
});

describe('a token for a cron job', () => {
  it('is shown once, sends without a password, shows its last use, and is refused once revoked', async () => {
    const created = await cli(env, [
      'auth',
      'token',
      'create',
      '--name',
      'cron',
      '--expires',
      '90d',
    ]);
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^bct_[A-Za-z0-9_-]{56}$/);
    expect(created.stderr).toContain('shown this once');

    // The cron job: its own config folder (no session), the token in its environment.
    const cron = cliEnv(sandbox.url);
    const withToken = { env: { BLOCKCATCH_TOKEN: token } };
    const status = await cli(cron, ['auth', 'status'], withToken);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('with the token in BLOCKCATCH_TOKEN');
    const text = 'Sent by a token';
    const sent = await cli(
      cron,
      ['send', 'sms', '--audience', 'spark', '--search', 'Spark One', '--message', text, '--yes'],
      withToken,
    );
    expect(sent.code).toBe(0);
    expect(await deliveredTo(sandbox, text, 1)).toEqual(['+17865550001']);

    const listed = await cli(env, ['auth', 'token', 'list', '--json']);
    expect(listed.stdout).not.toContain(token.slice(17));
    const cronToken = JSON.parse(listed.stdout).items.find(
      (t: { name: string }) => t.name === 'cron',
    );
    expect(cronToken).toMatchObject({ state: 'active' });
    expect(cronToken.lastUsedAt).toMatch(/T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);

    expect((await cli(env, ['auth', 'token', 'revoke', cronToken.id])).code).toBe(0);
    const refused = await cli(cron, ['auth', 'status'], withToken);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).not.toContain(token);
  });

  it('revokes a token whose id starts with a dash, as ids made before they no longer could', async () => {
    const created = await cli(env, ['auth', 'token', 'create', '--name', 'old', '--json']);
    expect(created.code).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    const dashed = `-${id.slice(1)}`;
    await sandbox.gateway.db.query('UPDATE api_tokens SET id = $2 WHERE id = $1', [id, dashed]);

    const revoked = await cli(env, ['auth', 'token', 'revoke', dashed]);
    expect(revoked.stderr).not.toContain('unknown option');
    expect(revoked.code).toBe(0);
    const listed = JSON.parse((await cli(env, ['auth', 'token', 'list', '--json'])).stdout);
    expect(listed.items.find((t: { id: string }) => t.id === dashed)).toMatchObject({
      state: 'revoked',
    });
  });

  it('refuses a BLOCKCATCH_TOKEN that is not a token with exit 2', async () => {
    const run = await cli(env, ['auth', 'status'], { env: { BLOCKCATCH_TOKEN: 'password123' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('BLOCKCATCH_TOKEN');
  });
});

describe('a saved session', () => {
  it('is never sent to another gateway', async () => {
    const before = strangerSaw.length;
    const run = await cli(env, ['--gateway', strangerUrl, 'whoami']);
    expect(run.code).toBe(1);
    const status = await cli(env, ['--gateway', strangerUrl, 'auth', 'status']);
    expect(status.code).toBe(1);
    expect(status.stderr).toContain(`Not signed in to ${strangerUrl}`);
    expect(strangerSaw.slice(before).map((h) => h.authorization)).toEqual(
      strangerSaw.slice(before).map(() => undefined),
    );
    // And the session for the sandbox is still there.
    expect((await cli(env, ['auth', 'status'])).stdout).toContain(`Signed in to ${sandbox.url}`);
  });
});
