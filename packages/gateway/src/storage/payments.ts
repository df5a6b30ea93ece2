// The payments table: one row per (user, Idempotency-Key), moved from pending to processing,
// succeeded or failed by conditional updates, so a late webhook never undoes a settled payment.
import type { Payment, PaymentStatus } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

export interface PaymentRecord {
  id: string;
  user_id: string;
  idempotency_key: string;
  request_hash: string;
  provider: 'sandbox' | 'stripe';
  provider_ref: string | null;
  weeks: number;
  amount_cents: number;
  currency: 'usd';
  status: PaymentStatus;
  card_last4: string | null;
  failure_reason: string | null;
  lease_until_ts: number;
  created_ts: number;
  settled_ts: number | null;
  expiration_after_ts: number | null;
}

export type NewPayment = Pick<
  PaymentRecord,
  | 'id'
  | 'user_id'
  | 'idempotency_key'
  | 'request_hash'
  | 'provider'
  | 'weeks'
  | 'amount_cents'
  | 'card_last4'
  | 'lease_until_ts'
  | 'created_ts'
>;

/** Inserts a pending payment, or returns null when this user already used the key. */
export async function insertPayment(db: Queryable, p: NewPayment): Promise<PaymentRecord | null> {
  const rows = await db.query<PaymentRecord>(
    `INSERT INTO payments (id, user_id, idempotency_key, request_hash, provider, weeks, amount_cents,
       card_last4, status, lease_until_ts, created_ts)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10)
     ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING *`,
    [
      p.id,
      p.user_id,
      p.idempotency_key,
      p.request_hash,
      p.provider,
      p.weeks,
      p.amount_cents,
      p.card_last4,
      p.lease_until_ts,
      p.created_ts,
    ],
  );
  return rows[0] ?? null;
}

export async function findPaymentByKey(
  db: Queryable,
  userId: string,
  key: string,
): Promise<PaymentRecord | null> {
  const rows = await db.query<PaymentRecord>(
    'SELECT * FROM payments WHERE user_id = $1 AND idempotency_key = $2',
    [userId, key],
  );
  return rows[0] ?? null;
}

export async function findPayment(db: Queryable, id: string): Promise<PaymentRecord | null> {
  const rows = await db.query<PaymentRecord>('SELECT * FROM payments WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function findPaymentByProviderRef(
  db: Queryable,
  provider: PaymentRecord['provider'],
  ref: string,
): Promise<PaymentRecord | null> {
  const rows = await db.query<PaymentRecord>(
    'SELECT * FROM payments WHERE provider = $1 AND provider_ref = $2',
    [provider, ref],
  );
  return rows[0] ?? null;
}

/**
 * Takes the charge of a pending payment whose previous attempt died or gave up (its lease ran
 * out); null when another request holds it or it has moved on.
 */
export async function takePaymentLease(
  db: Queryable,
  id: string,
  now: number,
  until: number,
): Promise<PaymentRecord | null> {
  const rows = await db.query<PaymentRecord>(
    `UPDATE payments SET lease_until_ts = $3
     WHERE id = $1 AND status = 'pending' AND lease_until_ts <= $2 RETURNING *`,
    [id, now, until],
  );
  return rows[0] ?? null;
}

export async function releasePaymentLease(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE payments SET lease_until_ts = 0 WHERE id = $1 AND status = 'pending'`, [
    id,
  ]);
}

/** Pending → processing, keeping the provider's reference for its later webhook or confirmation. */
export async function markPaymentProcessing(
  db: Queryable,
  id: string,
  providerRef: string,
  cardLast4: string | null,
): Promise<void> {
  await db.query(
    `UPDATE payments SET status = 'processing', provider_ref = $2,
       card_last4 = coalesce($3, card_last4), lease_until_ts = 0
     WHERE id = $1 AND status = 'pending'`,
    [id, providerRef, cardLast4],
  );
}

export async function listPaymentsOfUser(db: Queryable, userId: string): Promise<PaymentRecord[]> {
  return db.query<PaymentRecord>(
    'SELECT * FROM payments WHERE user_id = $1 ORDER BY created_ts DESC, id DESC',
    [userId],
  );
}

export interface BilledPayment extends PaymentRecord {
  name: string;
  phone_number: string;
}

/** Succeeded payments settled in [from, to), oldest first, with who paid. */
export async function listSucceededPayments(
  db: Queryable,
  from: number,
  to: number,
): Promise<BilledPayment[]> {
  return db.query<BilledPayment>(
    `SELECT p.*, u.name, u.phone_number FROM payments p JOIN users u ON u.id = p.user_id
     WHERE p.status = 'succeeded' AND p.settled_ts >= $1 AND p.settled_ts < $2
     ORDER BY p.settled_ts, p.id`,
    [from, to],
  );
}

export function toPayment(record: PaymentRecord): Payment {
  return {
    id: record.id,
    status: record.status,
    weeks: record.weeks,
    amountCents: record.amount_cents,
    currency: 'usd',
    provider: record.provider,
    cardLast4: record.card_last4,
    createdTimestamp: record.created_ts,
    settledTimestamp: record.settled_ts,
    expirationDateTimestamp: record.expiration_after_ts,
  };
}

/** Whether the user ever paid: a succeeded payment, whatever happened to their time since. */
export async function hasSucceededPayment(db: Queryable, userId: string): Promise<boolean> {
  const rows = await db.query(
    "SELECT 1 FROM payments WHERE user_id = $1 AND status = 'succeeded' LIMIT 1",
    [userId],
  );
  return rows.length > 0;
}
