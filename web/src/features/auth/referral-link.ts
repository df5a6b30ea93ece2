// An invitation link is /register?ref=CODE (the gateway writes it into the friend's text): the
// sign-up form starts with that code, so the inviter is credited without the friend typing it.
import { normalizeReferralCode } from '@blockcatch/sdk';

/** The referral code a link's query string carries, cleaned for the form; '' when none. */
export function referralFromSearch(search: string): string {
  const code = normalizeReferralCode(new URLSearchParams(search).get('ref') ?? '');
  // A code is short; anything longer is not one, and the form should not start with it.
  return code.length <= 32 ? code : '';
}
