// Every command declares what `--help` teaches: a description, and examples to copy; and what a
// handler receives is what its declaration says, arguments and flags alike.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { defineCommand, defineGroup } from './command.js';
import { chooseLanguage } from './i18n.js';
import { buildProgram } from './program.js';

chooseLanguage('en');

function leaves(command: CommandUnknownOpts, path: string[] = []): [string, CommandUnknownOpts][] {
  const subcommands = command.commands.filter((c) => c.name() !== 'help');
  if (subcommands.length === 0) return [[path.join(' '), command]];
  return subcommands.flatMap((c) => leaves(c, [...path, c.name()]));
}

function helpOf(command: CommandUnknownOpts): string {
  let text = '';
  command.configureOutput({ writeOut: (s) => (text += s) });
  command.outputHelp();
  return text;
}

describe('the command tree', () => {
  const commands = leaves(buildProgram() as unknown as CommandUnknownOpts);

  it('has every command', () => {
    expect(commands.map(([path]) => path)).toEqual([
      'login',
      'logout',
      'whoami',
      'completion',
      'auth status',
      'auth token create',
      'auth token list',
      'auth token revoke',
      'users list',
      'users export',
      'invitations list',
      'invitations export',
      'send',
      'templates list',
      'segments',
      'outbox',
      'sends list',
      'sends show',
      'sends cancel',
      'health',
    ]);
  });

  it.each(commands)('%s has a description and examples in its help', (_path, command) => {
    const help = helpOf(command);
    expect(command.description()).not.toBe('');
    expect(help).toContain('Examples:');
    expect(help).toMatch(/^ {2}\$ \S/m);
  });
});

describe('defineCommand', () => {
  it('hands the handler the arguments and flags it declared, and the globals', async () => {
    const seen: unknown[] = [];
    const program = buildProgram();
    defineGroup({
      name: 'probe',
      description: 'cli.help.health',
      commands: [
        defineCommand({
          name: 'run',
          description: 'cli.help.health',
          flags: (c) =>
            c
              .argument('<id>', 'an id')
              .option('--limit <n>', 'a limit')
              .option('--var <v>', 'repeatable', (v, all: string[]) => [...all, v], []),
          examples: ['blockcatch probe run 3f2a --limit 5'],
          async run({ args, options, globals }) {
            const [id] = args;
            const limit: string | undefined = options.limit;
            seen.push(id, limit, options.var, globals.profile);
          },
        }),
      ],
    }).attach(program as unknown as CommandUnknownOpts);
    await program.parseAsync(
      ['--profile', 'work', 'probe', 'run', '3f2a', '--limit', '5', '--var', 'a', '--var', 'b'],
      { from: 'user' },
    );
    expect(seen).toEqual(['3f2a', '5', ['a', 'b'], 'work']);
  });
});
