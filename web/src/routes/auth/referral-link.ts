// An invitation link is /register?ref=CODE (the gateway writes it into the friend's text): the
// sign-up form starts with that code, so the inviter is credited without the friend typing it.

/** The referral code a link's query string carries, cleaned for the form; '' when none. */
export function referralFromSearch(search: string): string {
  const raw = new URLSearchParams(search).get('ref') ?? '';
  // A code is short; anything longer is not one, and the form should not start with it.
  const code = raw.trim().toUpperCase();
  return code.length > 0 && code.length <= 32 ? code : '';
}

/** Whether the form's code can be a referral code: 6 characters without look-alike letters. */
export const isReferralCode = (code: string): boolean => /^[2-9A-HJKMNP-Z]{6}$/.test(code);
