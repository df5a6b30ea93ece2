// The sandbox card network's own ledger: one charge per PaymentIntent, as a real processor keeps
// it, with what was refunded, so tests can count what was really charged.
import type { Queryable } from './db.js';

export interface SandboxChargeRecord {
  id: string;
  idempotency_key: string;
  payment_intent: string | null;
  amount_cents: number;
  currency: string;
  card_last4: string;
  status: 'processing' | 'succeeded' | 'failed';
  refunded_cents: number;
  created_ts: number;
}

/** Records a charge attempt; a PaymentIntent tried again replaces its failed attempt. */
export async function recordSandboxCharge(
  db: Queryable,
  charge: Omit<SandboxChargeRecord, 'refunded_cents' | 'idempotency_key'>,
): Promise<SandboxChargeRecord> {
  const rows = await db.query<SandboxChargeRecord>(
    `INSERT INTO sandbox_card_charges (id, idempotency_key, payment_intent, amount_cents, currency,
       card_last4, status, created_ts)
     VALUES ($1, $2, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (idempotency_key) DO UPDATE SET status = EXCLUDED.status,
       card_last4 = EXCLUDED.card_last4, created_ts = EXCLUDED.created_ts
     WHERE sandbox_card_charges.status <> 'succeeded'
     RETURNING *`,
    [
      charge.id,
      charge.payment_intent,
      charge.amount_cents,
      charge.currency,
      charge.card_last4,
      charge.status,
      charge.created_ts,
    ],
  );
  if (rows[0]) return rows[0];
  const existing = await findSandboxCharge(db, charge.payment_intent ?? '');
  if (!existing) throw new Error('sandbox charge vanished after a conflict');
  return existing;
}

export async function findSandboxCharge(
  db: Queryable,
  paymentIntent: string,
): Promise<SandboxChargeRecord | null> {
  const rows = await db.query<SandboxChargeRecord>(
    'SELECT * FROM sandbox_card_charges WHERE payment_intent = $1',
    [paymentIntent],
  );
  return rows[0] ?? null;
}

/** Adds a refund to a succeeded charge, never past what was charged; null when it would be. */
export async function refundSandboxCharge(
  db: Queryable,
  paymentIntent: string,
  cents: number,
): Promise<SandboxChargeRecord | null> {
  const rows = await db.query<SandboxChargeRecord>(
    `UPDATE sandbox_card_charges SET refunded_cents = refunded_cents + $2
     WHERE payment_intent = $1 AND status = 'succeeded' AND refunded_cents + $2 <= amount_cents
     RETURNING *`,
    [paymentIntent, cents],
  );
  return rows[0] ?? null;
}

export async function countSandboxCharges(
  db: Queryable,
  status: SandboxChargeRecord['status'] = 'succeeded',
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sandbox_card_charges WHERE status = $1',
    [status],
  );
  return rows[0]?.n ?? 0;
}
