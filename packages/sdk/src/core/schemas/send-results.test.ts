import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SendJobOutcome, weeklyResults, weekOf } from './send-results.js';

const DAY = 86_400_000;
const FROM = Date.UTC(2026, 0, 5);
const TO = Date.UTC(2026, 5, 28);

const outcome = fc.record({
  jobId: fc.uuid(),
  createdAt: fc.integer({ min: FROM, max: TO }),
  channel: fc.constantFrom('sms' as const, 'whatsapp' as const),
  body: fc.string(),
  recipients: fc.nat(100_000),
  delivered: fc.nat(100_000),
  failed: fc.nat(1000),
  failedByReason: fc.dictionary(fc.constantFrom('30003', '30005', 'failed'), fc.nat(100)),
  optedOut: fc.nat(100),
  clicks: fc.nat(1000),
  conversions: fc.nat(100),
  revenue: fc.integer({ min: 0, max: 1_000_000 }).map((c) => c / 100),
  cost: fc.integer({ min: 0, max: 1_000_000 }).map((c) => c / 100),
  final: fc.boolean(),
}) satisfies fc.Arbitrary<SendJobOutcome>;

describe('weekOf', () => {
  it('names the Monday on or before the day, in UTC', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000_000 }), (ts) => {
        const monday = Date.parse(`${weekOf(ts)}T00:00:00Z`);
        expect(new Date(monday).getUTCDay()).toBe(1);
        expect(ts - monday).toBeGreaterThanOrEqual(0);
        expect(ts - monday).toBeLessThan(7 * DAY);
      }),
    );
    expect(weekOf(Date.UTC(2026, 10, 26, 23, 59))).toBe('2026-11-23');
  });
});

describe('weeklyResults', () => {
  it('lists every week of the range once, in order, and loses no send, recipient, click or dollar', () => {
    fc.assert(
      fc.property(fc.array(outcome, { maxLength: 40 }), (sends) => {
        const weeks = weeklyResults(sends, FROM, TO);
        expect(weeks.map((w) => w.week)).toEqual([...new Set(weeks.map((w) => w.week))].sort());
        expect(weeks).toHaveLength(25);
        type Counts = { delivered: number; optedOut: number; clicks: number; conversions: number };
        const sum = (f: (x: Counts) => number, xs: Counts[]) => xs.reduce((a, x) => a + f(x), 0);
        expect(weeks.reduce((a, w) => a + w.sends, 0)).toBe(sends.length);
        expect(sum((x) => x.delivered, weeks)).toBe(sum((x) => x.delivered, sends));
        expect(sum((x) => x.optedOut, weeks)).toBe(sum((x) => x.optedOut, sends));
        expect(sum((x) => x.clicks, weeks)).toBe(sum((x) => x.clicks, sends));
        expect(sum((x) => x.conversions, weeks)).toBe(sum((x) => x.conversions, sends));
        const revenue = sends.reduce((a, s) => a + s.revenue, 0);
        expect(Math.abs(weeks.reduce((a, w) => a + w.revenue, 0) - revenue)).toBeLessThan(0.01);
        const cost = sends.reduce((a, s) => a + s.cost, 0);
        expect(Math.abs(weeks.reduce((a, w) => a + w.cost, 0) - cost)).toBeLessThan(0.01);
      }),
    );
  });
});
