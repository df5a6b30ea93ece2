// The interactive review on a real terminal (a pseudo-terminal from `script`): Ctrl-C there ends
// the run with exit 130 and nothing sent, as it does everywhere else; and deselecting someone in
// the review after an earlier run keeps the same job, so nobody is texted twice.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, type CliEnv, cliEnv, loginAsAdmin, seedSandbox } from './cli-harness.js';
import { deliveredTo, type Sandbox, startSandbox } from './sdk-harness.js';
import { eventually } from './support/eventually.js';

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

/** The CLI under `script`, which gives it a terminal; `script -e` exits with the CLI's code. */
function onTerminal(args: string[]) {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(environment)) {
    if (name.startsWith('BLOCKCATCH_') || name.startsWith('npm_')) delete environment[name];
  }
  delete environment.CI;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: {
      ...environment,
      XDG_CONFIG_HOME: env.configHome,
      BLOCKCATCH_GATEWAY_URL: env.gatewayUrl,
      NO_COLOR: '1',
      LANG: 'C.UTF-8',
      COLUMNS: '120',
      LINES: '40',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    screen += d;
  });
  const done = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, screen: () => screen, done };
}

describe('the review on a terminal', () => {
  it('exits 130 on Ctrl-C and sends nothing', async () => {
    const text = 'Never sent: Ctrl-C in the review';
    const run = onTerminal(['send', 'sms', '--audience', 'spark', '--message', text]);
    await eventually(() => expect(run.screen()).toContain('Enter: review recipients'));
    // Ink binds its keys a moment after the first frame: Enter until the review answers.
    await eventually(() => {
      if (!run.screen().includes('selected')) run.child.stdin.write('\r');
      expect(run.screen()).toContain('selected');
    });
    run.child.stdin.write('\u0003');
    expect(await run.done).toBe(130);
    expect(run.screen()).toContain('nothing was sent');
    expect(await deliveredTo(sandbox, text, 0)).toEqual([]);
  }, 60_000);

  it('keeps the job when a row is deselected after an earlier run: nobody gets the text twice', async () => {
    const text = 'Review after an earlier run';
    const args = ['send', 'sms', '--audience', 'spark', '--message', text];
    const first = onTerminal([...args, '--yes']);
    expect(await first.done).toBe(0);
    expect(await deliveredTo(sandbox, text, 2)).toHaveLength(2);

    const run = onTerminal(args);
    await eventually(() => expect(run.screen()).toContain('Enter: review recipients'));
    await eventually(() => {
      if (!run.screen().includes('2 selected')) run.child.stdin.write('\r');
      expect(run.screen()).toContain('2 selected');
    });
    run.child.stdin.write(' ');
    await eventually(() => expect(run.screen()).toContain('1 selected'));
    run.child.stdin.write('s');
    await eventually(() => expect(run.screen()).toContain('Are you sure'));
    run.child.stdin.write('y');
    expect(await run.done).toBe(0);
    expect(run.screen()).toContain('nothing sent now');
    const to = await deliveredTo(sandbox, text, 2);
    expect(to).toEqual(['+17865550001', '+17865550002']);
  }, 60_000);
});
