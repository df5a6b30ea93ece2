// When a queued message stops being worth sending (see migrations/019_message_expiry.ts).
import type { Queryable } from './db.js';

/** Records `jobId`'s expiry; call before the job is created, so no claim sees it without one. */
export async function setJobExpiry(db: Queryable, jobId: string, expiresTs: number): Promise<void> {
  await db.query(
    `INSERT INTO send_job_expiry (job_id, expires_ts) VALUES ($1, $2)
     ON CONFLICT (job_id) DO UPDATE SET expires_ts = EXCLUDED.expires_ts`,
    [jobId, expiresTs],
  );
}

/** Drops an expiry whose job was never created (the key had queued one already). */
export async function dropJobExpiry(db: Queryable, jobId: string): Promise<void> {
  await db.query('DELETE FROM send_job_expiry WHERE job_id = $1', [jobId]);
}
