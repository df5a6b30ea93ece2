// How fast the catcher acted for one driver over the last day: the accepted offers' timelines
// (docs/architecture.md, "An offer's timeline") and their medians.
import { type LatencySummary, type OfferTimeline, summarizeLatency } from '@blockcatch/sdk';
import type { Queryable } from '../storage/db.js';
import { listAcceptTimelines } from '../storage/driver-offers.js';

const DAY_MS = 86_400_000;
/** Enough accepts for a stable median; a driver rarely accepts more than a few a day. */
const MAX_TIMELINES = 1000;

export async function readLatency(
  db: Queryable,
  userId: string,
  now = Date.now(),
): Promise<LatencySummary> {
  const since = now - DAY_MS;
  const records = await listAcceptTimelines(db, userId, since, MAX_TIMELINES);
  const timelines: OfferTimeline[] = records.map((r) => ({
    offerId: r.offerId,
    kind: r.kind === 'won' ? 'won' : 'gone',
    serviceAreaId: r.serviceAreaId,
    publishedAt: r.publishedAt ?? null,
    seenAt: r.seenAt,
    decidedAt: r.decidedAt ?? null,
    acceptSentAt: r.acceptSentAt ?? null,
    answeredAt: r.answeredAt ?? null,
  }));
  return summarizeLatency(timelines, since);
}
