// The Sends page's results over time: each admin send's outcome (delivered, failed by reason,
// opt-outs within a week of it, clicks on its tracked links, the renewals and revenue they led to,
// what it cost) and the same summed per week (weeks start Monday, UTC), as
// GET /api/flex/v1/admin/send-results answers them.
import { z } from 'zod';

export const sendJobOutcomeSchema = z.object({
  jobId: z.string(),
  createdAt: z.number(),
  channel: z.enum(['sms', 'whatsapp']),
  /** The SMS text or the template's first rendering, for the legend. */
  body: z.string(),
  recipients: z.number().int().nonnegative(),
  delivered: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Failed and undelivered recipients by the provider's error code (or their state without one). */
  failedByReason: z.record(z.string(), z.number().int().nonnegative()),
  /** Recipients who opted out within 7 days of being sent it. */
  optedOut: z.number().int().nonnegative(),
  /** Recipients who opened one of its tracked links within 7 days of being sent it (bots not counted). */
  clicks: z.number().int().nonnegative(),
  /** Of those, the ones who paid (a renewal) within 7 days of their click: the send's conversions. */
  conversions: z.number().int().nonnegative(),
  /** US dollars of those payments: the revenue attributed to the send. */
  revenue: z.number().nonnegative(),
  /** US dollars for what the provider accepted, at the gateway's prices. */
  cost: z.number().nonnegative(),
  /**
   * False while its results may still change: recipients sending or awaiting a report, or inside
   * the 14 days after the last was sent (7 to opt out or click, 7 more to pay after a click).
   */
  final: z.boolean(),
});
export type SendJobOutcome = z.infer<typeof sendJobOutcomeSchema>;

export const weekResultSchema = z.object({
  /** The Monday the week starts on, YYYY-MM-DD (UTC). */
  week: z.string(),
  sends: z.number().int().nonnegative(),
  recipients: z.number().int().nonnegative(),
  delivered: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  failedByReason: z.record(z.string(), z.number().int().nonnegative()),
  optedOut: z.number().int().nonnegative(),
  clicks: z.number().int().nonnegative(),
  conversions: z.number().int().nonnegative(),
  revenue: z.number().nonnegative(),
  cost: z.number().nonnegative(),
});
export type WeekResult = z.infer<typeof weekResultSchema>;

export const sendResultsSchema = z.object({
  weeks: z.array(weekResultSchema),
  sends: z.array(sendJobOutcomeSchema),
});
export type SendResults = z.infer<typeof sendResultsSchema>;

export const sendResultsQuerySchema = z.strictObject({
  /** How many weeks back, this one included. */
  weeks: z.coerce.number().int().min(1).max(104).optional(),
});

const DAY_MS = 86_400_000;

/** The Monday (UTC) of the week `ts` falls in, as YYYY-MM-DD. */
export function weekOf(ts: number): string {
  const day = Math.floor(ts / DAY_MS);
  // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
  const monday = day - ((day + 3) % 7);
  return new Date(monday * DAY_MS).toISOString().slice(0, 10);
}

/** Every week from the one `fromTs` falls in to the one `toTs` falls in, with the sends summed. */
export function weeklyResults(
  sends: readonly SendJobOutcome[],
  fromTs: number,
  toTs: number,
): WeekResult[] {
  const weeks = new Map<string, WeekResult>();
  for (let ts = fromTs; weekOf(ts) <= weekOf(toTs); ts += 7 * DAY_MS) {
    const week = weekOf(ts);
    weeks.set(week, {
      week,
      sends: 0,
      recipients: 0,
      delivered: 0,
      failed: 0,
      failedByReason: {},
      optedOut: 0,
      clicks: 0,
      conversions: 0,
      revenue: 0,
      cost: 0,
    });
  }
  for (const send of sends) {
    const week = weeks.get(weekOf(send.createdAt));
    if (!week) continue;
    week.sends += 1;
    week.recipients += send.recipients;
    week.delivered += send.delivered;
    week.failed += send.failed;
    week.optedOut += send.optedOut;
    week.clicks += send.clicks;
    week.conversions += send.conversions;
    week.revenue = Math.round((week.revenue + send.revenue) * 100) / 100;
    week.cost = Math.round((week.cost + send.cost) * 10_000) / 10_000;
    for (const [reason, n] of Object.entries(send.failedByReason)) {
      week.failedByReason[reason] = (week.failedByReason[reason] ?? 0) + n;
    }
  }
  return [...weeks.values()];
}
