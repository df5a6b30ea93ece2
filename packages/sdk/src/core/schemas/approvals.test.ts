import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvalReasonFor } from './approvals.js';

describe('approvalReasonFor', () => {
  it('holds every WhatsApp send, whatever its size or the threshold', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 10_000_000 }), (n, threshold) => {
        expect(approvalReasonFor('whatsapp', n, { threshold, whatsapp: true })).toBe(
          'whatsapp-marketing',
        );
      }),
    );
  });

  it('holds an SMS send, or WhatsApp with that rule off, exactly when it has more recipients than the threshold', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 10_000_000 }), (n, threshold) => {
        const expected = n > threshold ? 'size' : null;
        expect(approvalReasonFor('sms', n, { threshold, whatsapp: true })).toBe(expected);
        expect(approvalReasonFor('whatsapp', n, { threshold, whatsapp: false })).toBe(expected);
      }),
    );
    expect(approvalReasonFor('sms', 1000, { threshold: 1000, whatsapp: true })).toBeNull();
    expect(approvalReasonFor('sms', 1001, { threshold: 1000, whatsapp: true })).toBe('size');
  });
});
