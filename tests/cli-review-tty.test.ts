// The interactive review on a real terminal (a pseudo-terminal from `script`): Ctrl-C there ends
// the run with exit 130 and nothing sent, as it does everywhere else; deselecting someone in the
// review after an earlier run keeps the same job, so nobody is texted twice; and at 80 and 100
// columns the review keeps names, phones and headers whole, leaving the least telling columns out.
import { spawn } from 'node:child_process';
import { insertUsers } from '@blockcatch/gateway/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, type CliEnv, cliEnv, loginAsAdmin, seedSandbox } from './cli-harness.js';
import { deliveredTo, type Sandbox, startSandbox } from './sdk-harness.js';
import { eventually } from './support/eventually.js';

let sandbox: Sandbox;
let env: CliEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ sendRate: 0 });
  await seedSandbox(sandbox.gateway);
  await insertUsers(
    sandbox.gateway.db,
    LONG_NAMES.map((name, i) => ({
      product: 'flex' as const,
      phone_number: `+130555590${String(i).padStart(2, '0')}`,
      name,
      human_region: 'Key West',
      good_standing: true,
      proxy_installed: true,
      setup_complete: false,
      referral: 'KEYWEST2026',
      status: 'start' as const,
    })),
  );
  env = cliEnv(sandbox.url);
  await loginAsAdmin(env);
}, 60_000);

// A run a failed test left waiting (a key it never read) ends with its test, not long after.
const running = new Set<ReturnType<typeof spawn>>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

afterAll(async () => {
  await sandbox?.close();
});

const LONG_NAMES = ['Patricia Montenegro', 'Alejandro Villanueva'];

/**
 * The CLI under `script`, which gives it a terminal; `script -e` exits with the CLI's code. With a
 * size, the terminal is set to it first (a pseudo-terminal starts at 0 by 0), and the shell then
 * becomes the CLI, so keys and signals reach it as they would from a terminal.
 */
function onTerminal(args: string[], size?: { columns: number; rows: number }) {
  const cli = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
  const command = size ? `stty cols ${size.columns} rows ${size.rows}; exec ${cli}` : cli;
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
  running.add(child);
  let screen = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    screen += d;
  });
  const done = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, screen: () => screen, done };
}

describe('the review on a terminal', () => {
  // Alone, and with an Enter still unread (a fast typist, a busy machine): then both arrive at once.
  for (const [keys, how] of [
    ['\u0003', 'alone'],
    ['\r\u0003', 'read together with an Enter'],
  ] as const) {
    it(`exits 130 on Ctrl-C ${how} and sends nothing`, async () => {
      const text = `Never sent: Ctrl-C ${how} in the review`;
      const run = onTerminal(['send', 'sms', '--audience', 'spark', '--message', text]);
      await eventually(() => expect(run.screen()).toContain('Enter: review recipients'));
      // Ink binds its keys a moment after the first frame: Enter until the review answers.
      await eventually(() => {
        if (!run.screen().includes('selected')) run.child.stdin.write('\r');
        expect(run.screen()).toContain('selected');
      });
      run.child.stdin.write(keys);
      expect(await run.done).toBe(130);
      expect(run.screen()).toContain('nothing was sent');
      expect(await deliveredTo(sandbox, text, 0)).toEqual([]);
    }, 60_000);
  }

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

/** The screen's lines as a person sees them: escape sequences gone, one entry per line. */
function screenLines(screen: string): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escapes are what is removed
  return screen.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n|\r/);
}

describe('the review fitted to the terminal', () => {
  for (const { columns, header, left, hidden } of [
    {
      columns: 80,
      header: ['Name', 'Phone', 'Good standing', 'Expiration date', 'Status'],
      left: ['Region', 'Referral', 'Account connected', 'Filters complete'],
      hidden: '4 columns left out',
    },
    {
      columns: 100,
      header: ['Name', 'Phone', 'Region', 'Good standing', 'Expiration date', 'Status'],
      left: ['Referral', 'Account connected', 'Filters complete'],
      hidden: '3 columns left out',
    },
  ]) {
    it(`keeps names, phones and headers whole at ${columns} columns`, async () => {
      const run = onTerminal(
        ['send', 'sms', '--audience', 'flex', '--region', 'Key West', '--message', 'Fitted'],
        { columns, rows: 40 },
      );
      await eventually(() => expect(run.screen()).toContain('Enter: review recipients'));
      await eventually(() => {
        if (!run.screen().includes('2 selected')) run.child.stdin.write('\r');
        expect(screenLines(run.screen()).some((l) => l.includes(hidden))).toBe(true);
      });
      const lines = screenLines(run.screen());
      const start = lines.findLastIndex((l) => l.includes('2 selected'));
      const review = lines.slice(start);
      for (const line of review) expect([...line].length).toBeLessThanOrEqual(columns);
      const head = review.find((l) => l.includes('Phone'))!;
      for (const title of header) expect(head).toContain(title);
      for (const title of left) expect(head).not.toContain(title);
      expect(head).not.toContain('…');
      for (const [i, name] of LONG_NAMES.entries()) {
        const row = review.find((l) => l.includes(name) && l.includes('[x]'));
        expect(row).toContain(`+1 (305) 555-90${String(i).padStart(2, '0')}`);
      }
      // The layout is what this test is about (Ctrl-C is the first test's): end the terminal.
      run.child.kill();
      await run.done;
    }, 60_000);
  }
});
