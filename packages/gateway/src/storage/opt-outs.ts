// Numbers that replied STOP: sends skip them until they reply START. opt_outs stops everything;
// sender_opt_outs stops one sender's texts (a STOP to the marketing number when it is its own).
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

export async function optOutOfSender(
  db: Queryable,
  phoneNumber: string,
  sender: string,
  now = Date.now(),
): Promise<void> {
  await db.query(
    `INSERT INTO sender_opt_outs (phone_number, sender, opted_out_ts) VALUES ($1, $2, $3)
     ON CONFLICT (phone_number, sender) DO NOTHING`,
    [phoneNumber, sender, now],
  );
}

/** Opts back in to `sender`, and to everything: a START undoes any STOP that stopped this sender. */
export async function optInToSender(
  db: Queryable,
  phoneNumber: string,
  sender: string,
): Promise<void> {
  await db.query('DELETE FROM sender_opt_outs WHERE phone_number = $1 AND sender = $2', [
    phoneNumber,
    sender,
  ]);
  await optIn(db, phoneNumber);
}

/** Which of these (number, sender) pairs opted out of that sender alone, as `number sender`. */
export async function findOptedOutOfSender(
  db: Queryable,
  pairs: readonly { to: string; sender: string }[],
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await db.query<{ phone_number: string; sender: string }>(
    `SELECT o.phone_number, o.sender FROM sender_opt_outs o
     JOIN unnest($1::text[], $2::text[]) AS p(phone_number, sender)
       ON o.phone_number = p.phone_number AND o.sender = p.sender`,
    [pairs.map((p) => p.to), pairs.map((p) => p.sender)],
  );
  return new Set(rows.map((r) => `${r.phone_number} ${r.sender}`));
}

/** True the first time `phoneNumber` asks for help on `day`: HELP is answered once a day. */
export async function firstHelpToday(
  db: Queryable,
  phoneNumber: string,
  day: string,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO help_answers (phone_number, day) VALUES ($1, $2)
     ON CONFLICT DO NOTHING RETURNING day`,
    [phoneNumber, day],
  );
  return rows.length > 0;
}
