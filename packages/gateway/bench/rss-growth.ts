// Whether a process's RSS stayed flat over a run, from samples taken at a steady interval. The
// JavaScript heap fills with garbage between collections, so RSS rises and falls by up to a hundred
// MB every minute or so; one sample against the largest after it measures where that sample fell
// in the swing, not a leak. Growth is both the largest and the smallest RSS of the last third
// against those of the first: a leak raises both.

export interface RssGrowth {
  /** The samples compared: first and last third, after the warm-up. */
  first: readonly number[];
  last: readonly number[];
  /** Largest of the last third over largest of the first, minus one; the same for the smallest. */
  peak: number;
  trough: number;
  /** Largest minus smallest over the samples compared, in the samples' unit. */
  swing: number;
}

export function rssGrowth(samples: readonly number[], warmUpSamples: number): RssGrowth {
  const settled = samples.slice(Math.min(warmUpSamples, Math.max(0, samples.length - 2)));
  const third = Math.max(1, Math.floor(settled.length / 3));
  const first = settled.slice(0, third);
  const last = settled.slice(-third);
  const grew = (before: number, after: number) => (before > 0 ? (after - before) / before : 0);
  return {
    first,
    last,
    peak: grew(Math.max(...first), Math.max(...last)),
    trough: grew(Math.min(...first), Math.min(...last)),
    swing: settled.length > 0 ? Math.max(...settled) - Math.min(...settled) : 0,
  };
}

export const percent = (n: number) => `${n >= 0 ? '+' : ''}${(100 * n).toFixed(1)}%`;
