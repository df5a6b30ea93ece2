// Counts of what the catcher did with the offers seen in a window, for one driver or all of them:
// by kind and refusal reason, and the median time from first sight to the accept sent.
import type { OutcomeCount } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

export async function countOutcomes(
  db: Queryable,
  userId: string | null,
  from: number,
  to: number,
): Promise<{ counts: OutcomeCount[]; medianReactionMs: number | null }> {
  const [counts, median] = await Promise.all([
    db.query<{ kind: OutcomeCount['kind']; reason: string | null; n: number }>(
      `SELECT kind, reason, count(*)::int AS n FROM driver_offers
       WHERE ($1::text IS NULL OR user_id = $1) AND seen_ts >= $2 AND seen_ts < $3
       GROUP BY kind, reason`,
      [userId, from, to],
    ),
    db.query<{ m: number | null }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY accept_sent_ts - seen_ts) AS m
       FROM driver_offers
       WHERE ($1::text IS NULL OR user_id = $1) AND seen_ts >= $2 AND seen_ts < $3
         AND accept_sent_ts IS NOT NULL`,
      [userId, from, to],
    ),
  ]);
  const m = median[0]?.m;
  return {
    counts: counts.map((r) => ({ kind: r.kind, reason: r.reason, count: r.n })),
    medianReactionMs: m === null || m === undefined ? null : Math.max(0, Number(m)),
  };
}
