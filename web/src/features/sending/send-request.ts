// What a review sends: the SMS or WhatsApp payload built from the composed message and the
// selected rows, in the SDK's send payload schemas.
import type {
  MsgTemplate,
  SmsSendPayload,
  WhatsappSendPayload,
  WhatsappTemplate,
} from '@blockcatch/sdk';
import { type HasPhone, type Selection, selectedRows } from '../../lib/admin/selection.js';

export type ComposedMessage =
  | { channel: 'sms'; message: string }
  | { channel: 'whatsapp'; template: WhatsappTemplate };

export type SendRequest =
  | { channel: 'sms'; payload: SmsSendPayload }
  | { channel: 'whatsapp'; payload: WhatsappSendPayload };

/**
 * The payload for the selected rows, each phone once, in list order. The selection is by phone,
 * so a phone listed twice (a Flex user who is also an invitee) is still messaged once.
 */
export function buildSendRequest(
  composed: ComposedMessage,
  rows: readonly HasPhone[],
  selected: Selection,
  sendAt?: string,
  localTime = false,
): SendRequest {
  const seen = new Set<string>();
  const numbers: { number: string }[] = [];
  for (const row of selectedRows(rows, selected)) {
    if (seen.has(row.phoneNumber)) continue;
    seen.add(row.phoneNumber);
    numbers.push({ number: row.phoneNumber });
  }
  const at = sendAt === undefined ? {} : { sendAt, ...(localTime ? { localTime } : {}) };
  if (composed.channel === 'sms') {
    return { channel: 'sms', payload: { numbers, message: composed.message, ...at } };
  }
  return {
    channel: 'whatsapp',
    payload: { numbers, msgTemplate: toMsgTemplate(composed.template), ...at },
  };
}

/**
 * The send's start from the date-and-time field (`YYYY-MM-DDTHH:mm`, the browser's wall clock):
 * empty is now (no `sendAt`); otherwise an ISO instant with its offset, so the gateway reads the
 * time the admin meant whatever its own zone. A time not in the future is refused.
 */
export function sendAtFromLocal(
  value: string,
  now: number,
  localTime = false,
): { ok: true; sendAt?: string } | { ok: false } {
  if (value.trim() === '') return { ok: true };
  // A date-time without an offset is read on the browser's clock.
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)
    ? new Date(value).getTime()
    : NaN;
  if (Number.isNaN(at) || at <= now) return { ok: false };
  // In each recipient's zone the gateway reads the wall-clock time itself (and refuses it where
  // it has passed already).
  if (localTime) return { ok: true, sendAt: value.slice(0, 16) };
  return { ok: true, sendAt: new Date(at).toISOString() };
}

/** The template as the send payload names it: language, name and components, no id. */
export function toMsgTemplate(template: WhatsappTemplate): MsgTemplate {
  return {
    language: template.language,
    name: template.name,
    components: template.components.map(({ type, text }) => ({ type, text })),
  };
}

const SUMMARY_LENGTH = 60;

/** The short text after '(name)' in the template selector: the header, else the body, cut short. */
export function templateSummary(template: WhatsappTemplate): string {
  const header = template.components.find((c) => c.type === 'HEADER')?.text;
  const body = template.components.find((c) => c.type === 'BODY')?.text;
  const text = (header ?? body ?? '').replace(/\s+/g, ' ').trim();
  return text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH - 1)}…` : text;
}

/** The read-only preview: header and body as the recipient reads them, placeholders kept. */
export function templatePreview(template: WhatsappTemplate): string {
  return template.components.map((c) => c.text).join('\n\n');
}

/** Whether the composed message can be reviewed: non-blank text, or a template picked. */
export function isComposed(composed: ComposedMessage | null): composed is ComposedMessage {
  if (!composed) return false;
  return composed.channel === 'sms' ? composed.message.trim() !== '' : true;
}
