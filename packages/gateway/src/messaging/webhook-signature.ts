// Proves a provider webhook (inbound replies, delivery status callbacks) came from the provider.
//
// `verifyWebhookSignature({ provider, url, params, headers, config })` answers true only when the
// request carries a valid signature for `provider`:
// - `twilio`: `X-Twilio-Signature`, base64 HMAC-SHA1 keyed with TWILIO_AUTH_TOKEN over the full URL
//   Twilio called followed by every POST parameter's name and value, sorted by name. As Twilio's own
//   helpers do, the URL is tried with and without the scheme's standard port.
// - `outbox`: `X-BlockCatch-Signature`, hex HMAC-SHA256 keyed with BLOCKCATCH_WEBHOOK_SECRET over the
//   same string (URL, then the sorted parameters). `signOutboxWebhook` makes it, for the sandbox and tests.
// No secret configured means no request is accepted. Compared in constant time.
// `webhookUrl(request, config)` is the URL to verify against: BLOCKCATCH_PUBLIC_URL plus the path when
// set (behind a proxy the Host header is not what the provider called), else the request's own.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { withoutTrailingSlashes } from '@blockcatch/sdk';
import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config.js';

export type WebhookProvider = 'twilio' | 'outbox';

const TWILIO_SIGNATURE_HEADER = 'x-twilio-signature';
const OUTBOX_SIGNATURE_HEADER = 'x-blockcatch-signature';

type Params = Readonly<Record<string, string>>;

export interface WebhookRequest {
  provider: WebhookProvider;
  /** The full URL the provider called, query string included (see `webhookUrl`). */
  url: string;
  /** The form-encoded POST parameters. */
  params: Params;
  headers: IncomingHttpHeaders;
  config: Pick<GatewayConfig, 'twilio' | 'webhookSecret'>;
}

export function verifyWebhookSignature(request: WebhookRequest): boolean {
  const { provider, url, params, headers, config } = request;
  const header = headers[provider === 'twilio' ? TWILIO_SIGNATURE_HEADER : OUTBOX_SIGNATURE_HEADER];
  if (typeof header !== 'string' || header === '') return false;
  if (provider === 'twilio') {
    const token = config.twilio.authToken;
    if (!token) return false;
    return urlVariants(url).some((candidate) =>
      sameText(twilioSignature(token, candidate, params), header),
    );
  }
  const secret = config.webhookSecret;
  return secret !== undefined && sameText(signOutboxWebhook(secret, url, params), header);
}

/** Twilio's `X-Twilio-Signature` for a request. */
export function twilioSignature(authToken: string, url: string, params: Params): string {
  return createHmac('sha1', authToken).update(signedText(url, params), 'utf8').digest('base64');
}

/** The outbox provider's `X-BlockCatch-Signature` for a request. */
export function signOutboxWebhook(secret: string, url: string, params: Params): string {
  return createHmac('sha256', secret).update(signedText(url, params), 'utf8').digest('hex');
}

/** The URL a provider called: BLOCKCATCH_PUBLIC_URL's origin and path prefix when set. */
export function webhookUrl(
  request: Pick<FastifyRequest, 'protocol' | 'host' | 'url'>,
  config: Pick<GatewayConfig, 'publicUrl'>,
): string {
  const base = config.publicUrl ?? `${request.protocol}://${request.host}`;
  return `${withoutTrailingSlashes(base)}${request.url}`;
}

function signedText(url: string, params: Params): string {
  return Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
}

function urlVariants(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const standard = parsed.protocol === 'https:' ? '443' : '80';
  const rest = `${parsed.pathname}${parsed.search}`;
  const host = `${parsed.protocol}//${parsed.hostname}`;
  const variants = [url, `${host}:${parsed.port || standard}${rest}`];
  if (!parsed.port) variants.push(`${host}${rest}`);
  return [...new Set(variants)];
}

function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  // timingSafeEqual throws on different lengths; a different length is simply a mismatch.
  return a.length === b.length && timingSafeEqual(a, b);
}
