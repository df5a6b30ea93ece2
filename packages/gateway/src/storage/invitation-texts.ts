// The invitation texts the service has promised for each clock hour (counted in security_counters,
// so every process shares them), and the backlog: invitation texts kept for a later hour.
import type { Queryable } from './db.js';

const SLOT_PREFIX = 'invite-text:hour:';

/** The counter key of the clock hour starting at `slotStart` (epoch ms). */
export const invitationSlotKey = (slotStart: number) => `${SLOT_PREFIX}${slotStart}`;

/** Texts promised to each clock hour from `from` on, by the hour's start. */
export async function invitationSlotCounts(
  db: Queryable,
  from: number,
): Promise<Map<number, number>> {
  const rows = await db.query<{ key: string; count: number }>(
    `SELECT key, count FROM security_counters WHERE key LIKE $1 AND window_end > $2`,
    [`${SLOT_PREFIX}%`, from],
  );
  return new Map(rows.map((r) => [Number(r.key.slice(SLOT_PREFIX.length)), r.count]));
}

/** Invitation texts waiting for a later hour, and when the first of them goes. */
export async function invitationBacklog(
  db: Queryable,
  now: number,
): Promise<{ waiting: number; nextTs: number | null }> {
  const rows = await db.query<{ waiting: number; next_ts: string | null }>(
    `SELECT count(*)::int AS waiting, min(r.next_attempt_ts) AS next_ts
     FROM send_recipients r JOIN send_jobs j ON j.id = r.job_id
     WHERE r.status = 'queued' AND r.next_attempt_ts > $1 AND j.origin = 'system'
       AND j.idempotency_key LIKE 'invitation:%' AND j.send_at_ts > $1 AND j.cancelled_ts IS NULL`,
    [now],
  );
  const row = rows[0];
  return {
    waiting: row?.waiting ?? 0,
    nextTs: row?.next_ts === null || row?.next_ts === undefined ? null : Number(row.next_ts),
  };
}
