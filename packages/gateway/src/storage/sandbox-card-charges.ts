// The sandbox card network's own ledger: one charge per idempotency key, as a real processor keeps
// it, so a retried charge never bills twice and tests can count what was really charged.
import type { Queryable } from './db.js';

export interface SandboxChargeRecord {
  id: string;
  idempotency_key: string;
  amount_cents: number;
  currency: string;
  card_last4: string;
  status: 'processing' | 'succeeded' | 'failed';
  created_ts: number;
}

/** Records the charge, or returns the one already made under this key. */
export async function recordSandboxCharge(
  db: Queryable,
  charge: SandboxChargeRecord,
): Promise<SandboxChargeRecord> {
  const inserted = await db.query<SandboxChargeRecord>(
    `INSERT INTO sandbox_card_charges (id, idempotency_key, amount_cents, currency, card_last4,
       status, created_ts)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (idempotency_key) DO NOTHING RETURNING *`,
    [
      charge.id,
      charge.idempotency_key,
      charge.amount_cents,
      charge.currency,
      charge.card_last4,
      charge.status,
      charge.created_ts,
    ],
  );
  if (inserted[0]) return inserted[0];
  // A separate statement: its snapshot sees the row that won the conflict.
  const existing = await db.query<SandboxChargeRecord>(
    'SELECT * FROM sandbox_card_charges WHERE idempotency_key = $1',
    [charge.idempotency_key],
  );
  if (!existing[0]) throw new Error('sandbox charge vanished after an idempotency-key conflict');
  return existing[0];
}

/** Settles a processing charge; null when it is not processing (already settled or unknown). */
export async function settleSandboxCharge(
  db: Queryable,
  id: string,
  outcome: 'succeeded' | 'failed',
): Promise<SandboxChargeRecord | null> {
  const rows = await db.query<SandboxChargeRecord>(
    `UPDATE sandbox_card_charges SET status = $2 WHERE id = $1 AND status = 'processing' RETURNING *`,
    [id, outcome],
  );
  return rows[0] ?? null;
}

export async function countSandboxCharges(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_card_charges');
  return rows[0]?.n ?? 0;
}
