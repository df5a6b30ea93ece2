// Each driver's link to the delivery platform: sealed credentials while the one-time code is
// pending, then the sealed platform session. `users.proxy_installed` follows the link.
import type { Db, Queryable } from './db.js';

export interface DriverLinkRow {
  user_id: string;
  state: 'pending' | 'connected' | 'needs-code';
  challenge_id: string | null;
  credentials_enc: string;
  session_enc: string | null;
  updated_ts: number;
  /** The platform throttles this driver's polls until then (epoch ms), as the catcher last saw. */
  throttled_until_ts: number | null;
  /** When the platform asked for a check in its app; null once the driver confirmed it. */
  verification_required_ts: number | null;
}

export async function findDriverLink(db: Queryable, userId: string): Promise<DriverLinkRow | null> {
  const rows = await db.query<DriverLinkRow>(
    'SELECT * FROM driver_platform_links WHERE user_id = $1',
    [userId],
  );
  return rows[0] ?? null;
}

/** A sign-in waiting for its code; an existing connection stays until the code is verified. */
export async function savePendingLink(
  db: Queryable,
  link: { userId: string; challengeId: string; credentialsEnc: string },
  now = Date.now(),
): Promise<void> {
  await db.query(
    `INSERT INTO driver_platform_links (user_id, state, challenge_id, credentials_enc, updated_ts)
     VALUES ($1, 'pending', $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE SET challenge_id = $2, credentials_enc = $3, updated_ts = $4,
       state = CASE WHEN driver_platform_links.session_enc IS NULL THEN 'pending'
                    ELSE driver_platform_links.state END`,
    [link.userId, link.challengeId, link.credentialsEnc, now],
  );
}

export async function connectLink(
  db: Db,
  link: { userId: string; sessionEnc: string },
  now = Date.now(),
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `UPDATE driver_platform_links SET state = 'connected', challenge_id = NULL,
         session_enc = $2, updated_ts = $3 WHERE user_id = $1`,
      [link.userId, link.sessionEnc, now],
    );
    await tx.query('UPDATE users SET proxy_installed = true WHERE id = $1', [link.userId]);
  });
}

export async function deleteLink(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM driver_platform_links WHERE user_id = $1', [userId]);
    await tx.query('UPDATE users SET proxy_installed = false WHERE id = $1', [userId]);
  });
}

/** Keeps the session a refresh gave, so every process polls with the new one. */
export async function updateLinkSession(
  db: Queryable,
  userId: string,
  sessionEnc: string,
  now = Date.now(),
): Promise<void> {
  await db.query(
    `UPDATE driver_platform_links SET session_enc = $2, updated_ts = $3
     WHERE user_id = $1 AND state = 'connected'`,
    [userId, sessionEnc, now],
  );
}

/**
 * The platform wants a new one-time code: the link stays (the driver is still connected, and
 * needs attention) but holds no session, so the catcher leaves the driver until they sign in again.
 * Answers the moment it was marked, or null when it already was (another process got there first).
 */
export async function markNeedsCode(
  db: Queryable,
  userId: string,
  now = Date.now(),
): Promise<number | null> {
  const rows = await db.query<{ updated_ts: number }>(
    `UPDATE driver_platform_links SET state = 'needs-code', session_enc = NULL, updated_ts = $2
     WHERE user_id = $1 AND state <> 'needs-code' RETURNING updated_ts`,
    [userId, now],
  );
  return rows[0] ? Number(rows[0].updated_ts) : null;
}

/**
 * Records the time the platform throttles polls until; answers whether this starts a new throttle
 * (none was in force at `now`), which is when the driver is told.
 */
export async function setThrottledUntil(
  db: Queryable,
  userId: string,
  until: number,
  now = Date.now(),
): Promise<boolean> {
  const rows = await db.query<{ before: number | null }>(
    `UPDATE driver_platform_links l SET throttled_until_ts = $2
     FROM (SELECT user_id, throttled_until_ts AS before FROM driver_platform_links
           WHERE user_id = $1 FOR UPDATE) old
     WHERE l.user_id = old.user_id RETURNING old.before`,
    [userId, until],
  );
  const before = rows[0]?.before;
  return rows.length > 0 && (before === null || before === undefined || Number(before) <= now);
}

/**
 * The platform asks the driver to complete a check in its app: the catcher leaves them until
 * they confirm it. Answers the moment it was marked, or null when it already was (one episode,
 * one alert, however many processes see it).
 */
export async function markNeedsVerification(
  db: Queryable,
  userId: string,
  now = Date.now(),
): Promise<number | null> {
  const rows = await db.query<{ verification_required_ts: number }>(
    `UPDATE driver_platform_links SET verification_required_ts = $2
     WHERE user_id = $1 AND verification_required_ts IS NULL RETURNING verification_required_ts`,
    [userId, now],
  );
  return rows[0] ? Number(rows[0].verification_required_ts) : null;
}

/** The driver confirmed the check and the platform agrees: the catcher may take them again. */
export async function clearVerification(db: Queryable, userId: string): Promise<void> {
  await db.query(
    'UPDATE driver_platform_links SET verification_required_ts = NULL WHERE user_id = $1',
    [userId],
  );
}
