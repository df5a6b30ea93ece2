// Flags several commands share, declared once: the audience filters (users, send), the invitee
// filters (invitations, send) and the output flags of lists and exports. The types of their values
// come from these declarations; flags.ts checks the values.
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import type { Blank, NoFlags, OptionsOf } from './command.js';
import { t } from './i18n.js';

/** A yes/no/all filter: the flag alone means yes. */
export function triOption<F extends string>(flags: F, what: string) {
  return new Option(flags, t('cli.help.tri', { what }));
}

/** `--product flex|spark`, required. */
export function productOption() {
  return new Option('--product <product>', t('cli.help.product')).makeOptionMandatory();
}

export function withAudienceFlags<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
>(command: Command<A, O, G>) {
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

export function withInviteeFlags<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
>(command: Command<A, O, G>) {
  return command
    .option('--invited-from <day>', t('cli.help.invitedFrom'))
    .option('--invited-to <day>', t('cli.help.invitedTo'))
    .addOption(triOption('--registered [yes|no|all]', t('cli.help.registered')))
    .addOption(triOption('--proxy-installed [yes|no|all]', t('cli.help.proxyInstalled')))
    .addOption(triOption('--setup-complete [yes|no|all]', t('cli.help.setupComplete')))
    .option('--search <text>', t('cli.help.search'));
}

/** `--json [fields]` or `--csv [file]`: how an export is written. */
export function withListOutput<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) {
  return command
    .option('--json [fields]', t('cli.help.json'))
    .option('--csv [file]', t('cli.help.csv'));
}

/** An export's flags plus a table's paging and width. */
export function withTableOutput<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
>(command: Command<A, O, G>) {
  return withListOutput(command)
    .option('--page <n>', t('cli.help.page'))
    .option('--rows-per-page <n>', t('cli.help.rowsPerPage'))
    .option('--all', t('cli.help.all'))
    .option('--wide', t('cli.help.wide'));
}

/** Each `--var` adds to the list. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export type AudienceFlags = OptionsOf<ReturnType<typeof withAudienceFlags<[], NoFlags, NoFlags>>>;
export type InviteeFlags = OptionsOf<ReturnType<typeof withInviteeFlags<[], NoFlags, NoFlags>>>;
export type ListOutputFlags = OptionsOf<ReturnType<typeof withListOutput<[], NoFlags, NoFlags>>>;
export type TableOutputFlags = OptionsOf<ReturnType<typeof withTableOutput<[], NoFlags, NoFlags>>>;

/** The flags of a command whose only flag is `--json`. */
export const jsonOnly = (command: Blank) => command.option('--json', t('cli.help.jsonPlain'));
