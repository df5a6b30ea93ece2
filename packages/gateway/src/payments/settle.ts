// What a settled charge does to a driver's paid time, inside the webhook's transaction: a one-off
// payment adds its weeks, a paid renewal adds exactly one week from the end of the current one, a
// refund takes whole weeks back from the end; and on the payer's first success, the inviter's
// referral free week (credit on the next renewal for a subscriber, added time otherwise).
import { extendExpiration, refundExpiration } from '@blockcatch/sdk';
import { addCredit, currentSubscription } from '../storage/billing.js';
import { LONG_READ, type Queryable } from '../storage/db.js';
import { type PaymentRecord, setPaymentExpiration } from '../storage/payments.js';
import { claimFreeWeek, findReferringInvitation } from '../storage/referrals.js';
import type { UserRecord } from '../storage/user-record.js';

export interface GrantResult {
  expiration: number;
  /** The inviter whose free week became credit for their next renewal (sent to the processor). */
  creditFor: string | null;
}

/**
 * Adds `weeks` weeks to the payer for a payment that has just succeeded, counted from the end of
 * their paid time, or from `from` when that ended before: now for a checkout, the start of the
 * billing period a renewal invoice pays for (a retry paid days late still buys that period).
 */
export async function grantWeeks(
  tx: Queryable,
  payment: PaymentRecord,
  weeks: number,
  now: number,
  from = now,
): Promise<GrantResult | null> {
  const payer = (
    await tx.query<UserRecord>('SELECT * FROM users WHERE id = $1', [payment.user_id])
  )[0];
  if (!payer) return null;
  const referral = await findReferringInvitation(tx, payer);
  // Payer and inviter rows are locked together in id order: two drivers who invited each other
  // and pay at once must not lock in opposite orders and deadlock. NO KEY UPDATE, as an UPDATE of
  // these columns takes: the payment row inserted before holds a KEY SHARE lock on the payer (its
  // foreign key), and two settlements upgrading theirs to FOR UPDATE would wait on each other.
  const ids = [payer.id, ...(referral ? [referral.invited_by] : [])];
  const users = await tx.query<{ id: string; expiration_ts: number | null }>(
    'SELECT id, expiration_ts FROM users WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE',
    [ids],
  );
  const expirationOf = (id: string) => users.find((u) => u.id === id)?.expiration_ts ?? null;

  const expiration = extendExpiration(expirationOf(payer.id), Math.min(from, now), weeks);
  await setExpiration(tx, payer.id, expiration, now);
  await setPaymentExpiration(tx, payment.id, expiration);

  let creditFor: string | null = null;
  if (referral && users.some((u) => u.id === referral.invited_by)) {
    // The payer's row lock serialises their settlements, so this count is exact: 1 means first.
    const succeeded = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payments WHERE user_id = $1 AND status = 'succeeded'`,
      [payer.id],
    );
    if (succeeded[0]?.n === 1 && (await claimFreeWeek(tx, referral.id, now))) {
      const inviter = referral.invited_by;
      const subscription = await currentSubscription(tx, inviter);
      const renewing =
        subscription &&
        (subscription.status === 'active' || subscription.status === 'past_due') &&
        !subscription.cancel_at_period_end;
      if (renewing) {
        // A subscriber's free week pays their next renewal instead of adding time now.
        await addCredit(tx, { id: `credit_${referral.id}`, userId: inviter, now });
        creditFor = inviter;
      } else {
        await setExpiration(tx, inviter, extendExpiration(expirationOf(inviter), now, 1), now);
      }
    }
  }
  return { expiration, creditFor };
}

/** Adds free weeks straight to the paid time (a referral week with no renewal to pay). */
export async function grantWeeksAsTime(tx: Queryable, userId: string, weeks: number, now: number) {
  const rows = await tx.query<{ expiration_ts: number | null }>(
    'SELECT expiration_ts FROM users WHERE id = $1 FOR NO KEY UPDATE',
    [userId],
  );
  if (!rows[0]) return;
  await setExpiration(tx, userId, extendExpiration(rows[0].expiration_ts, now, weeks), now);
}

/** Takes `weeks` refunded weeks back from the end of the driver's paid time. */
export async function takeBackWeeks(
  tx: Queryable,
  userId: string,
  weeks: number,
  now: number,
): Promise<number | null> {
  const rows = await tx.query<{ expiration_ts: number | null }>(
    'SELECT expiration_ts FROM users WHERE id = $1 FOR NO KEY UPDATE',
    [userId],
  );
  const current = rows[0]?.expiration_ts ?? null;
  const expiration = refundExpiration(current, weeks);
  if (expiration !== null) await setExpiration(tx, userId, expiration, now);
  return expiration;
}

async function setExpiration(tx: Queryable, id: string, expiration: number, now: number) {
  await tx.query('UPDATE users SET expiration_ts = $2, good_standing = $3 WHERE id = $1', [
    id,
    expiration,
    expiration > now,
  ]);
}

interface LapsedBatch {
  due: number;
  swept: number;
  last_expiration: string | null;
  last_id: string | null;
}

/** Users the sweep takes per statement (see sweepLapsedStanding). */
const LAPSED_BATCH = 200;

/**
 * Drivers whose paid-up time ran out lose good standing (the catcher stops serving them). A batch
 * per statement, each its own transaction: thousands lapsing at once (a restored backup, a long
 * stop) cost one statement of over a second, and on the embedded database's one connection every
 * request's queries waited for it; now a request's query waits for one batch at most. Each batch
 * starts after the last one's key, so none reads again the index entries its predecessors left
 * dead. Two processes sweeping at once flip each user once and count it once (`u.good_standing`
 * is checked again under the row's lock).
 */
export async function sweepLapsedStanding(
  db: Queryable,
  now = Date.now(),
  batch = LAPSED_BATCH,
): Promise<number> {
  let swept = 0;
  let after: [number, string] | null = null;
  for (;;) {
    const [result]: LapsedBatch[] = await db.query<LapsedBatch>(
      `WITH due AS (
         SELECT id, expiration_ts FROM users
          WHERE good_standing AND expiration_ts IS NOT NULL AND expiration_ts <= $1
            ${after ? 'AND (expiration_ts, id) > ($3, $4)' : ''}
          ORDER BY expiration_ts, id LIMIT $2),
       swept AS (
         UPDATE users u SET good_standing = false FROM due
          WHERE u.id = due.id AND u.good_standing RETURNING u.id)
       SELECT (SELECT count(*) FROM due)::int AS due,
              (SELECT count(*) FROM swept)::int AS swept,
              last.expiration_ts AS last_expiration, last.id AS last_id
         FROM (SELECT 1) one
         LEFT JOIN (SELECT expiration_ts, id FROM due ORDER BY expiration_ts DESC, id DESC LIMIT 1)
           last ON true`,
      after ? [now, batch, ...after] : [now, batch],
      // Waits in the embedded database's long lane, behind requests' queries: nobody waits on it.
      LONG_READ,
    );
    swept += result?.swept ?? 0;
    if (!result || result.due < batch || result.last_id === null) return swept;
    after = [Number(result.last_expiration), result.last_id];
  }
}
