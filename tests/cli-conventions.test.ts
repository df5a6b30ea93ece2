// What a shell user expects of a command line: completion scripts for bash, zsh and fish that
// complete the commands and flags the CLI really has; the system locale picking Spanish; and a
// cron example in --help that works pasted into a crontab; and `--help` that reads no more than
// commander and the texts, so it answers at once.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cli, cliEnv, startCli } from './cli-harness.js';
import { eventually } from './support/eventually.js';

// Nothing here talks to a gateway.
const env = cliEnv('http://127.0.0.1:9');

/** What bash completes after these words, with the generated script loaded. */
function bashCompletes(...words: string[]): string[] {
  const script = `eval "$("${process.execPath}" "${CLI}" completion bash)"
COMP_WORDS=(blockcatch ${words.map((w) => `'${w}'`).join(' ')})
COMP_CWORD=${words.length}
_blockcatch
printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', script], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('blockcatch completion', () => {
  it('completes commands, subcommands and their flags in bash', () => {
    expect(bashCompletes('se')).toEqual(['send', 'segments', 'sends']);
    expect(bashCompletes('sends', 'show', '3f2a', '--t')).toEqual(['--timeout']);
    expect(bashCompletes('auth', 'token', '')).toEqual(['create', 'list', 'revoke', '--help']);
    expect(bashCompletes('send', 'sms', '--v')).toEqual(['--var']);
  });

  it('prints zsh and fish scripts, and refuses another shell with exit 2', async () => {
    const zsh = await cli(env, ['completion', 'zsh']);
    expect(zsh.stdout).toContain('#compdef blockcatch');
    expect(zsh.stdout).toContain('bashcompinit');
    const fish = await cli(env, ['completion', 'fish']);
    expect(fish.stdout).toContain(
      "complete -c blockcatch -f -n '__fish_seen_subcommand_from token' -a 'create list revoke'",
    );
    expect(fish.stdout).toContain(
      "complete -c blockcatch -n '__fish_seen_subcommand_from send' -l dry-run",
    );
    const other = await cli(env, ['completion', 'tcsh']);
    expect(other.code).toBe(2);
  });
});

describe('the language', () => {
  it('follows LANG=es_* unless --lang or BLOCKCATCH_LANG says otherwise', async () => {
    const spanish = await cli(env, ['users', 'lst'], { env: { LANG: 'es_MX.UTF-8' } });
    expect(spanish.code).toBe(2);
    expect(spanish.stderr).toContain('comando desconocido lst');
    const english = await cli(env, ['users', 'lst'], {
      env: { LANG: 'es_MX.UTF-8', BLOCKCATCH_LANG: 'en' },
    });
    expect(english.stderr).toContain('unknown command lst');
    const estonian = await cli(env, ['users', 'lst'], { env: { LANG: 'et_EE.UTF-8' } });
    expect(estonian.stderr).toContain('unknown command lst');
  });
});

describe('the cron example in send --help', () => {
  it('escapes % for cron and names the command by an absolute path that exists', async () => {
    const help = await cli(env, ['send', '--help']);
    const line = help.stdout.split('\n').find((l) => /^\s*0 9 \* \* \* /.test(l));
    expect(line).toBeDefined();
    // cron ends the command at an unescaped %: every % must be \%.
    expect(line!.replace(/\\%/g, '')).not.toContain('%');
    expect(line).toContain('$(date +\\%F)');
    const command = line!.trim().split(/\s+/).slice(5);
    const program = command[0]!;
    expect(isAbsolute(program)).toBe(true);
    expect(existsSync(program)).toBe(true);
    if (program === process.execPath) {
      expect(isAbsolute(command[1]!)).toBe(true);
      expect(existsSync(command[1]!)).toBe(true);
    }
  });
});

describe('Ctrl-C', () => {
  it('exits 130 from any command, saying it was interrupted', async () => {
    // A gateway that takes the request and never answers.
    const seen: string[] = [];
    const hanging = createServer((req) => {
      seen.push(req.url ?? '');
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
      const { child, done } = startCli(cliEnv(url), ['health']);
      await eventually(() => expect(seen).toHaveLength(1));
      child.kill('SIGINT');
      const run = await done;
      expect(run.code).toBe(130);
      expect(run.stderr).toContain('Interrupted');
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });
});

/** The modules a run of the built CLI resolves, as recorded by a module-resolution hook. */
function modulesLoadedBy(args: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'blockcatch-loads-'));
  const log = join(dir, 'loaded.txt');
  writeFileSync(log, '');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
  );
  execFileSync(process.execPath, ['--import', join(dir, 'register.mjs'), CLI, ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

describe('--help', () => {
  it.each([[['--help']], [['users', 'list', '--help']], [['send', '--help']]])(
    '%j loads neither the SDK, zod, Ink nor React',
    (args) => {
      const loaded = modulesLoadedBy(args);
      expect(loaded.some((url) => url.includes('commander'))).toBe(true);
      const heavy = loaded.filter((url) =>
        /\/(sdk\/dist|node_modules\/(zod|ink|react|undici))\//.test(url),
      );
      expect(heavy).toEqual([]);
    },
  );
});
