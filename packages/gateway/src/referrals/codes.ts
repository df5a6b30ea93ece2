// Referral codes are drawn here, with the server's cryptographic randomness; what a code is (its
// alphabet without look-alikes, its length) is the SDK's rule, shared with the sign-up form.
import { randomInt } from 'node:crypto';
import { REFERRAL_ALPHABET, REFERRAL_CODE_LENGTH } from '@blockcatch/sdk';

export function generateReferralCode(): string {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i++) {
    code += REFERRAL_ALPHABET[randomInt(REFERRAL_ALPHABET.length)];
  }
  return code;
}
