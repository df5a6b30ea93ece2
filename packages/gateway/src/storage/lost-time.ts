// What the catcher records for credit for lost hours (docs/product.md): a stretch a driver could
// not be searched for, and the gateway's heartbeat, whose gap at the next start is time the
// gateway was down for every driver it was searching for.
import type { LostStretch } from '@blockcatch/sdk';
import type { Db, Queryable } from './db.js';

export async function recordLostTime(
  db: Queryable,
  userId: string,
  stretch: LostStretch,
): Promise<void> {
  await db.query(
    `INSERT INTO lost_time (user_id, reason, start_ts, end_ts) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, reason, start_ts) DO UPDATE SET end_ts = GREATEST(lost_time.end_ts, $4)`,
    [userId, stretch.reason, stretch.start, stretch.end],
  );
}

/** Writes the heartbeat at `now`. */
export async function beat(db: Queryable, now: number): Promise<void> {
  await db.query(
    `INSERT INTO gateway_heartbeat (id, beat_ts) VALUES (1, $1)
     ON CONFLICT (id) DO UPDATE SET beat_ts = GREATEST(gateway_heartbeat.beat_ts, $1)`,
    [now],
  );
}

/**
 * At a gateway's start: when the last heartbeat is older than `downAfterMs`, no gateway was
 * running since, and the gap is recorded as 'gateway-down' for every driver the catcher would
 * have searched for (on, connected, set up, with paid time then; cut where that paid time ended).
 * The heartbeat row is locked meanwhile, so of several processes starting at once one records
 * the gap. Answers the gap recorded, if any.
 */
export async function recordDowntimeAtStart(
  db: Db,
  options: { now: number; downAfterMs: number },
): Promise<{ start: number; end: number; drivers: number } | null> {
  const { now, downAfterMs } = options;
  return db.transaction(async (tx) => {
    await tx.query(
      'INSERT INTO gateway_heartbeat (id, beat_ts) VALUES (1, $1) ON CONFLICT (id) DO NOTHING',
      [now],
    );
    const [row] = await tx.query<{ beat_ts: number }>(
      'SELECT beat_ts FROM gateway_heartbeat WHERE id = 1 FOR UPDATE',
    );
    const last = Number(row?.beat_ts ?? now);
    await tx.query('UPDATE gateway_heartbeat SET beat_ts = GREATEST(beat_ts, $1) WHERE id = 1', [
      now,
    ]);
    if (now - last <= downAfterMs) return null;
    const inserted = await tx.query<{ user_id: string }>(
      `INSERT INTO lost_time (user_id, reason, start_ts, end_ts)
       SELECT u.id, 'gateway-down', $1, LEAST($2, u.expiration_ts)
       FROM users u
       JOIN driver_platform_links l ON l.user_id = u.id AND l.state = 'connected'
         AND l.session_enc IS NOT NULL AND l.verification_required_ts IS NULL
       JOIN driver_settings s ON s.user_id = u.id
       WHERE u.status = 'start' AND u.good_standing AND u.proxy_installed AND u.setup_complete
         AND u.expiration_ts > $1
       ON CONFLICT DO NOTHING
       RETURNING user_id`,
      [last, now],
    );
    return { start: last, end: now, drivers: inserted.length };
  });
}
