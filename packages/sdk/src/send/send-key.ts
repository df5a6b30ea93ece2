// The key that names a send's job when the caller gives none: the same content (channel, text or
// template and values, schedule) on the same local day always gets the same key, whoever the
// audience is. A job that runs twice a day adds only the people it has not texted yet that day.
import type { Channel, MsgTemplate } from '../core/schemas/index.js';

export interface SendKeyInput {
  channel: Channel;
  /** The SMS text, or the WhatsApp template with its values. */
  content: string | MsgTemplate;
  /** The scheduled start as given (`--at`), if any. */
  sendAt?: string | undefined;
  /** The local calendar day of the send, `YYYY-MM-DD` (`formatIsoDay(Date.now(), zone)`). */
  day: string;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `auto-YYYY-MM-DD-<32 hex>`: the day, then the first 128 bits of a SHA-256 over the channel, the
 * content and the schedule. The recipients are not part of it: they are the job's to add to.
 */
export async function deriveSendKey(input: SendKeyInput): Promise<string> {
  if (!ISO_DAY.test(input.day)) {
    throw new RangeError(`Not a calendar day (YYYY-MM-DD): ${JSON.stringify(input.day)}`);
  }
  const content =
    typeof input.content === 'string'
      ? { text: input.content }
      : {
          template: {
            name: input.content.name,
            language: input.content.language,
            components: input.content.components.map((c) => [c.type, c.text]),
            values: Object.entries(input.content.values ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)),
          },
        };
  // JSON of arrays and fixed-order objects: no separator inside a value can fake a boundary.
  const canonical = JSON.stringify([input.channel, content, input.sendAt ?? null, input.day]);
  const digest = await globalThis.crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(canonical),
  );
  const hex = Array.from(new Uint8Array(digest).subarray(0, 16), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
  return `auto-${input.day}-${hex}`;
}
