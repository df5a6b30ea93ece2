// Fixed-window counters in the database, so every process of a deployment counts together: code
// guesses, password failures and locks, texts sent, and the HTTP rate limits.
import type { Queryable } from './db.js';

export interface CounterState {
  count: number;
  /** Epoch ms when the window ends and the count starts again from 0. */
  windowEnd: number;
}

/** Adds one (or `by`) to the counter, starting a new window when the last one has ended. */
export async function hitCounter(
  db: Queryable,
  key: string,
  windowMs: number,
  now: number,
  by = 1,
): Promise<CounterState> {
  const rows = await db.query<{ count: number; window_end: number }>(
    `INSERT INTO security_counters AS c (key, count, window_end) VALUES ($1, $4, $2::bigint + $3::bigint)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN c.window_end <= $2::bigint THEN $4 ELSE c.count + $4 END,
       window_end = CASE WHEN c.window_end <= $2::bigint THEN $2::bigint + $3::bigint ELSE c.window_end END
     RETURNING count, window_end`,
    [key, now, windowMs, by],
  );
  const row = rows[0]!;
  return { count: row.count, windowEnd: Number(row.window_end) };
}

/**
 * Adds many counters' hits in one statement (the request limit's shares), each starting a new
 * window when its last one has ended; answers each key's count and window end, in order. Keys are
 * locked in sorted order, so two processes sharing at once cannot deadlock.
 */
export async function addToCounters(
  db: Queryable,
  hits: { key: string; by: number; windowMs: number }[],
  now: number,
): Promise<CounterState[]> {
  const sorted = [...hits].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rows = await db.query<{ key: string; count: number; window_end: number }>(
    `INSERT INTO security_counters AS c (key, count, window_end)
     SELECT t.key, t.by, $4::bigint + t.window_ms
       FROM unnest($1::text[], $2::int[], $3::bigint[]) WITH ORDINALITY AS t(key, by, window_ms, n)
      ORDER BY t.n
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN c.window_end <= $4::bigint THEN EXCLUDED.count ELSE c.count + EXCLUDED.count END,
       window_end = CASE WHEN c.window_end <= $4::bigint THEN EXCLUDED.window_end ELSE c.window_end END
     RETURNING key, count, window_end`,
    [sorted.map((h) => h.key), sorted.map((h) => h.by), sorted.map((h) => h.windowMs), now],
  );
  const byKey = new Map(
    rows.map((row) => [row.key, { count: row.count, windowEnd: Number(row.window_end) }]),
  );
  return hits.map((hit) => byKey.get(hit.key)!);
}

/** The counter now: 0 when it was never hit or its window has ended. */
export async function readCounter(db: Queryable, key: string, now: number): Promise<CounterState> {
  const rows = await db.query<{ count: number; window_end: number }>(
    'SELECT count, window_end FROM security_counters WHERE key = $1 AND window_end > $2',
    [key, now],
  );
  const row = rows[0];
  return row
    ? { count: row.count, windowEnd: Number(row.window_end) }
    : { count: 0, windowEnd: now };
}

/** Sets a counter outright (a lock until `windowEnd`). */
export async function setCounter(
  db: Queryable,
  key: string,
  count: number,
  windowEnd: number,
): Promise<void> {
  await db.query(
    `INSERT INTO security_counters (key, count, window_end) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET count = EXCLUDED.count, window_end = EXCLUDED.window_end`,
    [key, count, windowEnd],
  );
}

export async function clearCounters(db: Queryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const list = keys.map((_, i) => `$${i + 1}`).join(', ');
  await db.query(`DELETE FROM security_counters WHERE key IN (${list})`, keys);
}

/** Drops ended windows; called now and then so the table stays small without a timer. */
export async function sweepCounters(db: Queryable, now: number): Promise<void> {
  await db.query('DELETE FROM security_counters WHERE window_end <= $1', [now]);
}
