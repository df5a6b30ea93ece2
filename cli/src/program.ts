// The `blockcatch` command line: every command, flag and example, typed end to end with
// @commander-js/extra-typings, every text in the run's language. Only commander is loaded here;
// each action imports its command file when it runs, so `--help` stays fast and Ink and React are
// loaded by the interactive send alone.
import {
  Command,
  type CommandUnknownOpts,
  Help,
  Option,
  type OptionValues,
} from '@commander-js/extra-typings';
import { t } from './i18n.js';
import { absoluteCommand, selfCommand } from './self-command.js';

/** The flags every command takes, before parseGlobalOptions checks them. */
export interface GlobalFlags {
  profile?: string | undefined;
  gateway?: string | undefined;
  lang?: string | undefined;
  verbose?: true | undefined;
}

/** What an action receives: its arguments, its own flags (typed by its declaration) and the globals. */
export interface Invocation<O = object> {
  args: string[];
  options: O;
  globals: GlobalFlags;
}

type Runner<O> = (invocation: Invocation<O>) => Promise<void>;

/** Runs a lazily imported command, turning whatever it throws into an exit code (errors.ts). */
async function run<O>(load: () => Promise<Runner<O>>, invocation: Invocation<O>): Promise<void> {
  try {
    const runner = await load();
    await runner(invocation);
  } catch (error) {
    const { reportError } = await import('./errors.js');
    reportError(error, {
      verbose: invocation.globals.verbose === true,
      gatewayUrl: invocation.globals.gateway ?? process.env.BLOCKCATCH_GATEWAY_URL,
    });
  }
}

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

function translated<C extends CommandUnknownOpts>(command: C): C {
  command.createHelp = () => Object.assign(new TranslatedHelp(), command.configureHelp());
  command.helpOption('-h, --help', t('cli.help.helpOption'));
  return command;
}

function examples<C extends CommandUnknownOpts>(command: C, lines: string[]): C {
  const self = selfCommand();
  const shown = lines.map((l) => `  $ ${l.replace(/(^|\s)blockcatch /g, `$1${self} `)}`);
  return command.addHelpText('after', `\n${t('cli.help.examples')}\n${shown.join('\n')}\n`);
}

/** Each `--var` adds to the list. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A crontab line that works pasted as it is: an absolute command, and `%` escaped as cron needs. */
export function cronExample(command = absoluteCommand()): string {
  return `0 9 * * * ${command} send sms --audience flex --expires-to $(date +\\%F) --message "Renew today" --yes >> $HOME/blockcatch.log 2>&1`;
}

function triOption<F extends string>(flags: F, what: string) {
  return new Option(flags, t('cli.help.tri', { what }));
}

function withAudienceFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) {
  return command
    .option('--created-from <day>', t('cli.help.createdFrom'))
    .option('--created-to <day>', t('cli.help.createdTo'))
    .option('--expires-from <day>', t('cli.help.expiresFrom'))
    .option('--expires-to <day>', t('cli.help.expiresTo'))
    .addOption(triOption('--good-standing [yes|no|all]', t('cli.help.goodStanding')))
    .addOption(triOption('--proxy-installed [yes|no|all]', t('cli.help.proxyInstalled')))
    .addOption(triOption('--setup-complete [yes|no|all]', t('cli.help.setupComplete')))
    .option('--region <name>', t('cli.help.region'))
    .option('--referral <code>', t('cli.help.referral'))
    .option('--search <text>', t('cli.help.search'));
}

function withInviteeFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) {
  return command
    .option('--invited-from <day>', t('cli.help.invitedFrom'))
    .option('--invited-to <day>', t('cli.help.invitedTo'))
    .addOption(triOption('--registered [yes|no|all]', t('cli.help.registered')))
    .addOption(triOption('--proxy-installed [yes|no|all]', t('cli.help.proxyInstalled')))
    .addOption(triOption('--setup-complete [yes|no|all]', t('cli.help.setupComplete')))
    .option('--search <text>', t('cli.help.search'));
}

function withListOutput<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) {
  return command
    .option('--json [fields]', t('cli.help.json'))
    .option('--csv [file]', t('cli.help.csv'));
}

function withTableOutput<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) {
  return withListOutput(command)
    .option('--page <n>', t('cli.help.page'))
    .option('--rows-per-page <n>', t('cli.help.rowsPerPage'))
    .option('--all', t('cli.help.all'))
    .option('--wide', t('cli.help.wide'));
}

