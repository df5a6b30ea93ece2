// SMS and WhatsApp through Twilio's Messages REST API. WhatsApp template messages are sent as plain
// Body text rendered from the template (HEADER then BODY): this sandbox does not use Twilio Content
// templates (ContentSid), so outside WhatsApp's 24-hour session window Twilio may refuse them.
import { request } from 'undici';
import type { DeliveryOutcome, ExternalProvider, OutgoingMessage } from './types.js';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  from: string;
  whatsappFrom?: string;
  baseUrl: string;
}

/** Twilio error codes meaning the number itself cannot receive messages. */
const INVALID_NUMBER_CODES = new Set([21211, 21614]);
/** 'Attempt to send to unsubscribed recipient': the number replied STOP to Twilio. */
const UNSUBSCRIBED_CODE = 21610;
const TIMEOUT_MS = 15_000;

const whatsapp = (number: string) =>
  number.startsWith('whatsapp:') ? number : `whatsapp:${number}`;

export function createTwilioProvider(settings: TwilioSettings): ExternalProvider {
  const url = new URL(
    `/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`,
    settings.baseUrl,
  );
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;

  return {
    kind: 'external',
    name: 'twilio',
    async send(message: OutgoingMessage): Promise<DeliveryOutcome> {
      const form = new URLSearchParams(
        message.channel === 'whatsapp'
          ? {
              To: whatsapp(message.to),
              From: whatsapp(settings.whatsappFrom ?? settings.from),
              Body: message.body,
            }
          : { To: message.to, From: settings.from, Body: message.body },
      );
      try {
        const response = await request(url, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: form.toString(),
          headersTimeout: TIMEOUT_MS,
          bodyTimeout: TIMEOUT_MS,
        });
        const text = await response.body.text();
        if (response.statusCode >= 200 && response.statusCode < 300) return { kind: 'sent' };
        return classifyTwilioError(response.statusCode, text);
      } catch (error) {
        return { kind: 'retry', error: `network: ${(error as Error).message}` };
      }
    },
  };
}

/** Maps Twilio's error answer (`{ code, message, status }`) to what the worker does next. */
export function classifyTwilioError(status: number, body: string): DeliveryOutcome {
  let code: number | undefined;
  let detail = body.slice(0, 200);
  try {
    const parsed = JSON.parse(body) as { code?: unknown; message?: unknown };
    if (typeof parsed.code === 'number') code = parsed.code;
    if (typeof parsed.message === 'string') detail = parsed.message;
  } catch {
    // Not JSON (a proxy's error page): the status alone decides.
  }
  const error = `twilio ${status}${code === undefined ? '' : ` (${code})`}: ${detail}`;
  if (code !== undefined && INVALID_NUMBER_CODES.has(code)) return { kind: 'invalid', error };
  if (code === UNSUBSCRIBED_CODE) return { kind: 'opted-out', error };
  if (status === 429 || status >= 500) return { kind: 'retry', error };
  return { kind: 'failed', error };
}
