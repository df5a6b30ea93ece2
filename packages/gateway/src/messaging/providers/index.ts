// Picks the message provider the configuration names.
import { withoutTrailingSlashes } from '@blockcatch/sdk';
import type { GatewayConfig } from '../../config.js';
import { createOutboxProvider } from './outbox.js';
import { createTwilioProvider } from './twilio.js';
import type { MessageProvider } from './types.js';

export function createProvider(config: GatewayConfig): MessageProvider {
  if (config.messageProvider === 'outbox') return createOutboxProvider();
  const { accountSid, authToken, from, whatsappFrom, baseUrl } = config.twilio;
  const { messagingServiceSid } = config.twilio;
  const statusCallbackUrl =
    config.twilio.statusCallbackUrl ??
    (config.publicUrl
      ? `${withoutTrailingSlashes(config.publicUrl)}/api/webhooks/twilio/status`
      : undefined);
  // parseConfig already refused twilio without these; this keeps the types honest.
  if (!accountSid || !authToken || !from) {
    throw new Error(
      'The twilio provider needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM.',
    );
  }
  return createTwilioProvider({
    accountSid,
    authToken,
    from,
    baseUrl,
    ...(whatsappFrom ? { whatsappFrom } : {}),
    ...(messagingServiceSid ? { messagingServiceSid } : {}),
    ...(statusCallbackUrl ? { statusCallbackUrl } : {}),
  });
}

/** Whose pace a message takes: the number or messaging service it goes out from. */
export function senderFor(config: GatewayConfig, channel: 'sms' | 'whatsapp'): string {
  if (config.messageProvider === 'outbox') return 'outbox';
  const { from, whatsappFrom, messagingServiceSid } = config.twilio;
  if (channel === 'whatsapp') return `whatsapp:${whatsappFrom ?? from ?? ''}`;
  return messagingServiceSid ?? from ?? '';
}

/**
 * The account sender (codes, alerts, invitations) and marketing's: its own when
 * TWILIO_MARKETING_SENDER is set, else the same one.
 */
export function sendersOf(config: GatewayConfig): { account: string; marketing: string } {
  const account = senderFor(config, 'sms');
  const marketing =
    config.messageProvider === 'twilio' ? (config.twilio.marketingSender ?? account) : account;
  return { account, marketing };
}

/** Segments per second `sender` may take: its own setting, the general one, else the default. */
export function senderRate(config: GatewayConfig, sender: string): number {
  const own = config.senderRates[sender] ?? config.senderRates[sender.replace(/^whatsapp:/, '')];
  if (own !== undefined) return own;
  if (config.sendRate !== undefined) return config.sendRate;
  // A Twilio long code takes 1 segment a second; the outbox is only our own table.
  return config.messageProvider === 'outbox' ? 10 : 1;
}