export function buildProgram() {
  const program = translated(
    new Command()
      .name('blockcatch')
      .description(t('cli.help.program'))
      .version('0.1.0', '-V, --version', t('cli.help.version'))
      .option('--profile <name>', t('cli.help.profile'))
      .option('--gateway <url>', t('cli.help.gateway'))
      .option('--lang <en|es>', t('cli.help.lang'))
      .option('--verbose', t('cli.help.verbose'))
      .helpCommand('help [command]', t('cli.help.helpCommand'))
      .showSuggestionAfterError()
      .exitOverride()
      // main.ts writes commander's errors as one translated line; its help and version go to stdout.
      .configureOutput({ outputError: () => {} }),
  );
  const globals = (): GlobalFlags => program.opts();
  const command = (name: string) => translated(program.command(name));

  examples(program, [
    'blockcatch login',
    'blockcatch users list --product flex --good-standing no',
    'blockcatch send sms --audience flex --expires-to 2026-03-31 --message "Renew today" --dry-run',
    'blockcatch --lang es segments "¿Hola?"',
  ]);
  program.addHelpText('after', `\n${t('cli.help.exitCodes')}\n`);

  examples(
    command('login')
      .description(t('cli.help.login'))
      .option('--phone <number>', t('cli.help.phone'))
      .option('--password-stdin', t('cli.help.passwordStdin'))
      .action((options) =>
        run(async () => (await import('./commands/login.js')).runLogin, {
          args: [],
          options,
          globals: globals(),
        }),
      ),
    [
      'blockcatch login',
      'blockcatch --profile work login --phone 3055550100 --password-stdin < password.txt',
      'BLOCKCATCH_PHONE=3055550100 BLOCKCATCH_PASSWORD=… blockcatch login',
    ],
  );
  examples(
    command('logout')
      .description(t('cli.help.logout'))
      .option('--global', t('cli.help.logoutGlobal'))
      .action((options) =>
        run(async () => (await import('./commands/logout.js')).runLogout, {
          args: [],
          options,
          globals: globals(),
        }),
      ),
    ['blockcatch logout', 'blockcatch logout --global'],
  );
  examples(
    command('whoami')
      .description(t('cli.help.whoami'))
      .option('--json', t('cli.help.jsonPlain'))
      .action((options) =>
        run(async () => (await import('./commands/whoami.js')).runWhoami, {
          args: [],
          options,
          globals: globals(),
        }),
      ),
    ['blockcatch whoami', 'blockcatch --profile work whoami --json'],
  );

  examples(
    command('completion')
      .description(t('cli.help.completion'))
      .argument('<shell>', t('cli.help.completionShell'))
      .action((shell) =>
        run(async () => (await import('./commands/completion.js')).runCompletion, {
          args: [shell],
          options: {},
          globals: globals(),
        }),
      ),
    [
      'eval "$(blockcatch completion bash)"   # in ~/.bashrc',
      'blockcatch completion fish > ~/.config/fish/completions/blockcatch.fish',
    ],
  );

  const auth = translated(command('auth').description(t('cli.help.auth')));
  examples(
    translated(auth.command('status'))
      .description(t('cli.help.authStatus'))
      .option('--json', t('cli.help.jsonPlain'))
      .action((options) =>
        run(async () => (await import('./commands/auth.js')).runAuthStatus, {
          args: [],
          options,
          globals: globals(),
        }),
      ),
    ['blockcatch auth status', 'BLOCKCATCH_TOKEN=bct_… blockcatch auth status --json'],
  );
  const tokens = translated(auth.command('token').description(t('cli.help.authToken')));
  examples(
    translated(tokens.command('create'))
      .description(t('cli.help.tokenCreate'))
      .requiredOption('--name <name>', t('cli.help.tokenName'))
      .option('--expires <duration>', t('cli.help.tokenExpires'))
      .option('--json', t('cli.help.jsonPlain'))
      .action((options) =>
        run(async () => (await import('./commands/auth.js')).runTokenCreate, {
          args: [],
          options,
          globals: globals(),
        }),
      ),
    ['blockcatch auth token create --name cron --expires 90d'],
  );
  examples(
    translated(tokens.command('list'))
      .description(t('cli.help.tokenList'))
      .option('--json', t('cli.help.jsonPlain'))
      .action((options) =>
        run(async () => (await import('./commands/auth.js')).runTokenList, {
          args: [],
          options,
          globals: globals(),
        }),
      ),
    ['blockcatch auth token list', 'blockcatch auth token list --json'],
  );
  examples(
    translated(tokens.command('revoke'))
      .description(t('cli.help.tokenRevoke'))
      .argument('<id>', t('cli.help.tokenId'))
      .action((id) =>
        run(async () => (await import('./commands/auth.js')).runTokenRevoke, {
          args: [id],
          options: {},
          globals: globals(),
        }),
      ),
    ['blockcatch auth token revoke Xb3kq9LmT0aZ'],
  );

  const users = translated(command('users').description(t('cli.help.users')));
  const product = () =>
    new Option('--product <product>', t('cli.help.product')).makeOptionMandatory();
  examples(
    withTableOutput(
      withAudienceFlags(
        translated(users.command('list')).description(t('cli.help.usersList')).addOption(product()),
      ),
    ).action((options) =>
      run(async () => (await import('./commands/users.js')).runUsersList, {
        args: [],
        options,
        globals: globals(),
      }),
    ),
    [
      'blockcatch users list --product flex --region miami --page 2 --rows-per-page 40',
      'blockcatch users list --product flex --search 555-0105 --wide',
      'blockcatch users list --product spark --good-standing no --json',
    ],
  );
  examples(
    withListOutput(
      withAudienceFlags(
        translated(users.command('export'))
          .description(t('cli.help.usersExport'))
          .addOption(product()),
      ),
    ).action((options) =>
      run(async () => (await import('./commands/users.js')).runUsersExport, {
        args: [],
        options,
        globals: globals(),
      }),
    ),
    [
      'blockcatch users export --product flex --csv flex-users.csv',
      'blockcatch users export --product spark --expires-to 2026-03-31 > expiring.csv',
    ],
  );

  const invitations = translated(command('invitations').description(t('cli.help.invitations')));
  examples(
    withTableOutput(
      withInviteeFlags(
        translated(invitations.command('list')).description(t('cli.help.invitationsList')),
      ),
    ).action((options) =>
      run(async () => (await import('./commands/invitations.js')).runInvitationsList, {
        args: [],
        options,
        globals: globals(),
      }),
    ),
    [
      'blockcatch invitations list --registered no --invited-from 2026-01-01',
      'blockcatch invitations list --proxy-installed --json',
    ],
  );
  examples(
    withListOutput(
      withInviteeFlags(
        translated(invitations.command('export')).description(t('cli.help.invitationsExport')),
      ),
    ).action((options) =>
      run(async () => (await import('./commands/invitations.js')).runInvitationsExport, {
        args: [],
        options,
        globals: globals(),
      }),
    ),
    [
      'blockcatch invitations export --registered no --csv unpaid.csv',
      'blockcatch invitations export --proxy-installed --json',
    ],
  );

  const send = withAudienceFlags(command('send'))
    .description(t('cli.help.send'))
    .argument('<channel>', t('cli.help.channel'))
    .requiredOption('--audience <audience>', t('cli.help.audience'))
    .option('--message <text>', t('cli.help.message'))
    .option('--message-file <file>', t('cli.help.messageFile'))
    .option('--template <name>', t('cli.help.template'))
    .option('--template-language <code>', t('cli.help.templateLanguage'))
    .option('--var <name=value>', t('cli.help.var'), collect, [] as string[])
    .option('--only <csv>', t('cli.help.only'))
    .option('--exclude <csv>', t('cli.help.exclude'))
    .option('--dry-run', t('cli.help.dryRun'))
    .option('--test', t('cli.help.test'))
    .option('--yes', t('cli.help.yes'))
    .option('--at <datetime>', t('cli.help.at'))
    .option('--wait', t('cli.help.wait'))
    .option('--timeout <duration>', t('cli.help.sendsTimeout'))
    .option('--key <key>', t('cli.help.key'))
    .option('--allow-multipart', t('cli.help.allowMultipart'))
    .option('--batch-size <n>', t('cli.help.batchSize'))
    .option('--json', t('cli.help.sendJson'))
    .option('--invited-from <day>', t('cli.help.sendInvitedFrom'))
    .option('--invited-to <day>', t('cli.help.sendInvitedTo'))
    .addOption(triOption('--registered [yes|no|all]', t('cli.help.sendRegistered')))
    .action((channel, options) =>
      run(async () => (await import('./commands/send.js')).runSend, {
        args: [channel],
        options,
        globals: globals(),
      }),
    );
  examples(send, [
    'blockcatch send sms --audience flex --good-standing no --message "Your week ends today"',
    'blockcatch send sms --audience invitees --registered no --message-file invite.txt --dry-run --json',
    'blockcatch send whatsapp --audience spark --template service_expiring --template-language es_MX --var week=1 --exclude opted-out.csv --yes',
    'fortune | blockcatch send sms --audience flex --message-file - --allow-multipart --dry-run',
  ]);
  send.addHelpText('after', `\n${t('cli.help.sendAfter')}\n  ${cronExample()}\n`);

  const templates = translated(command('templates').description(t('cli.help.templates')));
  examples(
    translated(templates.command('list'))
      .description(t('cli.help.templatesList'))
      .option('--json', t('cli.help.jsonPlain'))
      .action((options) =>
        run(async () => (await import('./commands/templates.js')).runTemplatesList, {
          args: [],
          options,
          globals: globals(),
        }),
      ),
    ['blockcatch templates list', 'blockcatch templates list --json'],
  );

  examples(
    command('segments')
      .description(t('cli.help.segments'))
      .argument('<text...>', t('cli.help.segmentsText'))
      .option('--json', t('cli.help.jsonPlain'))
      .action((text, options) =>
        run(async () => (await import('./commands/segments.js')).runSegments, {
          args: text,
          options,
          globals: globals(),
        }),
      ),
    ['blockcatch segments "Your week ends today"', 'blockcatch segments "Precio: 10€" --json'],
  );

  examples(
    command('outbox')
      .description(t('cli.help.outbox'))
      .option('--to <phone>', t('cli.help.outboxTo'))
      .option('--limit <n>', t('cli.help.outboxLimit'))
      .option('--json', t('cli.help.jsonPlain'))
      .action((options) =>
        run(async () => (await import('./commands/outbox.js')).runOutbox, {
          args: [],
          options,
          globals: globals(),
        }),
      ),
    ['blockcatch outbox --limit 5', 'blockcatch outbox --to 3055550123 --json'],
  );

  const sends = translated(command('sends').description(t('cli.help.sends')));
  examples(
    translated(sends.command('list'))
      .description(t('cli.help.sendsList'))
      .option('--limit <n>', t('cli.help.sendsLimit'))
      .option('--key <key>', t('cli.help.sendsKey'))
      .option('--json', t('cli.help.jsonPlain'))
      .action((options) =>
        run(async () => (await import('./commands/sends.js')).runSendsList, {
          args: [],
          options,
          globals: globals(),
        }),
      ),
    [
      'blockcatch sends list',
      'blockcatch sends list --limit 5 --json',
      'blockcatch sends list --key nightly-renewals',
    ],
  );
  examples(
    translated(sends.command('show'))
      .description(t('cli.help.sendsShow'))
      .argument('<id>', t('cli.help.sendsId'))
      .option('--csv', t('cli.help.sendsCsv'))
      .option('--wait', t('cli.help.wait'))
      .option('--timeout <duration>', t('cli.help.sendsTimeout'))
      .option('--json', t('cli.help.jsonPlain'))
      .action((id, options) =>
        run(async () => (await import('./commands/sends.js')).runSendsShow, {
          args: [id],
          options,
          globals: globals(),
        }),
      ),
    [
      'blockcatch sends show 3f2a --wait --timeout 10m',
      'blockcatch sends show 3f2a --csv > report.csv',
    ],
  );
  examples(
    translated(sends.command('cancel'))
      .description(t('cli.help.sendsCancel'))
      .argument('<id>', t('cli.help.sendsId'))
      .action((id, options) =>
        run(async () => (await import('./commands/sends.js')).runSendsCancel, {
          args: [id],
          options,
          globals: globals(),
        }),
      ),
    ['blockcatch sends cancel 3f2a'],
  );

  examples(
    command('health')
      .description(t('cli.help.health'))
      .option('--json', t('cli.help.jsonPlain'))
      .action((options) =>
        run(async () => (await import('./commands/health.js')).runHealth, {
          args: [],
          options,
          globals: globals(),
        }),
      ),
    ['blockcatch health', 'blockcatch --gateway https://api.example.com health --json'],
  );
  return program;
}
