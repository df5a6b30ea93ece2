// The api_tokens table: created with the hash of their secret, listed without it, revoked, and
// read when a request presents one.
import type { Queryable } from './db.js';
import type { UserRecord } from './user-record.js';

export interface ApiTokenRow {
  id: string;
  userId: string;
  name: string;
  secretHash: string;
  createdAt: number;
  expiresAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

interface Row {
  id: string;
  user_id: string;
  name: string;
  secret_hash: string;
  created_ts: number;
  expires_ts: number;
  last_used_ts: number | null;
  revoked_ts: number | null;
}

const toToken = (r: Row): ApiTokenRow => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  secretHash: r.secret_hash,
  createdAt: Number(r.created_ts),
  expiresAt: Number(r.expires_ts),
  lastUsedAt: r.last_used_ts === null ? null : Number(r.last_used_ts),
  revokedAt: r.revoked_ts === null ? null : Number(r.revoked_ts),
});

export async function insertApiToken(
  db: Queryable,
  token: Omit<ApiTokenRow, 'lastUsedAt' | 'revokedAt'>,
) {
  await db.query(
    `INSERT INTO api_tokens (id, user_id, name, secret_hash, created_ts, expires_ts)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [token.id, token.userId, token.name, token.secretHash, token.createdAt, token.expiresAt],
  );
}

export async function findApiToken(db: Queryable, id: string): Promise<ApiTokenRow | null> {
  const rows = await db.query<Row>('SELECT * FROM api_tokens WHERE id = $1', [id]);
  return rows[0] ? toToken(rows[0]) : null;
}

/** A user's tokens (every user's when `userId` is null), newest first. */
export async function listApiTokens(db: Queryable, userId: string | null): Promise<ApiTokenRow[]> {
  const rows = await db.query<Row>(
    `SELECT * FROM api_tokens WHERE $1::text IS NULL OR user_id = $1
     ORDER BY created_ts DESC, id LIMIT 200`,
    [userId],
  );
  return rows.map(toToken);
}

/** How many of a user's tokens still work at `now`. */
export async function countLiveApiTokens(db: Queryable, userId: string, now: number) {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM api_tokens
     WHERE user_id = $1 AND revoked_ts IS NULL AND expires_ts > $2`,
    [userId, now],
  );
  return row?.n ?? 0;
}

export async function revokeApiToken(db: Queryable, id: string, now: number): Promise<void> {
  await db.query('UPDATE api_tokens SET revoked_ts = COALESCE(revoked_ts, $2) WHERE id = $1', [
    id,
    now,
  ]);
}

/** Records a use, at most once a minute per token, so a busy cron job is not a write per request. */
export async function touchApiToken(db: Queryable, id: string, now: number): Promise<void> {
  await db.query(
    `UPDATE api_tokens SET last_used_ts = $2::int8
     WHERE id = $1 AND (last_used_ts IS NULL OR last_used_ts < $2::int8 - 60000)`,
    [id, now],
  );
}

/** The user a token acts for, as they are now (a lost admin flag applies at once). */
export async function findTokenOwner(db: Queryable, userId: string): Promise<UserRecord | null> {
  const rows = await db.query<UserRecord>('SELECT * FROM users WHERE id = $1', [userId]);
  return rows[0] ?? null;
}
