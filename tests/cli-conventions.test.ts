// What a shell user expects of a command line: completion scripts for bash, zsh and fish that
// complete the commands and flags the CLI really has; the system locale picking Spanish; and a
// cron example in --help that works pasted into a crontab.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAbsolute } from 'node:path';
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
