// The latency figures the dashboards show, from offers' timelines: medians of the steps we control
// (first sight to accept sent) and of the whole round (to the platform's answer).
import type { LatencySummary, OfferTimeline } from './schemas/latency.js';

/** The middle value (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const gaps = (
  timelines: readonly OfferTimeline[],
  from: (t: OfferTimeline) => number | null,
  to: (t: OfferTimeline) => number | null,
) =>
  timelines.flatMap((t) => {
    const a = from(t);
    const b = to(t);
    return a === null || b === null ? [] : [Math.max(0, b - a)];
  });

/** Medians over `timelines` (the window's accepted offers); `latest` is what the list shows. */
export function summarizeLatency(
  timelines: readonly OfferTimeline[],
  since: number,
  latest = 20,
): LatencySummary {
  return {
    since,
    accepts: timelines.length,
    medianSeenToAcceptMs: median(
      gaps(
        timelines,
        (t) => t.seenAt,
        (t) => t.acceptSentAt,
      ),
    ),
    medianSeenToAnswerMs: median(
      gaps(
        timelines,
        (t) => t.seenAt,
        (t) => t.answeredAt,
      ),
    ),
    medianPublishedToSeenMs: median(
      gaps(
        timelines,
        (t) => t.publishedAt,
        (t) => t.seenAt,
      ),
    ),
    Items: timelines.slice(0, latest),
  };
}
