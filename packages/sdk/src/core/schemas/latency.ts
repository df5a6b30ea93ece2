// How fast the catcher acts for a driver: each accepted offer's timeline and the medians of the last
// day, as `GET /api/flex/v1/latency` (and the admin's per-driver read) answer them.
import { z } from 'zod';

/** One accepted offer: published by the platform (when it says), first seen, decided, accept sent, answered. */
export const offerTimelineSchema = z.object({
  offerId: z.string(),
  /** The platform's answer to the accept. */
  kind: z.enum(['won', 'gone']),
  serviceAreaId: z.string(),
  publishedAt: z.number().nullable(),
  seenAt: z.number(),
  decidedAt: z.number().nullable(),
  acceptSentAt: z.number().nullable(),
  answeredAt: z.number().nullable(),
});
export type OfferTimeline = z.infer<typeof offerTimelineSchema>;

export const latencySummarySchema = z.object({
  /** The window's start (epoch ms): the last 24 hours. */
  since: z.number(),
  /** Offers accepted in the window (won or gone). */
  accepts: z.number().int(),
  /** From the poll answer that first showed an offer to its accept request leaving. */
  medianSeenToAcceptMs: z.number().nullable(),
  /** From first sight to the platform's answer. */
  medianSeenToAnswerMs: z.number().nullable(),
  /** From the platform publishing an offer to our first sight of it (when the platform says). */
  medianPublishedToSeenMs: z.number().nullable(),
  /** The latest timelines, newest first (at most 20). */
  Items: z.array(offerTimelineSchema),
});
export type LatencySummary = z.infer<typeof latencySummarySchema>;
export const latencyResponseSchema = z.object({ Item: latencySummarySchema });
