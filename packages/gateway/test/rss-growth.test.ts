// The benches' "flat" verdict on RSS (bench/rss-growth.ts): the heap's rise and fall between
// collections must not read as growth, and a steady leak must, wherever the samples start.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  GOAL_RSS_GROWTH,
  RSS_SAMPLE_SECONDS,
  RSS_WARM_UP_SECONDS,
  rssGrowth,
} from '../bench/rss-growth.js';

const WARM_UP_SAMPLES = RSS_WARM_UP_SECONDS / RSS_SAMPLE_SECONDS;

/** A sawtooth: a base, a heap that fills by `step` a sample up to `swing`, then is collected. */
function sawtooth(base: number, swing: number, step: number, phase: number, count: number) {
  return Array.from({ length: count }, (_, i) => base + ((phase + i * step) % swing));
}

/**
 * Samples after the warm-up such that each third holds at least one whole swing: a shorter third
 * can fall on a swing's low or high part alone, which is why the soak runs ten minutes. A leak test
 * without it failed: base 200, swing 117, 5 MB a sample, 24 samples hid the rise.
 */
function settledSamples(swing: number, step: number, extra: number): number {
  return 3 * Math.ceil(swing / step) + extra;
}

/** Base MB, swing MB, MB the heap fills by a sample, where in the swing the samples start. */
const SAWTOOTH = [
  fc.integer({ min: 200, max: 600 }),
  fc.integer({ min: 20, max: 150 }),
  fc.integer({ min: 5, max: 20 }),
  fc.integer({ min: 0, max: 1000 }),
] as const;

it('calls a heap that fills and is collected flat, wherever its samples start in the swing', () => {
  fc.assert(
    fc.property(...SAWTOOTH, fc.integer({ min: 0, max: 60 }), (base, swing, step, phase, extra) => {
      const settled = settledSamples(swing, step, extra);
      const samples = sawtooth(base, swing, step, phase, WARM_UP_SAMPLES + settled);
      const growth = rssGrowth(samples);
      expect(growth?.met).toBe(true);
    }),
  );
});

it('calls a leak that raises the whole sawtooth by more than the goal growth', () => {
  fc.assert(
    fc.property(...SAWTOOTH, fc.integer({ min: 0, max: 60 }), (base, swing, step, phase, extra) => {
      const settled = settledSamples(swing, step, extra);
      const count = WARM_UP_SAMPLES + settled;
      // Over the settled samples the floor rises by three times the goal, steadily.
      const perSample = (3 * GOAL_RSS_GROWTH * (base + swing)) / settled;
      const samples = sawtooth(base, swing, step, phase, count).map(
        (mb, i) => mb + Math.max(0, i - WARM_UP_SAMPLES) * perSample,
      );
      expect(rssGrowth(samples)?.met).toBe(false);
    }),
  );
});

it('does not judge a run with too few samples after the warm-up', () => {
  expect(rssGrowth(Array(WARM_UP_SAMPLES + 2).fill(300))).toBeNull();
  expect(rssGrowth(Array(WARM_UP_SAMPLES + 3).fill(300))?.met).toBe(true);
});
