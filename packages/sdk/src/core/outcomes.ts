// A driver's outcomes from counts of recorded offers: how many were seen, wanted, won, lost to a
// faster driver, refused and by which rules (the top ones, each with the filter that decides it),
// and the reaction time in a band that reads as plain words. Pure: the gateway counts in SQL.
import type { RefusalReason } from './offers.js';
import type { OutcomeWindow, ReactionBand, RefusalCount } from './schemas/outcomes.js';

/** How many refusal reasons an outcome lists. */
const TOP_REFUSALS = 3;

/** The filter field each rule reads: where a driver goes to let such offers through. */
export const REFUSAL_FILTER: Record<RefusalReason, string | null> = {
  // A warehouse is chosen, not loosened: the list of warehouses.
  warehouse: 'warehouses',
  'hourly-pay': 'minHourlyPay',
  'block-pay': 'minBlockPay',
  'time-buffer': 'timeBufferMinutes',
  schedule: 'weeklySchedule',
  // Overlap protects blocks already won: no filter lets it through.
  overlap: null,
  'block-length': 'maxBlockHours',
  'hours-per-day': 'maxHoursPerDay',
  'hours-per-week': 'maxHoursPerWeek',
};

/** One row of the count: offers of a kind (and, for disliked ones, a reason). */
export interface OutcomeCount {
  kind: 'won' | 'disliked' | 'gone';
  reason: string | null;
  count: number;
}

export function summarizeOutcomes(
  counts: readonly OutcomeCount[],
  medianReactionMs: number | null,
  window: { from: number; to: number },
): OutcomeWindow {
  let won = 0;
  let lostToFaster = 0;
  const byReason = new Map<string, number>();
  for (const row of counts) {
    if (row.kind === 'won') won += row.count;
    else if (row.kind === 'gone') lostToFaster += row.count;
    else {
      const reason = row.reason ?? 'unknown';
      byReason.set(reason, (byReason.get(reason) ?? 0) + row.count);
    }
  }
  const refusals: RefusalCount[] = [...byReason]
    .map(([reason, count]) => ({
      reason,
      count,
      filter: Object.hasOwn(REFUSAL_FILTER, reason)
        ? REFUSAL_FILTER[reason as RefusalReason]
        : null,
    }))
    .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1));
  const refused = refusals.reduce((sum, r) => sum + r.count, 0);
  return {
    from: window.from,
    to: window.to,
    seen: won + lostToFaster + refused,
    matching: won + lostToFaster,
    won,
    lostToFaster,
    refused,
    topRefusals: refusals.slice(0, TOP_REFUSALS),
    medianReactionMs,
    reaction: medianReactionMs === null ? null : reactionBand(medianReactionMs),
  };
}

/**
 * The reaction time in words: faster than a blink (under a third of a second, when a person could
 * not have tapped), under a second, a few seconds, or slow (other drivers' tools are faster).
 */
export function reactionBand(ms: number): ReactionBand {
  if (ms < 300) return 'blink';
  if (ms < 1000) return 'under-a-second';
  if (ms < 5000) return 'seconds';
  return 'slow';
}
