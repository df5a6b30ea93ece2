// The key that names a bulk send when the caller gives none: the same message to the same people on
// the same local day always gets the same key, so a scheduled job that fires twice sends once.

import { normalizePhone } from '../core/phone.js';
import type { Channel, MsgTemplate, Recipient } from '../core/schemas/index.js';

export interface SendKeyInput {
  channel: Channel;
  /** The SMS text, or the WhatsApp template. */
  content: string | MsgTemplate;
  /** In any order and notation; duplicates count once. */
  recipients: ReadonlyArray<string | Recipient>;
  /** The local calendar day of the send, `YYYY-MM-DD` (`formatIsoDay(Date.now(), zone)`). */
  day: string;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `auto-YYYY-MM-DD-<32 hex>`: the day, then the first 128 bits of a SHA-256 over the channel, the
 * content and the sorted, de-duplicated recipient set (normalised to `+1XXXXXXXXXX` where they
 * normalise). Short enough that `${key}:${batch}` stays well inside the gateway's 200 characters.
 */
export async function deriveSendKey(input: SendKeyInput): Promise<string> {
  if (!ISO_DAY.test(input.day)) {
    throw new RangeError(`Not a calendar day (YYYY-MM-DD): ${JSON.stringify(input.day)}`);
  }
  const numbers = new Set<string>();
  for (const r of input.recipients) {
    const raw = typeof r === 'string' ? r : r.number;
    numbers.add(normalizePhone(raw) ?? raw);
  }
  const content =
    typeof input.content === 'string'
      ? { text: input.content }
      : {
          template: {
            name: input.content.name,
            language: input.content.language,
            components: input.content.components.map((c) => [c.type, c.text]),
          },
        };
  // JSON of arrays and fixed-order objects: no separator inside a value can fake a boundary.
  const canonical = JSON.stringify([input.channel, content, [...numbers].sort(), input.day]);
  const digest = await globalThis.crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(canonical),
  );
  const hex = Array.from(new Uint8Array(digest).subarray(0, 16), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
  return `auto-${input.day}-${hex}`;
}
