// Finding send jobs the way people name them: by the start of their id (as `sends show 3f2a` types
// it), by the Idempotency-Key that named them, and why a job is not done yet (its next due time).
import type { Queryable } from './db.js';

/** The id `prefix` names when exactly one job's id starts with it; 'ambiguous' when several do. */
export async function resolveJobId(
  db: Queryable,
  prefix: string,
): Promise<string | 'ambiguous' | null> {
  // Hex digits and dashes only: nothing in it is a LIKE wildcard.
  if (!/^[0-9a-f-]{4,36}$/i.test(prefix)) return null;
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM send_jobs WHERE id LIKE $1 ORDER BY id LIMIT 2',
    [`${prefix.toLowerCase()}%`],
  );
  if (rows.length > 1) return 'ambiguous';
  return rows[0]?.id ?? null;
}

/** Ids of the jobs named by this key (one per creator), newest first. */
export async function findJobIdsByKey(
  db: Queryable,
  key: string,
  limit: number,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM send_jobs WHERE idempotency_key = $1 ORDER BY created_ts DESC, id LIMIT $2`,
    [key, limit],
  );
  return rows.map((r) => r.id);
}

/** Why a job still has queued recipients: what the first of them waits for, and until when. */
export interface JobWait {
  until: number;
  reason: 'scheduled' | 'quiet-hours' | 'retry' | 'pace';
  /** The recipient's region, whose time zone quiet hours follow (null: the product's zone). */
  region: string | null;
}

export async function findJobWait(
  db: Queryable,
  jobId: string,
  now: number,
): Promise<JobWait | null> {
  const rows = await db.query<{
    next_attempt_ts: number;
    attempts: number;
    send_at_ts: number | null;
    quiet_hours: boolean;
    region: string | null;
  }>(
    `SELECT r.next_attempt_ts, r.attempts, j.send_at_ts, j.quiet_hours,
            (SELECT min(u.human_region) FROM users u WHERE u.phone_number = r.to_number) AS region
     FROM send_recipients r JOIN send_jobs j ON j.id = r.job_id
     WHERE r.job_id = $1 AND r.status = 'queued'
     ORDER BY r.next_attempt_ts LIMIT 1`,
    [jobId],
  );
  const row = rows[0];
  if (!row) return null;
  const until = Number(row.next_attempt_ts);
  const sendAt = row.send_at_ts === null ? null : Number(row.send_at_ts);
  const reason =
    sendAt !== null && sendAt > now && until <= sendAt
      ? 'scheduled'
      : until <= now
        ? 'pace'
        : row.attempts > 0
          ? 'retry'
          : row.quiet_hours
            ? 'quiet-hours'
            : 'pace';
  return { until, reason, region: row.region };
}
