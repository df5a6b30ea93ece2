// The invitations drivers sent: seeded from fixtures, listed for the notifications screen.
import { type Invitation, normalizePhone } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

interface InvitationRow {
  phone_number: string;
  date_invited_ts: number;
  free_week: boolean;
  referral_code: string | null;
}

/** Inserts invitations as given, keeping the raw phone and its normalized form for matching. */
export async function insertInvitations(
  db: Queryable,
  invitations: readonly Invitation[],
): Promise<number> {
  let inserted = 0;
  const chunk = 5_000;
  for (let start = 0; start < invitations.length; start += chunk) {
    const slice = invitations.slice(start, start + chunk);
    const rows = await db.query<{ id: number }>(
      `INSERT INTO invitations (phone_number, normalized_phone, date_invited_ts, free_week, referral_code)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::boolean[], $5::text[])
       RETURNING id`,
      [
        slice.map((i) => i.phoneNumber),
        slice.map((i) => normalizePhone(i.phoneNumber)),
        slice.map((i) => i.dateInvitedTimestamp),
        slice.map((i) => i.freeWeek),
        slice.map((i) => i.referralCode),
      ],
    );
    inserted += rows.length;
  }
  return inserted;
}

/** Every invitation, oldest first: the screen drops duplicates and free weeks itself. */
export async function listInvitations(db: Queryable): Promise<Invitation[]> {
  const rows = await db.query<InvitationRow>(
    `SELECT phone_number, date_invited_ts, free_week, referral_code
     FROM invitations ORDER BY date_invited_ts, id`,
  );
  return rows.map((r) => ({
    phoneNumber: r.phone_number,
    dateInvitedTimestamp: r.date_invited_ts,
    freeWeek: r.free_week,
    referralCode: r.referral_code,
  }));
}

export async function countInvitations(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM invitations');
  return rows[0]?.n ?? 0;
}
