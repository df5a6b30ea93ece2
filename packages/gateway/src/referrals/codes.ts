// Referral codes people read aloud and type from an SMS: six characters from an alphabet without
// look-alikes (no 0/O, 1/I/L), about 887 million codes, so a clash is rare and simply retried.
import { randomInt } from 'node:crypto';

export const REFERRAL_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const REFERRAL_CODE_LENGTH = 6;

export function generateReferralCode(): string {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i++) {
    code += REFERRAL_ALPHABET[randomInt(REFERRAL_ALPHABET.length)];
  }
  return code;
}
