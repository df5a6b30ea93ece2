// Referral codes people read aloud and type from an SMS: six characters from an alphabet without
// look-alikes (no 0/O, 1/I/L), about 887 million codes. The gateway draws them; the sign-up form,
// the SDK and the gateway all read a typed or linked code with the rules below.

export const REFERRAL_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const REFERRAL_CODE_LENGTH = 6;

/** A code as typed or carried by an invitation link, trimmed and upper-cased ('' for none). */
export function normalizeReferralCode(text: string): string {
  return text.trim().toUpperCase();
}

/** Whether a normalised code can be one: `REFERRAL_CODE_LENGTH` characters of the alphabet. */
export function isReferralCode(code: string): boolean {
  if (code.length !== REFERRAL_CODE_LENGTH) return false;
  for (const c of code) if (!REFERRAL_ALPHABET.includes(c)) return false;
  return true;
}
