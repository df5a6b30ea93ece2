// The text a friend gets when a driver invites them: the inviter's name and the sign-up link, in
// the inviter's language (the friend has no profile yet), from the shared catalogues.
import en from '../../../../locales/en.json' with { type: 'json' };
import es from '../../../../locales/es.json' with { type: 'json' };
import type { GatewayConfig } from '../config.js';

/** Long enough for a full name, short enough that the text stays a couple of segments. */
const MAX_NAME = 40;

export function invitationMessage(invite: {
  inviterName: string;
  language: string | undefined;
  referralCode: string;
  config: Pick<GatewayConfig, 'publicUrl' | 'host' | 'port'>;
}): string {
  const template = invite.language?.startsWith('es') ? es.sms.invitation : en.sms.invitation;
  const base = invite.config.publicUrl ?? `http://${invite.config.host}:${invite.config.port}`;
  const link = `${base}/register?ref=${encodeURIComponent(invite.referralCode)}`;
  const name = invite.inviterName.replace(/\s+/g, ' ').trim().slice(0, MAX_NAME) || 'BlockCatch';
  return template.replace('{{name}}', name).replace('{{link}}', link);
}
