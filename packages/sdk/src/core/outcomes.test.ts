import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REFUSAL_REASONS } from './offers.js';
import { type OutcomeCount, REFUSAL_FILTER, reactionBand, summarizeOutcomes } from './outcomes.js';
import { driverFiltersSchema } from './schemas/driver.js';

const countsArb = fc.array(
  fc.oneof(
    fc.record({
      kind: fc.constant('disliked' as const),
      reason: fc.constantFrom(...REFUSAL_REASONS),
      count: fc.integer({ min: 1, max: 500 }),
    }),
    fc.record({
      kind: fc.constantFrom('won' as const, 'gone' as const),
      reason: fc.constant(null),
      count: fc.integer({ min: 1, max: 500 }),
    }),
  ),
  { maxLength: 20 },
);

const WINDOW = { from: 0, to: 86_400_000 };

describe('summarizeOutcomes', () => {
  it('every offer seen is won, lost to a faster driver or refused, and wanted ones are the first two', () => {
    fc.assert(
      fc.property(countsArb, (counts) => {
        const out = summarizeOutcomes(counts, null, WINDOW);
        const total = counts.reduce((sum, c) => sum + c.count, 0);
        expect(out.seen).toBe(total);
        expect(out.won + out.lostToFaster + out.refused).toBe(out.seen);
        expect(out.matching).toBe(out.won + out.lostToFaster);
      }),
    );
  });

  it('lists the reasons that refused the most, most first, counted over every row of each', () => {
    fc.assert(
      fc.property(countsArb, (counts: OutcomeCount[]) => {
        const out = summarizeOutcomes(counts, null, WINDOW);
        const byReason = new Map<string, number>();
        for (const c of counts) {
          if (c.kind === 'disliked')
            byReason.set(c.reason!, (byReason.get(c.reason!) ?? 0) + c.count);
        }
        expect(out.topRefusals.length).toBe(Math.min(3, byReason.size));
        for (const r of out.topRefusals) expect(r.count).toBe(byReason.get(r.reason));
        const listed = new Set(out.topRefusals.map((r) => r.reason));
        const least = Math.min(...out.topRefusals.map((r) => r.count));
        for (const [reason, count] of byReason) {
          if (!listed.has(reason)) expect(count).toBeLessThanOrEqual(least);
        }
        for (let i = 1; i < out.topRefusals.length; i++) {
          expect(out.topRefusals[i - 1]!.count).toBeGreaterThanOrEqual(out.topRefusals[i]!.count);
        }
      }),
    );
  });

  it('links each rule to a filter field the settings really have, except overlap', () => {
    const known = new Set(Object.keys(driverFiltersSchema.shape));
    for (const reason of REFUSAL_REASONS) {
      const filter = REFUSAL_FILTER[reason];
      if (reason === 'overlap') expect(filter).toBeNull();
      else expect(known.has(filter!), reason).toBe(true);
    }
  });

  it('words the reaction time in bands that never get faster as the time grows', () => {
    expect([100, 500, 2000, 9000].map(reactionBand)).toEqual([
      'blink',
      'under-a-second',
      'seconds',
      'slow',
    ]);
    const order = ['blink', 'under-a-second', 'seconds', 'slow'];
    fc.assert(
      fc.property(fc.nat(60_000), fc.nat(60_000), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(order.indexOf(reactionBand(lo))).toBeLessThanOrEqual(
          order.indexOf(reactionBand(hi)),
        );
      }),
    );
  });
});
