// SMS and WhatsApp through Twilio's Messages REST API. A WhatsApp template with a Content API id is
// sent as ContentSid and ContentVariables (what Twilio accepts outside the 24-hour session window);
// one without is sent as its rendered Body text. Every message asks for MessageStatus callbacks.
import { request } from 'undici';
import type { DeliveryOutcome, ExternalProvider, OutgoingMessage } from './types.js';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  from: string;
  whatsappFrom?: string;
  messagingServiceSid?: string;
  statusCallbackUrl?: string;
  baseUrl: string;
}

/** Twilio error codes meaning the number itself cannot receive messages. */
const INVALID_NUMBER_CODES = new Set([21211, 21614]);
/** 'Attempt to send to unsubscribed recipient': the number replied STOP to Twilio. */
const UNSUBSCRIBED_CODE = 21610;
/** 'Authenticate': the account SID and auth token were refused. */
const AUTHENTICATE_CODE = 20003;
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
      const form = new URLSearchParams(twilioForm(settings, message));
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
        if (response.statusCode >= 200 && response.statusCode < 300) {
          const sid = messageSid(text);
          return sid ? { kind: 'sent', sid } : { kind: 'sent' };
        }
        return classifyTwilioError(response.statusCode, text);
      } catch (error) {
        return { kind: 'retry', error: `network: ${(error as Error).message}` };
      }
    },
  };
}

/** The form fields of one message: who from, who to, and either a Body or a ContentSid. */
function twilioForm(settings: TwilioSettings, message: OutgoingMessage): Record<string, string> {
  const isWhatsapp = message.channel === 'whatsapp';
  const form: Record<string, string> = { To: isWhatsapp ? whatsapp(message.to) : message.to };
  if (isWhatsapp) form.From = whatsapp(settings.whatsappFrom ?? settings.from);
  else if (message.from?.startsWith('MG')) form.MessagingServiceSid = message.from;
  else if (message.from) form.From = message.from;
  else if (settings.messagingServiceSid) form.MessagingServiceSid = settings.messagingServiceSid;
  else form.From = settings.from;
  if (isWhatsapp && message.contentSid) {
    form.ContentSid = message.contentSid;
    form.ContentVariables = JSON.stringify(message.variables ?? {});
  } else {
    form.Body = message.body;
  }
  if (settings.statusCallbackUrl) form.StatusCallback = settings.statusCallbackUrl;
  return form;
}

function messageSid(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { sid?: unknown };
    return typeof parsed.sid === 'string' ? parsed.sid : null;
  } catch {
    return null;
  }
}

/** Maps Twilio's error answer (`{ code, message, status }`) to what the worker does next. */
function classifyTwilioError(status: number, body: string): DeliveryOutcome {
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
  if (status === 401 || code === AUTHENTICATE_CODE) {
    return code === undefined
      ? { kind: 'unauthorized', error }
      : { kind: 'unauthorized', error, code };
  }
  if (code !== undefined && INVALID_NUMBER_CODES.has(code)) return { kind: 'invalid', error, code };
  if (code === UNSUBSCRIBED_CODE) return { kind: 'opted-out', error, code };
  if (status === 429) return { kind: 'retry', error, rateLimited: true };
  if (status >= 500) return { kind: 'retry', error };
  return code === undefined ? { kind: 'failed', error } : { kind: 'failed', error, code };
}
