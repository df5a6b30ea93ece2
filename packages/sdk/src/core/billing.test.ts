import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BillingEntry,
  cardDigits,
  DUNNING_RETRY_DAYS,
  expirationAfter,
  extendExpiration,
  isGoodStanding,
  nextDunningAttempt,
  passesLuhn,
  paymentStanding,
  refundExpiration,
  refundedWeeks,
  renewExpiration,
  WEEK_MS,
} from './billing.js';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const instant = fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2100-01-01T00:00:00Z') });
const weeks = fc.integer({ min: 1, max: 52 });

describe('extendExpiration', () => {
  it('starts a first payment from now', () => {
    const now = at('2024-03-05T15:00:00Z');
    expect(extendExpiration(null, now, 1)).toBe(at('2024-03-12T15:00:00Z'));
  });

  it('adds to a future expiration instead of now, so paying early loses nothing', () => {
    const now = at('2024-03-05T15:00:00Z');
    const current = at('2024-03-08T09:30:00Z');
    expect(extendExpiration(current, now, 2)).toBe(at('2024-03-22T09:30:00Z'));
  });

  it('starts from now after a lapse, so paying late never back-dates service', () => {
    const now = at('2024-03-05T15:00:00Z');
    expect(extendExpiration(at('2024-01-01T00:00:00Z'), now, 1)).toBe(at('2024-03-12T15:00:00Z'));
  });

  it.each([
    ['a 31-day month end', '2024-01-29T12:00:00Z', 1, '2024-02-05T12:00:00Z'],
    ['February of a leap year', '2024-02-26T23:59:59Z', 1, '2024-03-04T23:59:59Z'],
    ['February of a common year', '2023-02-25T00:00:00Z', 1, '2023-03-04T00:00:00Z'],
    ['a 30-day month end', '2024-04-28T08:00:00Z', 1, '2024-05-05T08:00:00Z'],
    ['the year end', '2024-12-30T18:00:00Z', 1, '2025-01-06T18:00:00Z'],
    ['four weeks over two month ends', '2024-01-31T06:00:00Z', 4, '2024-02-28T06:00:00Z'],
    ['a whole year of weeks', '2024-01-01T00:00:00Z', 52, '2024-12-30T00:00:00Z'],
  ])('runs across %s to the same UTC time of day', (_what, from, n, to) => {
    expect(extendExpiration(at(from), at(from) - HOUR, n)).toBe(at(to));
  });

  it('keeps weeks 168 hours long across daylight-saving changes (the local hour moves)', () => {
    // 9 pm EST on 2024-03-07 is 02:00Z; the clocks spring forward on 03-10 (EDT, UTC-4).
    const springFrom = at('2024-03-08T02:00:00Z');
    const spring = extendExpiration(springFrom, springFrom, 1);
    expect(spring - springFrom).toBe(168 * HOUR);
    expect(new Date(spring).toISOString()).toBe('2024-03-15T02:00:00.000Z'); // 10 pm EDT
    // 9 pm EDT on 2024-10-31 is 01:00Z; the clocks fall back on 11-03 (EST, UTC-5).
    const fallFrom = at('2024-11-01T01:00:00Z');
    const fall = extendExpiration(fallFrom, fallFrom, 1);
    expect(fall - fallFrom).toBe(168 * HOUR);
    expect(new Date(fall).toISOString()).toBe('2024-11-08T01:00:00.000Z'); // 8 pm EST
  });

  it('adds exactly the weeks bought to the later of now and the expiration', () => {
    fc.assert(
      fc.property(fc.option(instant, { nil: null }), instant, weeks, (current, now, n) => {
        const next = extendExpiration(current, now, n);
        expect(next - Math.max(current ?? now, now)).toBe(n * WEEK_MS);
      }),
    );
  });

  it('always leaves the driver in good standing, and never shortens service', () => {
    fc.assert(
      fc.property(fc.option(instant, { nil: null }), instant, weeks, (current, now, n) => {
        const next = extendExpiration(current, now, n);
        expect(isGoodStanding(next, now)).toBe(true);
        expect(next).toBeGreaterThan(current ?? Number.NEGATIVE_INFINITY);
      }),
    );
  });

  it('gives the same expiration for one payment of a+b weeks as for two of a and b', () => {
    fc.assert(
      fc.property(
        fc.option(instant, { nil: null }),
        instant,
        weeks,
        weeks,
        (current, now, a, b) => {
          const once = extendExpiration(current, now, a + b);
          const twice = extendExpiration(extendExpiration(current, now, a), now, b);
          expect(twice).toBe(once);
        },
      ),
    );
  });

  it('refuses a fractional or negative number of weeks', () => {
    expect(() => extendExpiration(null, 0, 1.5)).toThrow(RangeError);
    expect(() => extendExpiration(null, 0, -1)).toThrow(RangeError);
  });
});

describe('standing', () => {
  const now = at('2024-06-01T12:00:00Z');
  it('is good only while the expiration is ahead', () => {
    expect(isGoodStanding(null, now)).toBe(false);
    expect(isGoodStanding(now, now)).toBe(false);
    expect(isGoodStanding(now + 1, now)).toBe(true);
  });

  it('reads as unpaid, expired, expiring within a day, or paid', () => {
    expect(paymentStanding(null, now)).toBe('unpaid');
    expect(paymentStanding(now - 1, now)).toBe('expired');
    expect(paymentStanding(now + 23 * HOUR, now)).toBe('expiring');
    expect(paymentStanding(now + 3 * 24 * HOUR, now)).toBe('paid');
  });
});

