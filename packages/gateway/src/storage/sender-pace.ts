// Each sender's pace (segments per second), shared by every gateway process through one row: a
// batch reserves the next free slots for its segments and is sent when its slots come, so two
// processes together never go faster than the sender may.
import type { Queryable } from './db.js';

/**
 * Reserves `segments` consecutive slots of `intervalMs` each for `sender`, starting no earlier than
 * `now`; returns when the first slot starts.
 */
export async function reserveSlots(
  db: Queryable,
  sender: string,
  segments: number,
  intervalMs: number,
  now: number,
): Promise<number> {
  const span = segments * intervalMs;
  const rows = await db.query<{ next_slot_ms: number }>(
    `INSERT INTO sender_pace (sender, next_slot_ms) VALUES ($1, $2::float8 + $3::float8)
     ON CONFLICT (sender) DO UPDATE
       SET next_slot_ms = GREATEST(sender_pace.next_slot_ms, $2::float8) + $3::float8
     RETURNING next_slot_ms`,
    [sender, now, span],
  );
  return Number(rows[0]!.next_slot_ms) - span;
}

/** Pushes a sender's next free slot back (the provider said 429: too fast). */
export async function slowSender(
  db: Queryable,
  sender: string,
  pauseMs: number,
  now: number,
): Promise<void> {
  await db.query(
    `INSERT INTO sender_pace (sender, next_slot_ms) VALUES ($1, $2::float8 + $3::float8)
     ON CONFLICT (sender) DO UPDATE
       SET next_slot_ms = GREATEST(sender_pace.next_slot_ms, $2::float8) + $3::float8`,
    [sender, now, pauseMs],
  );
}
