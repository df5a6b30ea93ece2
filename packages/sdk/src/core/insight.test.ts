import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insightSuggestion } from './insight.js';
import type { InsightFigure } from './schemas/insight.js';

const figureArb = fc
  .record({
    station: fc.constantFrom('DAU1', 'DHO2'),
    hourOfWeek: fc.integer({ min: 0, max: 167 }),
    drivers: fc.integer({ min: 5, max: 50 }),
    offers: fc.integer({ min: 1, max: 200 }),
    low: fc.integer({ min: 1500, max: 3500 }),
    spread: fc.integer({ min: 0, max: 1500 }),
  })
  .map(
    ({ low, spread, ...f }): InsightFigure => ({
      ...f,
      payPerHourLow: low / 100,
      payPerHourHigh: (low + spread) / 100,
      takenFirstShare: null,
    }),
  );

describe('insightSuggestion', () => {
  it('says Saturday morning at DAU1 paid $24–31 and a $35 minimum caught none', () => {
    const saturday8 = 5 * 24 + 8;
    const figures: InsightFigure[] = [
      {
        station: 'DAU1',
        hourOfWeek: saturday8,
        drivers: 9,
        offers: 40,
        payPerHourLow: 24,
        payPerHourHigh: 31,
        takenFirstShare: 0.5,
      },
      {
        station: 'DAU1',
        hourOfWeek: 10,
        drivers: 6,
        offers: 3,
        payPerHourLow: 40,
        payPerHourHigh: 45,
        takenFirstShare: null,
      },
    ];
    expect(insightSuggestion(figures, 'DAU1', 35)).toEqual({
      station: 'DAU1',
      weekday: 5,
      hour: 8,
      low: 24,
      high: 31,
      verdict: 'none',
      offers: 40,
    });
    expect(insightSuggestion(figures, 'DAU1', 27)?.verdict).toBe('some');
    expect(insightSuggestion(figures, 'DAU1', 20)?.verdict).toBe('most');
    expect(insightSuggestion(figures, 'DHO2', 20)).toBeNull();
  });

  it("speaks of the station's busiest hour, and a higher minimum never catches more", () => {
    const order = ['most', 'some', 'none'];
    fc.assert(
      fc.property(
        fc.array(figureArb, { maxLength: 30 }),
        fc.nat(60),
        fc.nat(60),
        (figures, a, b) => {
          const s = insightSuggestion(figures, 'DAU1', Math.min(a, b));
          const mine = figures.filter((f) => f.station === 'DAU1');
          if (mine.length === 0) {
            expect(s).toBeNull();
          } else {
            expect(s!.offers).toBe(Math.max(...mine.map((f) => f.offers)));
            const higher = insightSuggestion(figures, 'DAU1', Math.max(a, b))!;
            expect(order.indexOf(higher.verdict)).toBeGreaterThanOrEqual(order.indexOf(s!.verdict));
          }
        },
      ),
    );
  });
});