describe('card numbers', () => {
  it('accepts the sandbox test cards typed with spaces', () => {
    for (const card of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000-0000-0000-3220']) {
      const digits = cardDigits(card);
      expect(digits).not.toBeNull();
      expect(passesLuhn(digits ?? '')).toBe(true);
    }
  });

  it('catches any single mistyped digit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 9 }), (pos, delta) => {
        const digits = '4242424242424242'.split('');
        digits[pos] = String((Number(digits[pos]) + delta) % 10);
        expect(passesLuhn(digits.join(''))).toBe(false);
      }),
    );
  });

  it('refuses letters and numbers of the wrong length', () => {
    expect(cardDigits('4242 4242 4242 424x')).toBeNull();
    expect(cardDigits('4242')).toBeNull();
  });
});

describe('renewals, credits and refunds', () => {
  it('n on-time renewals move the end by exactly n weeks, whenever in the week each is paid', () => {
    fc.assert(
      fc.property(
        instant,
        fc.array(fc.integer({ min: 0, max: WEEK_MS - 1 }), { maxLength: 60 }),
        (start, earlyBy) => {
          // Renewal i is paid before the current end (Stripe bills at the period end or earlier).
          let end = start;
          for (const early of earlyBy) end = renewExpiration(end, end - early);
          expect(end).toBe(start + earlyBy.length * WEEK_MS);
        },
      ),
    );
  });

  it('a week of credit moves the end exactly as a paid renewal does', () => {
    fc.assert(
      fc.property(fc.option(instant, { nil: null }), instant, (current, now) => {
        const credited = expirationAfter(current, [{ kind: 'credit', at: now }]);
        expect(credited).toBe(renewExpiration(current, now));
        expect(credited).toBe(extendExpiration(current, now, 1));
      }),
    );
  });

  it('refunding the weeks a payment bought gives back the end it started from (or now)', () => {
    fc.assert(
      fc.property(fc.option(instant, { nil: null }), instant, weeks, (current, now, n) => {
        const paid = extendExpiration(current, now, n);
        const back = refundExpiration(paid, n);
        expect(back).toBe(current === null ? now : Math.max(current, now));
      }),
    );
  });

  it('any mix of payments, renewals, credits and refunds adds up week by week', () => {
    const step = fc.record({
      gap: fc.integer({ min: 0, max: 3 * 86_400_000 }),
      kind: fc.constantFrom('payment', 'renewal', 'credit', 'refund'),
      weeks: fc.integer({ min: 1, max: 4 }),
    });
    fc.assert(
      fc.property(instant, weeks, fc.array(step, { maxLength: 40 }), (t0, first, steps) => {
        // Entries at rising times, none after a lapse: while the driver stays paid up, the end is
        // the start plus every week added minus every week refunded.
        let at = t0;
        const entries: BillingEntry[] = [{ kind: 'payment', at, weeks: first }];
        let added = first;
        for (const s of steps) {
          at += s.gap;
          // A step at or after the current end would follow a lapse, where time restarts at `at`.
          if ((expirationAfter(t0, entries) ?? 0) <= at) continue;
          const e: BillingEntry =
            s.kind === 'payment'
              ? { kind: 'payment', at, weeks: s.weeks }
              : s.kind === 'refund'
                ? { kind: 'refund', weeks: s.weeks }
                : { kind: s.kind, at };
          const after = expirationAfter(t0, [...entries, e]) ?? 0;
          if (after <= at + 3 * 86_400_000) continue;
          entries.push(e);
          added += e.kind === 'payment' ? e.weeks : e.kind === 'refund' ? -e.weeks : 1;
        }
        expect(expirationAfter(t0, entries)).toBe(t0 + added * WEEK_MS);
      }),
    );
  });

  it('never extends an end to before now plus the weeks bought', () => {
    fc.assert(
      fc.property(fc.option(instant, { nil: null }), instant, weeks, (current, now, n) => {
        const end = extendExpiration(current, now, n);
        expect(end).toBeGreaterThanOrEqual(now + n * WEEK_MS);
        if (current !== null) expect(end).toBeGreaterThanOrEqual(current + n * WEEK_MS);
      }),
    );
  });

  it('counts whole refunded weeks only, never more than were bought', () => {
    fc.assert(
      fc.property(weeks, fc.integer({ min: 1, max: 100_000 }), fc.nat(), (n, unit, refunded) => {
        const amount = n * unit;
        const back = refundedWeeks(Math.min(refunded, amount), amount, n);
        expect(back).toBeGreaterThanOrEqual(0);
        expect(back).toBeLessThanOrEqual(n);
        expect(back * unit).toBeLessThanOrEqual(Math.min(refunded, amount));
        expect(refundedWeeks(amount, amount, n)).toBe(n);
        expect(refundedWeeks((n - 1) * unit + unit - 1, amount, n)).toBe(n - 1);
      }),
    );
    expect(refundedWeeks(500, 0, 1)).toBe(0);
  });

  it('retries a failed renewal on a rising schedule inside the paid week, then stops', () => {
    fc.assert(
      fc.property(instant, (failedAt) => {
        const times: number[] = [];
        for (let attempts = 1; ; attempts++) {
          const next = nextDunningAttempt(failedAt, attempts);
          if (next === null) break;
          times.push(next);
        }
        expect(times).toHaveLength(DUNNING_RETRY_DAYS.length);
        expect([...times].sort((a, b) => a - b)).toEqual(times);
        expect(new Set(times).size).toBe(times.length);
        for (const t of times) {
          expect(t).toBeGreaterThan(failedAt);
          expect(t).toBeLessThan(failedAt + WEEK_MS);
        }
      }),
    );
  });
});
