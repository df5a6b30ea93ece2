// The payments table: one row per charge the processor reported (a checkout's one-off payment, a
// subscription's weekly invoice), keyed per driver by the processor's object ('pi:…', 'invoice:…'),
// so an event delivered twice, or two events about one charge, make one row. A succeeded row is
// never changed back by a late failure.
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
  kind: 'one_off' | 'renewal';
  refunded_weeks: number;
  receipt_url: string | null;
}

export interface ChargeReport {
  id: string;
  userId: string;
  /** The processor object the charge belongs to: one row per key and driver. */
  key: string;
  provider: PaymentRecord['provider'];
  /** The processor's PaymentIntent, which refunds and disputes name. */
  providerRef: string | null;
  kind: PaymentRecord['kind'];
  weeks: number;
  amountCents: number;
  status: 'succeeded' | 'failed';
  cardLast4: string | null;
  failureReason: string | null;
  receiptUrl: string | null;
  now: number;
}

/**
 * Records what the processor said about a charge. `succeededNow` is true only for the one call that
 * moved it to succeeded, which is the one that may add weeks.
 */
export async function recordCharge(
  tx: Queryable,
  c: ChargeReport,
): Promise<{ payment: PaymentRecord; succeededNow: boolean }> {
  const rows = await tx.query<PaymentRecord>(
    `INSERT INTO payments (id, user_id, idempotency_key, request_hash, provider, provider_ref, weeks,
       amount_cents, status, card_last4, failure_reason, kind, receipt_url, created_ts, settled_ts)
     VALUES ($1, $2, $3, '', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
     ON CONFLICT (user_id, idempotency_key) DO UPDATE SET status = EXCLUDED.status,
       failure_reason = EXCLUDED.failure_reason, settled_ts = EXCLUDED.settled_ts,
       card_last4 = coalesce(EXCLUDED.card_last4, payments.card_last4),
       receipt_url = coalesce(EXCLUDED.receipt_url, payments.receipt_url),
       provider_ref = coalesce(payments.provider_ref, EXCLUDED.provider_ref)
     WHERE payments.status <> 'succeeded'
     RETURNING *`,
    [
      c.id,
      c.userId,
      c.key,
      c.provider,
      c.providerRef,
      c.weeks,
      c.amountCents,
      c.status,
      c.cardLast4,
      c.failureReason,
      c.kind,
      c.receiptUrl,
      c.now,
    ],
  );
  const row = rows[0];
  if (row) return { payment: row, succeededNow: row.status === 'succeeded' };
  const existing = await tx.query<PaymentRecord>(
    'SELECT * FROM payments WHERE user_id = $1 AND idempotency_key = $2',
    [c.userId, c.key],
  );
  if (!existing[0]) throw new Error('payment vanished after a key conflict');
  return { payment: existing[0], succeededNow: false };
}

export async function setPaymentExpiration(
  tx: Queryable,
  id: string,
  expiration: number,
): Promise<void> {
  await tx.query('UPDATE payments SET expiration_after_ts = $2 WHERE id = $1', [id, expiration]);
}

export async function findPayment(db: Queryable, id: string): Promise<PaymentRecord | null> {
  const rows = await db.query<PaymentRecord>('SELECT * FROM payments WHERE id = $1', [id]);
  return rows[0] ?? null;
}

/** The succeeded charge a processor's PaymentIntent paid (refunds and disputes name it). */
export async function findPaidByProviderRef(
  db: Queryable,
  provider: PaymentRecord['provider'],
  ref: string,
): Promise<PaymentRecord | null> {
  const rows = await db.query<PaymentRecord>(
    `SELECT * FROM payments WHERE provider = $1 AND provider_ref = $2 AND status = 'succeeded'
     FOR UPDATE`,
    [provider, ref],
  );
  return rows[0] ?? null;
}

/** Raises the refunded weeks to `weeks`; answers how many more that is (0 when not more). */
export async function raiseRefundedWeeks(
  tx: Queryable,
  id: string,
  weeks: number,
): Promise<number> {
  const before = await tx.query<{ refunded_weeks: number }>(
    'SELECT refunded_weeks FROM payments WHERE id = $1 FOR UPDATE',
    [id],
  );
  const previous = before[0]?.refunded_weeks ?? 0;
  if (weeks <= previous) return 0;
  await tx.query('UPDATE payments SET refunded_weeks = $2 WHERE id = $1', [id, weeks]);
  return weeks - previous;
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
    kind: record.kind,
    refundedWeeks: record.refunded_weeks,
    receiptUrl: record.receipt_url,
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
