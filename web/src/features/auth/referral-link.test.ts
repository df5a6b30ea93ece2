import { describe, expect, it } from 'vitest';
import { referralFromSearch } from './referral-link.js';

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
