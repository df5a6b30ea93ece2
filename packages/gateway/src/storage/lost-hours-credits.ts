// The weekly credit for lost hours (docs/product.md): the recorded stretches the job reads, the
// credit it writes with the extended service expiry, and the credits the billing page lists.
import {
  type DriverFilters,
  type LostHoursCredit,
  type LostTimeReason,
  storedDriverFiltersSchema,
} from '@blockcatch/sdk';
import type { Db, Queryable } from './db.js';

export interface DriverLostTime {
  userId: string;
  filters: Pick<DriverFilters, 'weeklySchedule' | 'timeZone'>;
  stretches: { start: number; end: number; reason: LostTimeReason }[];
  /** Weeks already credited. */
  credited: Set<string>;
}

/** Each driver's stretches ending after `since`, with their schedule and the weeks credited. */
export async function listLostTimeSince(db: Queryable, since: number): Promise<DriverLostTime[]> {
  const rows = await db.query<{
    user_id: string;
    reason: LostTimeReason;
    start_ts: number;
    end_ts: number;
    filters: unknown;
  }>(
    `SELECT l.user_id, l.reason, l.start_ts, l.end_ts, s.filters
     FROM lost_time l JOIN driver_settings s ON s.user_id = l.user_id
     WHERE l.end_ts > $1 ORDER BY l.user_id, l.start_ts`,
    [since],
  );
  const drivers = new Map<string, DriverLostTime>();
  for (const row of rows) {
    let driver = drivers.get(row.user_id);
    if (!driver) {
      const parsed = storedDriverFiltersSchema.safeParse(row.filters);
      if (!parsed.success) continue;
      driver = { userId: row.user_id, filters: parsed.data, stretches: [], credited: new Set() };
      drivers.set(row.user_id, driver);
    }
    driver.stretches.push({
      start: Number(row.start_ts),
      end: Number(row.end_ts),
      reason: row.reason,
    });
  }
  if (drivers.size === 0) return [];
  const credited = await db.query<{ user_id: string; week: string }>(
    'SELECT user_id, week FROM lost_hours_credits WHERE user_id = ANY($1::text[])',
    [[...drivers.keys()]],
  );
  for (const row of credited) drivers.get(row.user_id)?.credited.add(row.week);
  return [...drivers.values()];
}

/**
 * Credits one driver-week: records it and moves the service expiry to what `extend` makes of the
 * current one, in one transaction. Answers false, changing nothing, when the week was credited
 * already (the key is the driver and the week) or the driver never had paid time.
 */
export async function creditWeek(
  db: Db,
  credit: {
    userId: string;
    week: string;
    minutes: number;
    reasons: { reason: LostTimeReason; minutes: number }[];
    now: number;
  },
  extend: (expiration: number) => number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [user] = await tx.query<{ expiration_ts: number | null }>(
      'SELECT expiration_ts FROM users WHERE id = $1 FOR NO KEY UPDATE',
      [credit.userId],
    );
    if (user?.expiration_ts == null) return false;
    const expiration = extend(Number(user.expiration_ts));
    const inserted = await tx.query(
      `INSERT INTO lost_hours_credits (user_id, week, minutes, reasons, expiration_after_ts, created_ts)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id, week) DO NOTHING RETURNING week`,
      [
        credit.userId,
        credit.week,
        credit.minutes,
        JSON.stringify(credit.reasons),
        expiration,
        credit.now,
      ],
    );
    if (inserted.length === 0) return false;
    await tx.query('UPDATE users SET expiration_ts = $2, good_standing = $3 WHERE id = $1', [
      credit.userId,
      expiration,
      expiration > credit.now,
    ]);
    return true;
  });
}

/** The driver's credits for lost hours, newest week first (a year's worth at most). */
export async function listLostHoursCredits(
  db: Queryable,
  userId: string,
): Promise<LostHoursCredit[]> {
  const rows = await db.query<{
    week: string;
    minutes: number;
    reasons: LostHoursCredit['reasons'] | string;
    created_ts: number;
  }>(
    `SELECT week, minutes, reasons, created_ts FROM lost_hours_credits
     WHERE user_id = $1 ORDER BY week DESC LIMIT 53`,
    [userId],
  );
  return rows.map((r) => ({
    week: r.week,
    minutes: r.minutes,
    reasons: typeof r.reasons === 'string' ? JSON.parse(r.reasons) : r.reasons,
    createdTimestamp: Number(r.created_ts),
  }));
}
