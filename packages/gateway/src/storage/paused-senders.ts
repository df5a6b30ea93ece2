// Senders paused because the provider refused our credentials (see migrations/023).
import type { Queryable } from './db.js';

/** What a recipient held for a paused sender says; resuming releases exactly these. */
export const PAUSED_ERROR = 'sender paused: the provider refused our credentials';

/** Pauses `sender`; true if it was not paused already (so the owner is alerted once). */
export async function pauseSender(
  db: Queryable,
  sender: string,
  reason: string,
  now: number,
  probeMs: number,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO paused_senders (sender, reason, paused_ts, next_probe_ts) VALUES ($1, $2, $3, $4)
     ON CONFLICT (sender) DO NOTHING RETURNING sender`,
    [sender, reason.slice(0, 300), now, now + probeMs],
  );
  return rows.length > 0;
}

export async function findPausedSenders(db: Queryable): Promise<Set<string>> {
  const rows = await db.query<{ sender: string }>('SELECT sender FROM paused_senders');
  return new Set(rows.map((r) => r.sender));
}

/** Takes `sender`'s probe if it is due: one message may try the credentials again. */
export async function takeProbe(
  db: Queryable,
  sender: string,
  now: number,
  probeMs: number,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE paused_senders SET next_probe_ts = $3 WHERE sender = $1 AND next_probe_ts <= $2
     RETURNING sender`,
    [sender, now, now + probeMs],
  );
  return rows.length > 0;
}

/** Resumes `sender` and makes its held recipients due now; true if it was paused. */
export async function resumeSender(db: Queryable, sender: string, now: number): Promise<boolean> {
  const rows = await db.query('DELETE FROM paused_senders WHERE sender = $1 RETURNING sender', [
    sender,
  ]);
  if (rows.length === 0) return false;
  await db.query(
    `UPDATE send_recipients SET next_attempt_ts = $1
     WHERE status = 'queued' AND last_error = $2 AND next_attempt_ts > $1`,
    [now, PAUSED_ERROR],
  );
  return true;
}
