// Numbers that replied STOP: sends skip them until they reply START.
import type { Queryable } from './db.js';

export async function optOut(db: Queryable, phoneNumber: string, now = Date.now()): Promise<void> {
  await db.query(
    'INSERT INTO opt_outs (phone_number, opted_out_ts) VALUES ($1, $2) ON CONFLICT (phone_number) DO NOTHING',
    [phoneNumber, now],
  );
}

export async function optIn(db: Queryable, phoneNumber: string): Promise<void> {
  await db.query('DELETE FROM opt_outs WHERE phone_number = $1', [phoneNumber]);
}

/** Which of these (normalised) numbers have opted out. */
export async function findOptedOut(db: Queryable, phoneNumbers: string[]): Promise<Set<string>> {
  if (phoneNumbers.length === 0) return new Set();
  const rows = await db.query<{ phone_number: string }>(
    'SELECT phone_number FROM opt_outs WHERE phone_number = ANY($1::text[])',
    [phoneNumbers],
  );
  return new Set(rows.map((r) => r.phone_number));
}
