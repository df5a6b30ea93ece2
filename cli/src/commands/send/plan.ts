// The plan step of `send`: everything decided before anything is sent. The flags are checked
// without the network (readSendRequest); then the content and its segments, the recipients after
// filters and the --only/--exclude lists, and the key that names the send's job (planSend). A dry
// run asks the gateway's send preview (the send's own checks) and prints it (send-preview.ts).
import { readFileSync } from 'node:fs';
import {
  type Channel,
  channelSchema,
  DEFAULT_BATCH_SIZE,
  deriveSendKey,
  formatIsoDay,
  localTimeZone,
  MAX_RECIPIENTS,
  type MsgTemplate,
  normalizePhone,
  SMS_LIMITS,
  type SmsSegmentation,
  segmentSms,
  sendAtSchema,
  type WhatsappTemplate,
} from '@blockcatch/sdk';
import { z } from 'zod';
import type { AudienceQuery } from '../../audience.js';
import { loadAudience } from '../../audience.js';
import type { Context } from '../../context.js';
import { durationSchema } from '../../duration.js';
import { UsageError } from '../../errors.js';
import { audienceFilters, flag, inviteeFilters } from '../../flags.js';
import { type Translate, t } from '../../i18n.js';
import type { ListedRow } from '../../output/columns.js';
import { type PhoneFile, readPhoneFile } from '../../phone-lists.js';
import { commandLine } from '../../self-command.js';
import { note } from '../../setup.js';
import { isInteractive } from '../../terminal.js';
import type { SendFlags } from './flags.js';

const audienceSchema = z.enum(['flex', 'spark', 'invitees']);
const keySchema = z.string().regex(/^[\w.:@-]{1,150}$/);
/** `--var name=value`: a template variable's name as templates declare it, and a bounded value. */
const varSchema = z
  .string()
  .max(1100)
  .regex(/^[A-Za-z0-9_]{1,40}=[\s\S]{0,1000}$/);

/** What the flags ask for, checked: no file is unread and no flag unchecked after this. */
export interface SendRequest {
  channel: Channel;
  audience: 'flex' | 'spark' | 'invitees';
  query: AudienceQuery;
  /** The SMS content; a WhatsApp template is looked up by name once signed in. */
  content: SendContent | null;
  template: { name: string; language: string | undefined } | null;
  /** `--var name=value`: the template's send-time values. */
  values: Record<string, string>;
  lists: PhoneFile[];
  batchSize: number;
  givenKey: string | undefined;
  mode: 'dry-run' | 'test' | 'interactive' | 'yes';
  json: boolean;
  /** `--at`: when the gateway starts the send (an ISO date-time). */
  sendAt: string | undefined;
  /** `--local-time`: `--at` is the time in each recipient's own zone. */
  localTime: boolean;
  /** `--wait`: follow delivery until every recipient has an outcome. */
  wait: boolean;
  /** `--timeout` with --wait: stop following after this many ms. */
  waitTimeoutMs: number | null;
}

export interface SendPlan {
  audience: SendRequest['audience'];
  query: AudienceQuery;
  content: SendContent;
  set: RecipientSet;
  key: string;
  keyGiven: boolean;
  batchSize: number;
  lists: PhoneFile[];
  sendAt: string | undefined;
  localTime: boolean;
  wait: boolean;
  waitTimeoutMs: number | null;
}

