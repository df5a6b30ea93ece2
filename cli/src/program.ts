// The `blockcatch` command line: the global flags, the examples of the whole, and every command in
// the order `--help` lists them. Each command file declares its own flags, examples and handler
// (command.ts); only commander and the texts load until a handler runs.
import { Command } from '@commander-js/extra-typings';
import { translated, withExamples, withGlobalFlags } from './command.js';
import { auth } from './commands/auth.js';
import { completion } from './commands/completion.js';
import { health } from './commands/health.js';
import { invitations } from './commands/invitations.js';
import { login } from './commands/login.js';
import { logout } from './commands/logout.js';
import { outbox } from './commands/outbox.js';
import { segments } from './commands/segments.js';
import { send } from './commands/send/send.js';
import { sends } from './commands/send/sends.js';
import { templates } from './commands/templates.js';
import { users } from './commands/users.js';
import { whoami } from './commands/whoami.js';
import { t } from './i18n.js';

const COMMANDS = [
  login,
  logout,
  whoami,
  completion,
  auth,
  users,
  invitations,
  send,
  templates,
  segments,
  outbox,
  sends,
  health,
];

export function buildProgram() {
  const program = translated(
    withGlobalFlags(
      new Command()
        .name('blockcatch')
        .description(t('cli.help.program'))
        .version('0.1.0', '-V, --version', t('cli.help.version')),
    )
      .helpCommand('help [command]', t('cli.help.helpCommand'))
      .showSuggestionAfterError()
      .exitOverride()
      // main.ts writes commander's errors as one translated line; its help and version go to stdout.
      .configureOutput({ outputError: () => {} }),
  );
  withExamples(program, [
    'blockcatch login',
    'blockcatch users list --product flex --good-standing no',
    'blockcatch send sms --audience flex --expires-to 2026-03-31 --message "Renew today" --dry-run',
    'blockcatch --lang es segments "¿Hola?"',
  ]);
  program.addHelpText('after', `\n${t('cli.help.exitCodes')}\n`);
  for (const command of COMMANDS) command.attach(program);
  return program;
}
