// The text a friend gets when a driver invites them: the inviter's first name and the sign-up link,
// in the inviter's language (the friend has no profile yet), from the shared catalogues. The friend
// is not a user, so no word the inviter chose goes out unchecked: a name the SDK's
// invitationFirstName leaves out (a link, a domain, an email, a number) makes it "A friend".
import { invitationFirstName } from '@blockcatch/sdk';
import en from '../../../../locales/en.json' with { type: 'json' };
import es from '../../../../locales/es.json' with { type: 'json' };
import { appBaseUrl, type GatewayConfig } from '../config.js';

export function invitationMessage(invite: {
  inviterName: string;
  language: string | undefined;
  referralCode: string;
  config: Pick<GatewayConfig, 'publicUrl' | 'host' | 'port'>;
}): string {
  const sms = invite.language?.startsWith('es') ? es.sms : en.sms;
  const base = appBaseUrl(invite.config);
  const link = `${base}/register?ref=${encodeURIComponent(invite.referralCode)}`;
  const name = invitationFirstName(invite.inviterName);
  // Replaced by functions: a replacement string would read `$&` and its kin as patterns.
  const template = name === null ? sms.invitationFromFriend : sms.invitation;
  return template.replace('{{name}}', () => name ?? '').replace('{{link}}', () => link);
}
