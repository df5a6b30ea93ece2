// Picks the message provider the configuration names.
import type { GatewayConfig } from '../../config.js';
import { createOutboxProvider } from './outbox.js';
import { createTwilioProvider } from './twilio.js';
import type { MessageProvider } from './types.js';

export function createProvider(config: GatewayConfig): MessageProvider {
  if (config.messageProvider === 'outbox') return createOutboxProvider();
  const { accountSid, authToken, from, whatsappFrom, baseUrl } = config.twilio;
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
  });
}
