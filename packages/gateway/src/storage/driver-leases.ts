// The catcher's leases: which gateway process polls which driver. Each process heartbeats in
// catcher_holders, keeps its fair share of the catchable drivers (catchable / live processes),
// and claims free or expired leases with FOR UPDATE SKIP LOCKED so two processes never pick one.
import type { DriverFilters } from '@blockcatch/sdk';
import type { Db, Queryable } from './db.js';

/**
 * Drivers the catcher works for: on, in good standing, connected (with no check in the platform's
 * app waiting) and set up.
 */
const CATCHABLE = `
  FROM users u
  JOIN driver_platform_links l ON l.user_id = u.id AND l.state = 'connected' AND l.session_enc IS NOT NULL
    AND l.verification_required_ts IS NULL
  JOIN driver_settings s ON s.user_id = u.id
  WHERE u.status = 'start' AND u.good_standing AND u.proxy_installed AND u.setup_complete`;

export interface CatchableDriver {
  userId: string;
  sessionEnc: string;
  filters: DriverFilters;
  filtersUpdatedAt: number;
}

/**
 * One lease round for `holder`: heartbeat, renew what it holds and is still catchable, give back
 * what is over its share, claim up to its share. Returns the drivers it holds afterwards.
 *
 * Only the claim is a transaction: its FOR UPDATE SKIP LOCKED is what keeps two processes from
 * taking one driver. The other steps touch the heartbeat, counts and this holder's own leases, each
 * right on its own whatever runs between them (a round cut short is finished by the next, and
 * leases expire). Held in one transaction, they had kept PGlite's one connection for the round trip
 * of each of six statements: about 200 ms a round under load, for 10 ms of queries.
 */
export async function runLeaseRound(
  db: Db,
  options: { holder: string; now: number; leaseMs: number },
): Promise<string[]> {
  const { holder, now, leaseMs } = options;
  const expires = now + leaseMs;
  await db.query(
    `INSERT INTO catcher_holders (holder, expires_ts) VALUES ($1, $2)
     ON CONFLICT (holder) DO UPDATE SET expires_ts = $2`,
    [holder, expires],
  );
  await db.query('DELETE FROM catcher_holders WHERE expires_ts < $1', [now]);
  const [counts] = await db.query<{ holders: number; catchable: number }>(
    `SELECT (SELECT count(*)::int FROM catcher_holders) AS holders,
            (SELECT count(*)::int ${CATCHABLE}) AS catchable`,
  );
  const share = Math.ceil((counts?.catchable ?? 0) / Math.max(1, counts?.holders ?? 1));

  await db.query(
    `DELETE FROM driver_leases WHERE holder = $1 AND user_id NOT IN (SELECT u.id ${CATCHABLE})`,
    [holder],
  );
  const held = (
    await db.query<{ user_id: string }>(
      `UPDATE driver_leases SET expires_ts = $2 WHERE holder = $1 RETURNING user_id`,
      [holder, expires],
    )
  ).map((r) => r.user_id);

  if (held.length > share) {
    // Over its share (another process joined): give back the excess for the others to claim.
    await db.query('DELETE FROM driver_leases WHERE holder = $1 AND user_id = ANY($2::text[])', [
      holder,
      held.slice(share),
    ]);
    return held.slice(0, share);
  }
  if (held.length === share) return held;
  const claimed = await db.transaction(async (tx) => {
    const free = await tx.query<{ id: string }>(
      `SELECT u.id ${CATCHABLE}
         AND NOT EXISTS (SELECT 1 FROM driver_leases dl WHERE dl.user_id = u.id AND dl.expires_ts >= $1)
       ORDER BY u.id LIMIT $2 FOR UPDATE OF u SKIP LOCKED`,
      [now, share - held.length],
    );
    if (free.length === 0) return [];
    return tx.query<{ user_id: string }>(
      `INSERT INTO driver_leases (user_id, holder, expires_ts)
       SELECT unnest($1::text[]), $2, $3
       ON CONFLICT (user_id) DO UPDATE SET holder = EXCLUDED.holder, expires_ts = EXCLUDED.expires_ts
         WHERE driver_leases.expires_ts < $4
       RETURNING user_id`,
      [free.map((r) => r.id), holder, expires, now],
    );
  });
  return [...held, ...claimed.map((r) => r.user_id)];
}

/** Gives every lease of `holder` back at once (a clean stop), so others need not wait for expiry. */
export async function releaseHolder(db: Queryable, holder: string): Promise<void> {
  await db.query('DELETE FROM driver_leases WHERE holder = $1', [holder]);
  await db.query('DELETE FROM catcher_holders WHERE holder = $1', [holder]);
}

export async function loadCatchableDrivers(
  db: Queryable,
  userIds: readonly string[],
): Promise<CatchableDriver[]> {
  if (userIds.length === 0) return [];
  const rows = await db.query<{
    id: string;
    session_enc: string;
    filters: DriverFilters;
    updated_ts: number;
  }>(
    `SELECT u.id, l.session_enc, s.filters, s.updated_ts ${CATCHABLE} AND u.id = ANY($1::text[])`,
    [userIds],
  );
  return rows.map((r) => ({
    userId: r.id,
    sessionEnc: r.session_enc,
    filters: r.filters,
    filtersUpdatedAt: Number(r.updated_ts),
  }));
}

/**
 * The platform refused the session and its refresh: the link goes. Answers when the link was last
 * written (the episode the driver is told about), or null when another process removed it first.
 */
export async function markDisconnected(db: Db, userId: string): Promise<number | null> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ updated_ts: number }>(
      'DELETE FROM driver_platform_links WHERE user_id = $1 RETURNING updated_ts',
      [userId],
    );
    await tx.query('UPDATE users SET proxy_installed = false WHERE id = $1', [userId]);
    return rows[0] ? Number(rows[0].updated_ts) : null;
  });
}
