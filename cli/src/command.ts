// How a command is declared: its name, description, arguments and flags (commander's chain, so the
// handler's options are typed by the declaration itself), examples for `--help`, and its handler.
// Only commander and the texts load here; a handler imports what it needs when it runs, so `--help`
// stays fast and Ink and React load for the interactive send alone.
import {
  Command,
  type CommandUnknownOpts,
  Help,
  type OptionValues,
} from '@commander-js/extra-typings';
import { t } from './i18n.js';
import { selfCommand } from './self-command.js';

/** The flags every command takes, declared on the program. */
export function withGlobalFlags(command: Command) {
  return command
    .option('--profile <name>', t('cli.help.profile'))
    .option('--gateway <url>', t('cli.help.gateway'))
    .option('--lang <en|es>', t('cli.help.lang'))
    .option('--verbose', t('cli.help.verbose'));
}

/** The global flags' values, before parseGlobalOptions checks them. */
export type GlobalFlags = OptionsOf<ReturnType<typeof withGlobalFlags>>;

/** What a handler receives: its arguments and flags, typed by its declaration, and the globals. */
export interface Invocation<O = object, A extends unknown[] = unknown[]> {
  args: A;
  options: O;
  globals: GlobalFlags;
  /** The whole command tree, for what describes it (completion scripts). */
  program: CommandUnknownOpts;
}

/** A declared command or group, added to its parent by `attach`. */
export interface Declared {
  attach(parent: CommandUnknownOpts): void;
}

/** No flags: commander's options before any is declared. */
export type NoFlags = Record<never, never>;

/** A command as `flags` receives it: no arguments or flags yet. */
export type Blank = Command<[], NoFlags, NoFlags>;

/** The flags a declaration adds: what `run` receives as `options`. */
export type OptionsOf<C> = C extends Command<unknown[], infer O, OptionValues> ? O : never;

const HELP_TITLES: Record<string, string> = {
  'Usage:': 'cli.help.titles.usage',
  'Arguments:': 'cli.help.titles.arguments',
  'Options:': 'cli.help.titles.options',
  'Commands:': 'cli.help.titles.commands',
  'Global Options:': 'cli.help.titles.globalOptions',
};

/** Help sections titled in the run's language; commander's own words go through here. */
class TranslatedHelp extends Help {
  override styleTitle(str: string): string {
    const key = HELP_TITLES[str];
    return key ? t(key) : str;
  }
}

/** Gives `command` its parent's settings (exit override, output) and help in the run's language. */
export function translated<C extends CommandUnknownOpts>(
  command: C,
  parent?: CommandUnknownOpts,
): C {
  if (parent) command.copyInheritedSettings(parent);
  command.createHelp = () => Object.assign(new TranslatedHelp(), command.configureHelp());
  command.helpOption('-h, --help', t('cli.help.helpOption'));
  return command;
}

/** Examples under `--help`, each written as this run was typed (`npx blockcatch …`). */
export function withExamples<C extends CommandUnknownOpts>(
  command: C,
  lines: readonly string[],
): C {
  if (lines.length === 0) return command;
  const self = selfCommand();
  const shown = lines.map((l) => `  $ ${l.replace(/(^|\s)blockcatch /g, `$1${self} `)}`);
  return command.addHelpText('after', `\n${t('cli.help.examples')}\n${shown.join('\n')}\n`);
}

/** The root's flags, as every handler needs them. */
function globalsOf(command: CommandUnknownOpts): {
  globals: GlobalFlags;
  program: CommandUnknownOpts;
} {
  let root = command;
  while (root.parent) root = root.parent;
  return { globals: root.opts() as GlobalFlags, program: root };
}

export interface CommandSpec<A extends unknown[], O extends OptionValues> {
  name: string;
  /** The description's key in the texts. */
  description: string;
  /** Arguments and flags, declared on the blank command; their types become the handler's. */
  flags?: (command: Blank) => Command<A, O, NoFlags>;
  /** Command lines shown under `--help`, as typed in a shell. */
  examples: readonly string[];
  /** More help after the examples, in the run's language. */
  after?: () => string;
  run(invocation: Invocation<O, A>): Promise<void>;
}

export function defineCommand<A extends unknown[] = [], O extends OptionValues = NoFlags>(
  spec: CommandSpec<A, O>,
): Declared {
  return {
    attach(parent) {
      const blank = translated(new Command(spec.name), parent) as unknown as Blank;
      const command = (spec.flags ? spec.flags(blank) : blank) as unknown as Command<A, O, NoFlags>;
      command.description(t(spec.description));
      withExamples(command, spec.examples);
      if (spec.after) command.addHelpText('after', `\n${spec.after()}\n`);
      command.action(async (...received: unknown[]) => {
        // commander passes the arguments, then the options, then the command itself.
        const args = received.slice(0, -2) as A;
        const options = received.at(-2) as O;
        const invocation = { args, options, ...globalsOf(command as CommandUnknownOpts) };
        try {
          await spec.run(invocation);
        } catch (error) {
          const { reportError } = await import('./errors.js');
          reportError(error, {
            verbose: invocation.globals.verbose === true,
            gatewayUrl: invocation.globals.gateway ?? process.env.BLOCKCATCH_GATEWAY_URL,
          });
        }
      });
      parent.addCommand(command as CommandUnknownOpts);
    },
  };
}

/** A command that only holds others (`users list`, `users export`). */
export function defineGroup(spec: {
  name: string;
  description: string;
  commands: readonly Declared[];
}): Declared {
  return {
    attach(parent) {
      const group = translated(new Command(spec.name), parent).description(t(spec.description));
      parent.addCommand(group);
      for (const command of spec.commands) command.attach(group);
    },
  };
}
