// Settles a payment in one transaction: marks it succeeded or failed, extends the payer's paid-up
// time and, on the payer's first success, grants the inviter's free week. Settling twice (a webhook
// redelivered, a confirmation racing the webhook) changes nothing the second time.
import { extendExpiration } from '@blockcatch/sdk';
import type { Db, Queryable } from '../storage/db.js';
import type { PaymentRecord } from '../storage/payments.js';
import { claimFreeWeek, findReferringInvitation } from '../storage/referrals.js';
import type { UserRecord } from '../storage/users.js';

export interface SettleInput {
  paymentId: string;
  outcome: 'succeeded' | 'failed';
  providerRef?: string | null;
  cardLast4?: string | null;
  reason?: string;
}

/** The payment after settling, or null when there is no such payment. */
export async function settlePayment(
  db: Db,
  input: SettleInput,
  now = Date.now(),
): Promise<PaymentRecord | null> {
  return db.transaction(async (tx) => {
    const locked = await tx.query<PaymentRecord>(
      'SELECT * FROM payments WHERE id = $1 FOR UPDATE',
      [input.paymentId],
    );
    const payment = locked[0];
    if (!payment) return null;
    if (payment.status === 'succeeded' || payment.status === 'failed') return payment;
    if (input.outcome === 'failed') {
      const rows = await tx.query<PaymentRecord>(
        `UPDATE payments SET status = 'failed', settled_ts = $2, failure_reason = $3,
           provider_ref = coalesce(provider_ref, $4), card_last4 = coalesce(card_last4, $5),
           lease_until_ts = 0
         WHERE id = $1 RETURNING *`,
        [
          payment.id,
          now,
          input.reason ?? 'declined',
          input.providerRef ?? null,
          input.cardLast4 ?? null,
        ],
      );
      return rows[0] ?? null;
    }
    return succeed(tx, payment, input, now);
  });
}

async function succeed(
  tx: Queryable,
  payment: PaymentRecord,
  input: SettleInput,
  now: number,
): Promise<PaymentRecord | null> {
  const payer = (
    await tx.query<UserRecord>('SELECT * FROM users WHERE id = $1', [payment.user_id])
  )[0];
  if (!payer) return null;
  const referral = await findReferringInvitation(tx, payer);
  // Payer and inviter rows are locked together in id order: two drivers who invited each other
  // and pay at once must not lock in opposite orders and deadlock.
  const ids = [payer.id, ...(referral ? [referral.invited_by] : [])];
  const users = await tx.query<{ id: string; expiration_ts: number | null }>(
    'SELECT id, expiration_ts FROM users WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE',
    [ids],
  );
  const expirationOf = (id: string) => users.find((u) => u.id === id)?.expiration_ts ?? null;

  const expiration = extendExpiration(expirationOf(payer.id), now, payment.weeks);
  await extendUser(tx, payer.id, expiration, now);
  const rows = await tx.query<PaymentRecord>(
    `UPDATE payments SET status = 'succeeded', settled_ts = $2, expiration_after_ts = $3,
       provider_ref = coalesce(provider_ref, $4), card_last4 = coalesce(card_last4, $5),
       lease_until_ts = 0
     WHERE id = $1 RETURNING *`,
    [payment.id, now, expiration, input.providerRef ?? null, input.cardLast4 ?? null],
  );

  if (referral && users.some((u) => u.id === referral.invited_by)) {
    // The payer's row lock serialises their settlements, so this count is exact: 1 means first.
    const succeeded = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payments WHERE user_id = $1 AND status = 'succeeded'`,
      [payer.id],
    );
    if (succeeded[0]?.n === 1 && (await claimFreeWeek(tx, referral.id, now))) {
      const inviterExpiration = extendExpiration(expirationOf(referral.invited_by), now, 1);
      await extendUser(tx, referral.invited_by, inviterExpiration, now);
    }
  }
  return rows[0] ?? null;
}

async function extendUser(tx: Queryable, id: string, expiration: number, now: number) {
  await tx.query('UPDATE users SET expiration_ts = $2, good_standing = $3 WHERE id = $1', [
    id,
    expiration,
    expiration > now,
  ]);
}

/** Drivers whose paid-up time ran out lose good standing (the catcher stops serving them). */
export async function sweepLapsedStanding(db: Queryable, now = Date.now()): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `UPDATE users SET good_standing = false
     WHERE good_standing AND expiration_ts IS NOT NULL AND expiration_ts <= $1 RETURNING id`,
    [now],
  );
  return rows.length;
}