export function readSendRequest(channelArg: unknown, o: SendFlags): SendRequest {
  const channel = flag('<channel>', channelSchema, channelArg, t('cli.errors.channelFix'));
  const audience = flag('--audience', audienceSchema, o.audience, t('cli.errors.audienceFix'));
  const batchSize = flag(
    '--batch-size',
    z.coerce.number().int().min(1).max(MAX_RECIPIENTS),
    o.batchSize ?? String(DEFAULT_BATCH_SIZE),
    t('cli.errors.wholeNumberFix', { min: 1, max: MAX_RECIPIENTS }),
  );
  const givenKey =
    o.key === undefined ? undefined : flag('--key', keySchema, o.key, t('cli.errors.keyFix'));
  const query = audienceQuery(audience, o);
  const sources = [o.message, o.messageFile, o.template].filter((v) => v !== undefined);
  if (sources.length > 1) {
    throw new UsageError(t('cli.errors.oneContent'));
  }
  if (channel === 'sms' && o.template !== undefined) {
    throw new UsageError(t('cli.errors.templateIsWhatsapp'));
  }
  if (channel === 'whatsapp' && o.template === undefined) {
    throw new UsageError(
      t('cli.errors.whatsappNeedsTemplate', { list: commandLine('templates list') }),
    );
  }
  const values = templateValues(o.var ?? []);
  if (channel === 'sms' && Object.keys(values).length > 0) {
    throw new UsageError(t('cli.errors.varIsWhatsapp'));
  }
  let content: SendContent | null = null;
  if (channel === 'sms') {
    const text =
      o.message ?? (o.messageFile === undefined ? undefined : readMessageFile(o.messageFile));
    if (text === undefined) {
      throw new UsageError(t('cli.errors.smsNeedsText'));
    }
    content = smsContent(text, { audience, allowMultipart: o.allowMultipart === true });
  }
  // Both lists are read before anything is fetched or sent: a broken file stops here.
  const lists: PhoneFile[] = [];
  if (o.only !== undefined) lists.push(readPhoneFile('--only', o.only));
  if (o.exclude !== undefined) lists.push(readPhoneFile('--exclude', o.exclude));
  const json = o.json === true;
  if (o.test === true && o.dryRun === true) throw new UsageError(t('cli.errors.testOrDryRun'));
  // A test goes to the caller alone: it needs no --yes.
  const mode =
    o.dryRun === true
      ? 'dry-run'
      : o.test === true
        ? 'test'
        : o.yes === true
          ? 'yes'
          : !json && isInteractive()
            ? 'interactive'
            : null;
  if (mode === null) {
    // Checked before the network: a cron line without --yes fails fast and the same way every time.
    throw new UsageError(t('cli.errors.needsYes'));
  }
  return {
    channel,
    audience,
    query,
    content,
    template: o.template === undefined ? null : { name: o.template, language: o.templateLanguage },
    values,
    lists,
    batchSize,
    givenKey,
    mode,
    json,
    sendAt:
      o.at === undefined ? undefined : flag('--at', sendAtSchema, o.at, t('cli.errors.atFix')),
    localTime: localTimeFlag(o),
    wait: o.wait === true,
    waitTimeoutMs: waitTimeout(o),
  };
}

/** Looks up the template, loads the recipients and names the send's job. */
export async function planSend(ctx: Context, request: SendRequest): Promise<SendPlan> {
  const content = withValues(
    request.content ??
      pickTemplate(
        await ctx.client.templates(),
        request.template?.name ?? '',
        request.template?.language,
      ),
    request.values,
  );
  const rows = await loadAudience(ctx, request.query);
  const set = pickRecipients(
    rows,
    request.lists.find((l) => l.flag === '--only'),
    request.lists.find((l) => l.flag === '--exclude'),
  );
  const key =
    request.givenKey ??
    (await sendKey(content, request.localTime ? `${request.sendAt} local` : request.sendAt));
  return {
    audience: request.audience,
    query: request.query,
    content,
    set,
    key,
    keyGiven: request.givenKey !== undefined,
    batchSize: request.batchSize,
    lists: request.lists,
    sendAt: request.sendAt,
    localTime: request.localTime,
    wait: request.wait,
    waitTimeoutMs: request.waitTimeoutMs,
  };
}

/**
 * The key a send gets without --key: the same content (and schedule) on the same local day names
 * the same job, whoever the audience is, so a re-run adds only people not texted yet.
 */
