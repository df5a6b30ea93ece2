// The drivers' private calendar addresses: the hash of each one's secret, and when it was made.
import type { Queryable } from './db.js';

/** Makes the driver's address, replacing (and so revoking) the one they had. */
export async function replaceCalendarFeed(
  db: Queryable,
  userId: string,
  secretHash: string,
  now: number,
): Promise<void> {
  await db.query(
    `INSERT INTO driver_calendar_feeds (user_id, secret_hash, created_ts) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET secret_hash = $2, created_ts = $3`,
    [userId, secretHash, now],
  );
}

/** When the driver's address was made, or null when they have none. */
export async function findCalendarFeed(
  db: Queryable,
  userId: string,
): Promise<{ createdAt: number } | null> {
  const rows = await db.query<{ created_ts: number }>(
    'SELECT created_ts FROM driver_calendar_feeds WHERE user_id = $1',
    [userId],
  );
  return rows[0] ? { createdAt: Number(rows[0].created_ts) } : null;
}

/** The driver an address belongs to, by the hash of its secret, with their language. */
export async function findCalendarFeedOwner(
  db: Queryable,
  secretHash: string,
): Promise<{ userId: string; language: string } | null> {
  const rows = await db.query<{ user_id: string; preferred_language: string | null }>(
    `SELECT f.user_id, u.preferred_language FROM driver_calendar_feeds f
     JOIN users u ON u.id = f.user_id WHERE f.secret_hash = $1`,
    [secretHash],
  );
  const row = rows[0];
  return row ? { userId: row.user_id, language: row.preferred_language ?? 'en' } : null;
}

export async function deleteCalendarFeed(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM driver_calendar_feeds WHERE user_id = $1', [userId]);
}
