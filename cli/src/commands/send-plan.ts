// Everything a send needs decided before anything is sent: the content and its segments, the
// recipients after filters and the --only/--exclude lists, and the key that names the send.
import {
  type Channel,
  type MsgTemplate,
  normalizePhone,
  SMS_LIMITS,
  type SmsSegmentation,
  segmentSms,
  type WhatsappTemplate,
} from '@blockcatch/sdk';
import { UsageError } from '../errors.js';
import type { ListedRow } from '../output/columns.js';
import type { PhoneFile } from './phone-lists.js';

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
}

/** The SMS rules: one segment unless --allow-multipart, and always one for invitees. */
export function smsContent(
  text: string,
  options: { audience: string; allowMultipart: boolean },
): SendContent {
  if (text.trim() === '') {
    throw new UsageError('--message: the message is empty; write the text to send.');
  }
  const segments = segmentSms(text);
  if (segments.segments > 1) {
    if (options.audience === 'invitees') {
      throw new UsageError(
        `--message: it needs ${segments.segments} SMS segments (${segments.encoding}, ${segments.units} units), and messages to unpaid invitations always keep to one segment; shorten it to ${SMS_LIMITS[segments.encoding].single} or fewer.`,
      );
    }
    if (!options.allowMultipart) {
      throw new UsageError(
        `--message: 'Limit characters' applies and it needs ${segments.segments} SMS segments (${segments.encoding}, ${segments.units} units); shorten it to ${SMS_LIMITS[segments.encoding].single} or fewer, or pass --allow-multipart.`,
      );
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
  const names = [...new Set(templates.map((tpl) => tpl.name))].join(', ') || 'none';
  if (matches.length === 0) {
    throw new UsageError(
      `--template: ${JSON.stringify(name)}${language ? ` in ${language}` : ''} is not a template; use one of: ${names} (blockcatch templates list).`,
    );
  }
  if (matches.length > 1) {
    throw new UsageError(
      `--template: ${JSON.stringify(name)} exists in ${matches.map((m) => m.language).join(', ')}; pick one with --template-language.`,
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
  return { recipients, unusable, excludedByList, notInOnlyList };
}

export function contentOf(content: SendContent): string | MsgTemplate {
  return content.channel === 'sms' ? content.text : content.template;
}

export function channelOf(content: SendContent): Channel {
  return content.channel;
}