export function sendKey(content: SendContent, sendAt: string | undefined): Promise<string> {
  return deriveSendKey({
    channel: content.channel,
    content: contentOf(content),
    sendAt,
    day: formatIsoDay(Date.now(), localTimeZone()),
  });
}

/** `--local-time` reads --at in each recipient's zone, so --at is needed and takes no offset. */
function localTimeFlag(o: SendFlags): boolean {
  if (o.localTime !== true) return false;
  if (o.at === undefined || /(Z|[+-]\d{2}:?\d{2})$/i.test(o.at)) {
    throw new UsageError(t('cli.errors.localTimeNeedsAt'));
  }
  return true;
}

/** `--timeout` (with --wait): one second to a week. */
function waitTimeout(o: SendFlags): number | null {
  if (o.timeout === undefined) return null;
  if (o.wait !== true) throw new UsageError(t('cli.errors.timeoutNeedsWait'));
  return flag(
    '--timeout',
    durationSchema(1000, 7 * 86_400_000),
    o.timeout,
    t('cli.errors.timeoutFix'),
  );
}

/** `--var name=value` flags as the template's values; a name given twice is a usage error. */
export function templateValues(flags: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const raw of flags) {
    const checked = flag('--var', varSchema, raw, t('cli.errors.varFix'));
    const at = checked.indexOf('=');
    const name = checked.slice(0, at);
    if (name in values) throw new UsageError(t('cli.errors.varTwice', { name }));
    values[name] = checked.slice(at + 1);
  }
  return values;
}

function withValues(content: SendContent, values: Record<string, string>): SendContent {
  if (content.channel === 'sms' || Object.keys(values).length === 0) return content;
  return { ...content, template: { ...content.template, values } };
}

const INVITEE_ONLY = {
  invitedFrom: '--invited-from',
  invitedTo: '--invited-to',
  registered: '--registered',
} as const;
const USERS_ONLY = {
  createdFrom: '--created-from',
  createdTo: '--created-to',
  expiresFrom: '--expires-from',
  expiresTo: '--expires-to',
  goodStanding: '--good-standing',
  region: '--region',
  referral: '--referral',
} as const;

function audienceQuery(audience: SendRequest['audience'], o: SendFlags): AudienceQuery {
  const search = o.search === undefined ? {} : { search: o.search };
  if (audience === 'invitees') {
    for (const [name, shown] of Object.entries(USERS_ONLY)) {
      if (o[name as keyof typeof USERS_ONLY] !== undefined) {
        throw new UsageError(t('cli.errors.notInviteeFilter', { flag: shown }));
      }
    }
    return { kind: 'invitees', filters: inviteeFilters(o), ...search };
  }
  for (const [name, shown] of Object.entries(INVITEE_ONLY)) {
    if (o[name as keyof typeof INVITEE_ONLY] !== undefined) {
      throw new UsageError(t('cli.errors.inviteesOnly', { flag: shown }));
    }
  }
  return { kind: 'users', product: audience, filters: audienceFilters(o, audience), ...search };
}

/** The message from a file, or from standard input when the file is `-`. */
function readMessageFile(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8')
      .replace(/^\uFEFF/, '')
      .replace(/\r?\n$/, '');
  } catch (error) {
    throw new UsageError(
      t('cli.errors.unreadableFile', {
        flag: '--message-file',
        file: JSON.stringify(file),
        reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message,
        fix: t('cli.errors.messageFileFix'),
      }),
    );
  }
}

export type SendContent =
  | { channel: 'sms'; text: string; segments: SmsSegmentation }
  | { channel: 'whatsapp'; template: MsgTemplate };

export interface Recipient {
  phone: string;
  row: ListedRow;
}

export interface RecipientSet {
  recipients: Recipient[];
  /** Rows whose number is not a US phone: the gateway would refuse the whole batch. */
  unusable: ListedRow[];
  excludedByList: number;
  notInOnlyList: number;
  /** --only phones that are not in the audience: never sent to, and reported as such. */
  outsideAudience: string[];
}

