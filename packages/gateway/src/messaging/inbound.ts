// Replies to the sender number (Twilio's inbound webhook): opt-out keywords and the signature that
// proves Twilio sent the request.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Twilio's default opt-out and opt-in keywords; the whole reply must be the keyword. */
const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const OPT_IN = new Set(['START', 'UNSTOP', 'YES']);

export function replyIntent(body: string): 'opt-out' | 'opt-in' | null {
  const word = body.trim().toUpperCase();
  if (OPT_OUT.has(word)) return 'opt-out';
  if (OPT_IN.has(word)) return 'opt-in';
  return null;
}

/**
 * Twilio's `X-Twilio-Signature`: base64 HMAC-SHA1, keyed with the auth token, of the full URL
 * followed by every POST parameter's name and value, sorted by name.
 */
export function twilioSignature(
  authToken: string,
  url: string,
  params: Readonly<Record<string, string>>,
): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export function isValidTwilioSignature(
  authToken: string,
  url: string,
  params: Readonly<Record<string, string>>,
  signature: string,
): boolean {
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  // timingSafeEqual throws on different lengths; a different length is simply a mismatch.
  return expected.length === given.length && timingSafeEqual(expected, given);
}
