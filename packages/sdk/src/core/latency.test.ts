import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { median, summarizeLatency } from './latency.js';

describe('median', () => {
  it('is null for nothing, the middle for an odd count, the mean of the two middles for an even one', () => {
    expect(median([])).toBeNull();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('lies between the smallest and largest value and ignores order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1e6 }), { minLength: 1 }), (values) => {
        const m = median(values)!;
        expect(m).toBeGreaterThanOrEqual(Math.min(...values));
        expect(m).toBeLessThanOrEqual(Math.max(...values));
        expect(median([...values].reverse())).toBe(m);
      }),
    );
  });
});

describe('summarizeLatency', () => {
  it('measures from first sight to the accept leaving and to the answer, skipping missing steps', () => {
    const timeline = (seenAt: number, sent: number | null, answered: number | null) => ({
      offerId: `o${seenAt}`,
      kind: 'won' as const,
      serviceAreaId: 'DAU1',
      publishedAt: seenAt - 100,
      seenAt,
      decidedAt: sent,
      acceptSentAt: sent,
      answeredAt: answered,
    });
    const summary = summarizeLatency(
      [timeline(1000, 1002, 1030), timeline(2000, 2004, 2050), timeline(3000, null, null)],
      0,
    );
    expect(summary).toMatchObject({
      accepts: 3,
      medianSeenToAcceptMs: 3,
      medianSeenToAnswerMs: 40,
      medianPublishedToSeenMs: 100,
    });
    expect(summarizeLatency([], 0).medianSeenToAcceptMs).toBeNull();
  });
});