/** The SMS rules: one segment unless --allow-multipart, and always one for invitees. */
export function smsContent(
  text: string,
  options: { audience: string; allowMultipart: boolean },
): SendContent {
  if (text.trim() === '') {
    throw new UsageError(t('cli.errors.emptyMessage'));
  }
  const segments = segmentSms(text);
  if (segments.segments > 1) {
    const tooLong = {
      segments: segments.segments,
      encoding: segments.encoding,
      units: segments.units,
      limit: SMS_LIMITS[segments.encoding].single,
    };
    if (options.audience === 'invitees') {
      throw new UsageError(t('cli.errors.inviteesOneSegment', tooLong));
    }
    if (!options.allowMultipart) {
      throw new UsageError(t('cli.errors.limitCharacters', tooLong));
    }
  }
  return { channel: 'sms', text, segments };
}

/** The template called `name` (in `language` when given), as a send payload's msgTemplate. */
export function pickTemplate(
  templates: readonly WhatsappTemplate[],
  name: string,
  language: string | undefined,
): SendContent {
  const matches = templates.filter(
    (tpl) => tpl.name === name && (language === undefined || tpl.language === language),
  );
  const names =
    [...new Set(templates.map((tpl) => tpl.name))].join(', ') || t('cli.errors.noTemplates');
  if (matches.length === 0) {
    throw new UsageError(
      t(language ? 'cli.errors.notATemplateIn' : 'cli.errors.notATemplate', {
        name: JSON.stringify(name),
        language,
        names,
        list: commandLine('templates list'),
      }),
    );
  }
  if (matches.length > 1) {
    throw new UsageError(
      t('cli.errors.templateLanguages', {
        name: JSON.stringify(name),
        languages: matches.map((m) => m.language).join(', '),
      }),
    );
  }
  const tpl = matches[0]!;
  return {
    channel: 'whatsapp',
    template: { name: tpl.name, language: tpl.language, components: tpl.components },
  };
}

export function pickRecipients(
  rows: readonly ListedRow[],
  only: PhoneFile | undefined,
  exclude: PhoneFile | undefined,
): RecipientSet {
  const seen = new Set<string>();
  const recipients: Recipient[] = [];
  const unusable: ListedRow[] = [];
  let excludedByList = 0;
  let notInOnlyList = 0;
  for (const row of rows) {
    const phone = normalizePhone(row.phoneNumber);
    if (phone === null) {
      unusable.push(row);
      continue;
    }
    if (seen.has(phone)) continue;
    seen.add(phone);
    if (only && !only.phones.has(phone)) {
      notInOnlyList++;
      continue;
    }
    if (exclude?.phones.has(phone)) {
      excludedByList++;
      continue;
    }
    recipients.push({ phone, row });
  }
  const outsideAudience = only ? [...only.phones].filter((p) => !seen.has(p)) : [];
  return { recipients, unusable, excludedByList, notInOnlyList, outsideAudience };
}

export function contentOf(content: SendContent): string | MsgTemplate {
  return content.channel === 'sms' ? content.text : content.template;
}

export function channelOf(content: SendContent): Channel {
  return content.channel;
}

export function reportListProblems(plan: SendPlan, t: Translate): void {
  for (const list of plan.lists) {
    for (const p of list.problems) {
      note(
        t('cli.send.badRow', { flag: list.flag, file: list.file, line: p.line, value: p.value }),
      );
    }
  }
  for (const row of plan.set.unusable) {
    note(t('cli.send.unusable', { name: row.name, value: row.phoneNumber }));
  }
}

export function describeContent(content: SendContent) {
  if (content.channel === 'sms') {
    const s = content.segments;
    return {
      text: content.text,
      encoding: s.encoding,
      segments: s.segments,
      units: s.units,
      remaining: s.remainingInSegment,
    };
  }
  return { template: content.template };
}
