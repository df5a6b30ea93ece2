// The weekly credit for lost hours (docs/product.md): once a driver's week (Monday to Sunday in
// their zone) has been over for a day, the scheduled time they lost through no fault of theirs
// that week is added to their service time, with the reasons, once per driver and week.
import {
  creditExpiration,
  type LostHoursRules,
  lostHoursInWeek,
  weeksTouched,
} from '@blockcatch/sdk';
import type { Db } from '../storage/db.js';
import { creditWeek, listLostTimeSince } from '../storage/lost-hours-credits.js';

const DAY_MS = 86_400_000;
/** A week is credited a day after it ends, so an outage still under way at midnight is measured. */
const CREDIT_AFTER_MS = DAY_MS;
/** Weeks further back than this are left as they are. */
const LOOKBACK_MS = 5 * 7 * DAY_MS;

/** Credits every driver-week that is due; answers how many were credited. */
export async function creditLostHours(
  db: Db,
  options: { now: number; rules: LostHoursRules },
): Promise<number> {
  const { now, rules } = options;
  if (!rules.enabled) return 0;
  let credited = 0;
  for (const driver of await listLostTimeSince(db, now - LOOKBACK_MS)) {
    const weeks = new Set(
      driver.stretches.flatMap((stretch) => weeksTouched(stretch, driver.filters.timeZone)),
    );
    for (const week of weeks) {
      if (driver.credited.has(week)) continue;
      const lost = lostHoursInWeek(driver.filters, week, driver.stretches, rules);
      if (lost.end + CREDIT_AFTER_MS > now || lost.end < now - LOOKBACK_MS) continue;
      if (lost.creditedMinutes === 0) continue;
      const done = await creditWeek(
        db,
        {
          userId: driver.userId,
          week,
          minutes: lost.creditedMinutes,
          reasons: lost.byReason,
          now,
        },
        (expiration) => creditExpiration(expiration, now, lost.creditedMinutes),
      );
      if (done) credited++;
    }
  }
  return credited;
}
