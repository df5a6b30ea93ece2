// Whether a process's RSS stayed flat over a run, from samples taken at a fixed interval. The
// JavaScript heap fills with garbage between collections, so RSS rises and falls by up to a hundred
// MB every minute or two; one sample against the largest after it measures where that first sample
// fell in the swing. So the first and the last third of the samples after a warm-up are compared:
// both the largest and the smallest of the last against those of the first, since a leak raises
// both. It holds when each third spans a whole swing: the soak's do; in a three-minute mixed load
// a third is 40 s, and a slower swing can still read as growth.

/** Caches built and the send under way: the mixed load's RSS is compared after this. */
export const RSS_WARM_UP_SECONDS = 60;
/** The mixed load samples the gateway's RSS this often. */
export const RSS_SAMPLE_SECONDS = 5;
/** Flat: the last third's largest and smallest each within this of the first third's. */
export const GOAL_RSS_GROWTH = 0.1;

export interface RssGrowth {
  /** Seconds in each third compared. */
  thirdSeconds: number;
  first: { min: number; max: number };
  last: { min: number; max: number };
  peakGrowth: number;
  troughGrowth: number;
  /** Largest minus smallest after the warm-up. */
  swingMb: number;
  met: boolean;
}

/** Null when too few samples follow the warm-up to compare thirds (fewer than three). */
export function rssGrowth(samplesMb: readonly number[]): RssGrowth | null {
  const settled = samplesMb.slice(Math.ceil(RSS_WARM_UP_SECONDS / RSS_SAMPLE_SECONDS));
  if (settled.length < 3) return null;
  const third = Math.floor(settled.length / 3);
  const first = settled.slice(0, third);
  const last = settled.slice(-third);
  const grew = (before: number, after: number) => (before > 0 ? (after - before) / before : 0);
  const peakGrowth = grew(Math.max(...first), Math.max(...last));
  const troughGrowth = grew(Math.min(...first), Math.min(...last));
  return {
    thirdSeconds: third * RSS_SAMPLE_SECONDS,
    first: { min: Math.min(...first), max: Math.max(...first) },
    last: { min: Math.min(...last), max: Math.max(...last) },
    peakGrowth,
    troughGrowth,
    swingMb: Math.max(...settled) - Math.min(...settled),
    met: peakGrowth < GOAL_RSS_GROWTH && troughGrowth < GOAL_RSS_GROWTH,
  };
}

/** The comparison as one line's text, with its verdict. */
export function describeRssGrowth(growth: RssGrowth | null): string {
  const goal = `goal: flat, each < ${100 * GOAL_RSS_GROWTH}%`;
  if (!growth) {
    return `too short a run to compare thirds after the ${RSS_WARM_UP_SECONDS} s warm-up [${goal}: not judged]`;
  }
  const pct = (n: number) => `${n >= 0 ? '+' : ''}${(100 * n).toFixed(1)}%`;
  return `${growth.thirdSeconds} s thirds: first ${growth.first.min}–${growth.first.max} MB, last ${growth.last.min}–${growth.last.max} MB; largest ${pct(growth.peakGrowth)}, smallest ${pct(growth.troughGrowth)} [${goal}: ${growth.met ? 'met' : 'NOT met'}]; the swing between collections: ${growth.swingMb} MB`;
}
