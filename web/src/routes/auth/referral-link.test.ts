import { describe, expect, it } from 'vitest';
import { isReferralCode, referralFromSearch } from './referral-link.js';

describe('the referral code of an invitation link', () => {
  it('is read from ?ref=, trimmed and upper-cased', () => {
    expect(referralFromSearch('?ref=7kq2xw')).toBe('7KQ2XW');
    expect(referralFromSearch('?lang=es&ref=%207KQ2XW%20')).toBe('7KQ2XW');
  });

  it('is empty without one, or when the value cannot be a code', () => {
    expect(referralFromSearch('')).toBe('');
    expect(referralFromSearch('?ref=')).toBe('');
    expect(referralFromSearch(`?ref=${'A'.repeat(40)}`)).toBe('');
  });
});

describe('a referral code on the form', () => {
  it('is 6 characters from the code alphabet (no 0, 1, I, L or O)', () => {
    expect(isReferralCode('7KQ2XW')).toBe(true);
    expect(isReferralCode('7KQ2X')).toBe(false);
    expect(isReferralCode('7KQ2XO')).toBe(false);
  });
});
