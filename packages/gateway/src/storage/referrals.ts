// Referral state: each driver's referral code, the invitations a driver sent (one per friend's
// phone), the link from a paying friend back to the invitation, and the users a reseller brought.
import type { InvitationStatus, RecipientState } from '@blockcatch/sdk';
import type { Queryable } from './db.js';
import type { UserRecord } from './user-record.js';

/**
 * The user's referral code, giving them one from `generate` the first time. A code already taken
 * (unique index) is retried with a fresh one; two requests racing for the same user agree on the
 * code the first one stored.
 */
export async function ensureReferralCode(
  db: Queryable,
  userId: string,
  generate: () => string,
): Promise<string> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const current = await db.query<{ referral_code: string | null }>(
      'SELECT referral_code FROM users WHERE id = $1',
      [userId],
    );
    const code = current[0]?.referral_code;
    if (code) return code;
    try {
      await db.query(
        'UPDATE users SET referral_code = $2 WHERE id = $1 AND referral_code IS NULL',
        [userId, generate()],
      );
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error;
    }
  }
  throw new Error('could not find a free referral code in 8 attempts');
}

export interface InvitationRecord {
  id: number;
  phone_number: string;
  normalized_phone: string;
  date_invited_ts: number;
  free_week: boolean;
  free_week_ts: number | null;
  referral_code: string | null;
  invited_by: string;
}

export interface InvitationWithStatus extends InvitationRecord {
  status: InvitationStatus;
  /** Where the friend's text stands; null before texts were sent for invitations. */
  sms_status: RecipientState | null;
}

/** Stores an invitation, or returns the one this inviter already sent to that phone. */
export async function inviteFriend(
  db: Queryable,
  invite: { inviterId: string; referralCode: string; phoneNumber: string; now: number },
): Promise<{ created: boolean; invitation: InvitationRecord }> {
  const inserted = await db.query<InvitationRecord>(
    `INSERT INTO invitations (phone_number, normalized_phone, date_invited_ts, referral_code, invited_by)
     VALUES ($1, $1, $2, $3, $4)
     ON CONFLICT (invited_by, normalized_phone) WHERE invited_by IS NOT NULL DO NOTHING
     RETURNING *`,
    [invite.phoneNumber, invite.now, invite.referralCode, invite.inviterId],
  );
  if (inserted[0]) return { created: true, invitation: inserted[0] };
  const existing = await findInvitationBy(db, invite.inviterId, invite.phoneNumber);
  if (!existing) throw new Error('invitation vanished after a duplicate-phone conflict');
  return { created: false, invitation: existing };
}

const INVITATION_KEY_PREFIX = 'invitation:';

/**
 * The key of the send job that texts a friend, under the inviter who sent it. A friend gets one
 * text whoever invites them (see friendAlreadyTexted); each inviter's invitation is still stored.
 */
export const invitationMessageKey = (friendPhone: string) =>
  `${INVITATION_KEY_PREFIX}${friendPhone}`;

/** The friend's invitation text, whichever inviter's send job it is: the first one queued. */
const FRIEND_TEXT = `
  FROM invitations i2
  JOIN send_jobs j ON j.created_by = i2.invited_by
                  AND j.idempotency_key = '${INVITATION_KEY_PREFIX}' || i2.normalized_phone`;

/** Whether another inviter's invitation already queued a text to this friend. */
export async function friendAlreadyTexted(
  db: Queryable,
  inviterId: string,
  normalizedPhone: string,
): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 ${FRIEND_TEXT} WHERE i2.normalized_phone = $1 AND i2.invited_by <> $2 LIMIT 1`,
    [normalizedPhone, inviterId],
  );
  return rows.length > 0;
}

// A friend counts as registered once a Flex user has the invited phone, and paid once that user
// has a succeeded payment. The text the friend got is the one recipient of the first send job
// under invitationMessageKey, whichever inviter queued it.
const WITH_STATUS = `
  SELECT i.*,
    CASE
      WHEN EXISTS (SELECT 1 FROM payments p WHERE p.user_id = u.id AND p.status = 'succeeded')
        THEN 'paid'
      WHEN u.id IS NOT NULL THEN 'registered'
      ELSE 'invited'
    END AS status,
    (SELECT r.status ${FRIEND_TEXT}
     JOIN send_recipients r ON r.job_id = j.id AND r.seq = 1
     WHERE i2.normalized_phone = i.normalized_phone
     ORDER BY j.created_ts, j.id LIMIT 1
    ) AS sms_status
  FROM invitations i
  LEFT JOIN users u ON u.product = 'flex' AND u.phone_number = i.normalized_phone`;

export async function findInvitationBy(
  db: Queryable,
  inviterId: string,
  normalizedPhone: string,
): Promise<InvitationWithStatus | null> {
  const rows = await db.query<InvitationWithStatus>(
    `${WITH_STATUS} WHERE i.invited_by = $1 AND i.normalized_phone = $2`,
    [inviterId, normalizedPhone],
  );
  return rows[0] ?? null;
}

export async function listInvitationsBy(
  db: Queryable,
  inviterId: string,
): Promise<InvitationWithStatus[]> {
  return db.query<InvitationWithStatus>(
    `${WITH_STATUS} WHERE i.invited_by = $1 ORDER BY i.date_invited_ts DESC, i.id DESC`,
    [inviterId],
  );
}

/**
 * The invitation a paying friend's reward goes to: one sent to the friend's phone by another
 * driver, preferring the inviter whose code the friend signed up with, then the earliest. None
 * once any inviter was already rewarded for this friend (one free week per friend).
 */
export async function findReferringInvitation(
  db: Queryable,
  friend: Pick<UserRecord, 'id' | 'phone_number' | 'referral'>,
): Promise<{ id: number; invited_by: string } | null> {
  const rows = await db.query<{ id: number; invited_by: string }>(
    `SELECT i.id, i.invited_by FROM invitations i
     WHERE i.normalized_phone = $1 AND i.invited_by IS NOT NULL AND i.invited_by <> $2
       AND NOT EXISTS (SELECT 1 FROM invitations r WHERE r.normalized_phone = $1 AND r.free_week)
     ORDER BY (i.referral_code IS NOT DISTINCT FROM $3) DESC, i.date_invited_ts, i.id
     LIMIT 1`,
    [friend.phone_number, friend.id, friend.referral],
  );
  return rows[0] ?? null;
}

/**
 * Marks the invitation's free week as granted; true only for the one caller that flipped it, so
 * concurrent settlements can never grant it twice.
 */
export async function claimFreeWeek(db: Queryable, invitationId: number, now: number) {
  const rows = await db.query<{ id: number }>(
    `UPDATE invitations SET free_week = true, free_week_ts = $2
     WHERE id = $1 AND free_week = false RETURNING id`,
    [invitationId, now],
  );
  return rows.length === 1;
}

/** Users who signed up with this referral code, newest first. */
export async function listReferredUsers(db: Queryable, code: string): Promise<UserRecord[]> {
  return db.query<UserRecord>(
    `SELECT * FROM users WHERE product = 'flex' AND referral = $1
     ORDER BY create_date_ts DESC, id`,
    [code],
  );
}
