// The flags of `send` and `sends`, declared once: the commands take them from here, and the plan
// and the job reports type what they read by them.
import type { Blank, OptionsOf } from '../../command.js';
import { collect, triOption, withAudienceFlags } from '../../flag-sets.js';
import { t } from '../../i18n.js';

export const sendFlags = (command: Blank) =>
  withAudienceFlags(command)
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
    .option('--local-time', t('cli.help.localTime'))
    .option('--wait', t('cli.help.wait'))
    .option('--timeout <duration>', t('cli.help.sendsTimeout'))
    .option('--key <key>', t('cli.help.key'))
    .option('--allow-multipart', t('cli.help.allowMultipart'))
    .option('--batch-size <n>', t('cli.help.batchSize'))
    .option('--json', t('cli.help.sendJson'))
    .option('--invited-from <day>', t('cli.help.sendInvitedFrom'))
    .option('--invited-to <day>', t('cli.help.sendInvitedTo'))
    .addOption(triOption('--registered [yes|no|all]', t('cli.help.sendRegistered')));

export const sendsListFlags = (command: Blank) =>
  command
    .option('--limit <n>', t('cli.help.sendsLimit'))
    .option('--key <key>', t('cli.help.sendsKey'))
    .option('--json', t('cli.help.jsonPlain'));

export const sendsShowFlags = (command: Blank) =>
  command
    .argument('<id>', t('cli.help.sendsId'))
    .option('--csv', t('cli.help.sendsCsv'))
    .option('--wait', t('cli.help.wait'))
    .option('--timeout <duration>', t('cli.help.sendsTimeout'))
    .option('--json', t('cli.help.jsonPlain'));

export type SendFlags = OptionsOf<ReturnType<typeof sendFlags>>;
export type SendsListFlags = OptionsOf<ReturnType<typeof sendsListFlags>>;
export type SendsShowFlags = OptionsOf<ReturnType<typeof sendsShowFlags>>;
