// The `blockcatch` command line: every command, flag and example. Only commander is loaded here;
// each action imports its command file when it runs, so `--help` stays fast and Ink and React are
// loaded by the interactive send alone.
import { Command, Option } from 'commander';

/** What an action receives: the command's own flags, its arguments and the global flags. */
export interface Invocation {
  args: string[];
  options: Record<string, unknown>;
  globals: { profile?: string; gateway?: string; lang?: string; verbose?: boolean };
}

type Runner = (invocation: Invocation) => Promise<void>;

/** Runs a lazily imported command, turning whatever it throws into an exit code (errors.ts). */
function lazy(load: () => Promise<Runner>) {
  return async (...params: unknown[]) => {
    const command = params[params.length - 1] as Command;
    const args = params.slice(0, -2).flatMap((a) => (Array.isArray(a) ? a : [a])) as string[];
    const globals = command.optsWithGlobals() as Invocation['globals'];
    const options = command.opts();
    try {
      const runner = await load();
      await runner({ args, options, globals });
    } catch (error) {
      const { reportError } = await import('./errors.js');
      reportError(error, {
        verbose: globals.verbose === true,
        gatewayUrl: globals.gateway ?? process.env.BLOCKCATCH_GATEWAY_URL,
      });
    }
  };
}

function examples(command: Command, lines: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

function triOption(flags: string, what: string): Option {
  return new Option(flags, `${what}: yes, no or all (alone: yes)`);
}

function withAudienceFlags(command: Command): Command {
  return command
    .option('--created-from <day>', 'created on or after this day (YYYY-MM-DD)')
    .option('--created-to <day>', 'created on or before this day (YYYY-MM-DD)')
    .option('--expires-from <day>', 'expiring on or after this day (YYYY-MM-DD)')
    .option('--expires-to <day>', 'expiring on or before this day (YYYY-MM-DD)')
    .addOption(triOption('--good-standing [yes|no|all]', 'in good standing'))
    .addOption(triOption('--proxy-installed [yes|no|all]', 'account connected'))
    .addOption(triOption('--setup-complete [yes|no|all]', 'filters complete'))
    .option('--region <name>', 'Flex region, exactly as shown (Flex only)')
    .option('--referral <code>', 'referral code (needs the billing-details permission)')
    .option('--search <text>', 'name, phone, region or referral contains this text');
}

function withInviteeFlags(command: Command): Command {
  return command
    .option('--invited-from <day>', 'invited on or after this day (YYYY-MM-DD)')
    .option('--invited-to <day>', 'invited on or before this day (YYYY-MM-DD)')
    .addOption(triOption('--registered [yes|no|all]', 'matched to a registered user'))
    .addOption(triOption('--proxy-installed [yes|no|all]', 'account connected'))
    .addOption(triOption('--setup-complete [yes|no|all]', 'filters complete'))
    .option('--search <text>', 'name, phone, region or referral contains this text');
}

function withListOutput(command: Command, defaultOutput: 'table' | 'csv'): Command {
  command
    .option('--json', 'print JSON (shape in cli/README.md)')
    .option('--csv [file]', 'write CSV with a header row to FILE, or to stdout');
  if (defaultOutput === 'table') {
    command
      .option('--page <n>', 'page to show, from 1', '1')
      .option('--rows-per-page <n>', 'rows per page: 20, 40, 60, 80 or 100', '20')
      .option('--all', 'show every row on one table');
  }
  return command;
}

export function buildProgram(): Command {
  const program = new Command()
    .name('blockcatch')
    .description('Catch delivery blocks and message drivers in bulk from a terminal.')
    .version('0.1.0')
    .option('--profile <name>', 'session profile (env BLOCKCATCH_PROFILE)', undefined)
    .option(
      '--gateway <url>',
      'gateway URL (env BLOCKCATCH_GATEWAY_URL; default http://127.0.0.1:8787)',
    )
    .option('--lang <en|es>', 'language of messages (env BLOCKCATCH_LANG)')
    .option('--verbose', 'add detail to error messages (never tokens)')
    .showSuggestionAfterError()
    .showHelpAfterError('(add --help for usage and examples)')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  examples(program, [
    'blockcatch login',
    'blockcatch users list --product flex --good-standing no',
    'blockcatch send sms --audience flex --expires-to 2026-03-31 --message "Renew today" --dry-run',
    'blockcatch --lang es segments "¿Hola?"',
  ]);
  program.addHelpText(
    'after',
    '\nExit codes: 0 ok, 1 failure, 2 usage error. Colour follows NO_COLOR; without a terminal nothing is asked.\n',
  );

  examples(
    program
      .command('login')
      .description('sign in with your phone number and password (SRP)')
      .option('--phone <number>', 'phone number (env BLOCKCATCH_PHONE)')
      .option(
        '--password-stdin',
        'read the password from stdin (env BLOCKCATCH_PASSWORD also works)',
      )
      .action(lazy(async () => (await import('./commands/login.js')).runLogin)),
    [
      'blockcatch login',
      'blockcatch --profile work login --phone 3055550100 --password-stdin < password.txt',
      'BLOCKCATCH_PHONE=3055550100 BLOCKCATCH_PASSWORD=… blockcatch login',
    ],
  );
  examples(
    program
      .command('logout')
      .description('forget the session of this profile')
      .option('--global', 'also end the session on every device')
      .action(lazy(async () => (await import('./commands/logout.js')).runLogout)),
    ['blockcatch logout', 'blockcatch logout --global'],
  );
  examples(
    program
      .command('whoami')
      .description('show the signed-in user')
      .option('--json', 'print JSON')
      .action(lazy(async () => (await import('./commands/whoami.js')).runWhoami)),
    ['blockcatch whoami', 'blockcatch --profile work whoami --json'],
  );

  const users = program.command('users').description('list or export Flex and Spark users');
  for (const [name, output] of [
    ['list', 'table'],
    ['export', 'csv'],
  ] as const) {
    const sub = users
      .command(name)
      .description(name === 'list' ? 'show users as a table' : 'export users as CSV (or --json)')
      .addOption(new Option('--product <product>', 'flex or spark').makeOptionMandatory());
    withListOutput(withAudienceFlags(sub), output).action(
      lazy(
        async () =>
          (await import('./commands/users.js'))[
            name === 'list' ? 'runUsersList' : 'runUsersExport'
          ],
      ),
    );
    examples(
      sub,
      name === 'list'
        ? [
            'blockcatch users list --product flex --region Miami --page 2 --rows-per-page 40',
            'blockcatch users list --product spark --good-standing no --json',
          ]
        : [
            'blockcatch users export --product flex --csv flex-users.csv',
            'blockcatch users export --product spark --expires-to 2026-03-31 > expiring.csv',
          ],
    );
  }

  const invitations = program
    .command('invitations')
    .description('list or export invitees (invitations joined to the users they became)');
  for (const [name, output] of [
    ['list', 'table'],
    ['export', 'csv'],
  ] as const) {
    const sub = invitations
      .command(name)
      .description(
        name === 'list' ? 'show invitees as a table' : 'export invitees as CSV (or --json)',
      );
    withListOutput(withInviteeFlags(sub), output).action(
      lazy(
        async () =>
          (await import('./commands/invitations.js'))[
            name === 'list' ? 'runInvitationsList' : 'runInvitationsExport'
          ],
      ),
    );
    examples(sub, [
      `blockcatch invitations ${name} --registered no --invited-from 2026-01-01`,
      `blockcatch invitations ${name} --proxy-installed --json`,
    ]);
  }

  const send = withAudienceFlags(program.command('send'))
    .description('send an SMS or WhatsApp message to an audience')
    .argument('<channel>', 'sms or whatsapp')
    .requiredOption('--audience <audience>', 'flex, spark or invitees')
    .option('--message <text>', 'the SMS text')
    .option('--message-file <file>', 'read the SMS text from a UTF-8 file')
    .option('--template <name>', 'WhatsApp template name (see: blockcatch templates list)')
    .option('--template-language <code>', 'template language when a name has several, e.g. es')
    .option('--only <csv>', 'send only to the phones of this CSV (a phone column)')
    .option('--exclude <csv>', 'never send to the phones of this CSV (a phone column)')
    .option('--dry-run', 'print recipients, message, encoding and segments; send nothing')
    .option('--yes', 'send without asking (required without a terminal)')
    .option(
      '--key <key>',
      'names this send; the same key resumes it (default: derived from message, recipients and day)',
    )
    .option('--allow-multipart', 'allow an SMS longer than one segment (not for invitees)')
    .option('--batch-size <n>', 'recipients per request (keep it the same when resuming)', '1000')
    .option('--json', 'machine-readable output (shape in cli/README.md)')
    .option('--invited-from <day>', 'invitees: invited on or after this day')
    .option('--invited-to <day>', 'invitees: invited on or before this day')
    .addOption(triOption('--registered [yes|no|all]', 'invitees: matched to a registered user'))
    .action(lazy(async () => (await import('./commands/send.js')).runSend));
  examples(send, [
    'blockcatch send sms --audience flex --good-standing no --message "Your week ends today"',
    'blockcatch send sms --audience invitees --registered no --message-file invite.txt --dry-run --json',
    'blockcatch send whatsapp --audience spark --template renewal --exclude opted-out.csv --yes',
    '0 9 * * *  blockcatch send sms --audience flex --expires-to $(date +%F) --message "Renew" --yes',
  ]);
  send.addHelpText(
    'after',
    '\nOn a terminal you review and confirm the recipients. Without one (cron, CI) nothing is asked:\n--dry-run shows what would be sent, and a real send needs --yes. An interrupted send resumes\nwith the same --key (or, without --key, the same message, recipients and day).\n',
  );

  const templates = program.command('templates').description('WhatsApp templates');
  examples(
    templates
      .command('list')
      .description('list the WhatsApp templates (needs billing details)')
      .option('--json', 'print JSON')
      .action(lazy(async () => (await import('./commands/templates.js')).runTemplatesList)),
    ['blockcatch templates list', 'blockcatch templates list --json'],
  );

  examples(
    program
      .command('segments')
      .description('encoding, segments, units and characters remaining of an SMS text')
      .argument('<text...>', 'the text')
      .option('--json', 'print JSON')
      .action(lazy(async () => (await import('./commands/segments.js')).runSegments)),
    ['blockcatch segments "Your week ends today"', 'blockcatch segments "Precio: 10€" --json'],
  );

  examples(
    program
      .command('outbox')
      .description("what the sandbox's message provider delivered (admins)")
      .option('--to <phone>', 'only messages to this phone')
      .option('--limit <n>', 'at most this many, 1 to 1000', '20')
      .option('--json', 'print JSON')
      .action(lazy(async () => (await import('./commands/outbox.js')).runOutbox)),
    ['blockcatch outbox --limit 5', 'blockcatch outbox --to 3055550123 --json'],
  );

  examples(
    program
      .command('health')
      .description("the gateway's version id and CDN id")
      .option('--json', 'print JSON')
      .action(lazy(async () => (await import('./commands/health.js')).runHealth)),
    ['blockcatch health', 'blockcatch --gateway https://api.example.com health --json'],
  );
  return program;
}
