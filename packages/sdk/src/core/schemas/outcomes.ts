// What the catcher made of the offers a driver was shown over a day and a week: the answers of
// `GET /api/flex/v1/outcomes` and of the admin's per-driver and all-driver reads.
import { z } from 'zod';

/** One refusal reason and how many offers it refused, with the filter field that decides it. */
export const refusalCountSchema = z.object({
  reason: z.string(),
  count: z.number(),
  /** The filter field that would let such offers through (a settings field name), or null. */
  filter: z.string().nullable(),
});
export type RefusalCount = z.infer<typeof refusalCountSchema>;

export const REACTION_BANDS = ['blink', 'under-a-second', 'seconds', 'slow'] as const;
export type ReactionBand = (typeof REACTION_BANDS)[number];

export const outcomeWindowSchema = z.object({
  /** [from, to) in epoch ms, by when each offer was first seen. */
  from: z.number(),
  to: z.number(),
  seen: z.number(),
  /** Offers the filters wanted: won, or lost to a faster driver. */
  matching: z.number(),
  won: z.number(),
  /** Wanted, but another driver took it before our accept. */
  lostToFaster: z.number(),
  refused: z.number(),
  /** The reasons that refused the most, most first (at most `TOP_REFUSALS`). */
  topRefusals: z.array(refusalCountSchema),
  /** Median time from first sight to the accept sent, over accepted offers; null with none. */
  medianReactionMs: z.number().nullable(),
  /** The median in words: a band the client words in the reader's language. */
  reaction: z.enum(REACTION_BANDS).nullable(),
});
export type OutcomeWindow = z.infer<typeof outcomeWindowSchema>;

export const outcomesResponseSchema = z.object({
  Item: z.object({ day: outcomeWindowSchema, week: outcomeWindowSchema }),
});
export type Outcomes = z.infer<typeof outcomesResponseSchema>['Item'];
