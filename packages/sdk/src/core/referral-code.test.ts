import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isReferralCode,
  normalizeReferralCode,
  REFERRAL_ALPHABET,
  REFERRAL_CODE_LENGTH,
} from './referral-code.js';

const code = fc
  .array(fc.constantFrom(...REFERRAL_ALPHABET), {
    minLength: REFERRAL_CODE_LENGTH,
    maxLength: REFERRAL_CODE_LENGTH,
  })
  .map((chars) => chars.join(''));

describe('referral codes', () => {
  it('accepts every code of the alphabet, however it was typed', () => {
    fc.assert(
      fc.property(code, fc.constantFrom('', ' ', '\t'), (c, pad) => {
        expect(isReferralCode(normalizeReferralCode(`${pad}${c.toLowerCase()}${pad}`))).toBe(true);
      }),
    );
  });

  it('refuses a code with a look-alike or any other character, or of another length', () => {
    fc.assert(
      fc.property(
        code,
        fc.nat(REFERRAL_CODE_LENGTH - 1),
        fc.constantFrom('0', 'O', '1', 'I', 'L', '-', ' ', 'É'),
        (c, at, bad) => {
          expect(isReferralCode(c.slice(0, at) + bad + c.slice(at + 1))).toBe(false);
        },
      ),
    );
    expect(isReferralCode('7KQ2X')).toBe(false);
    expect(isReferralCode('7KQ2XWW')).toBe(false);
    expect(isReferralCode('')).toBe(false);
  });
});
