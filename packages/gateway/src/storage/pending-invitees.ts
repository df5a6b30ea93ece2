// Which phone numbers are pending invitees: invited without a free week. Non-owner admins may
// message only them (the unpaid-invitations screen).
import type { Queryable } from './db.js';

/** The subset of `phones` (`+1XXXXXXXXXX`) that match such an invitation. */
export async function findPendingInvitees(
  db: Queryable,
  phones: readonly string[],
): Promise<Set<string>> {
  if (phones.length === 0) return new Set();
  const rows = await db.query<{ normalized_phone: string }>(
    `SELECT DISTINCT normalized_phone FROM invitations
     WHERE NOT free_week AND normalized_phone = ANY($1::text[])`,
    [phones],
  );
  return new Set(rows.map((r) => r.normalized_phone));
}
