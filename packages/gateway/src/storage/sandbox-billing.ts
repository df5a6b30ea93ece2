// The sandbox processor's records, kept apart from the gateway's own as a real processor's are:
// customers (the card on file by test behaviour and last four digits only, never its number),
// hosted checkouts, subscriptions with their invoices, events to deliver, and portal sessions.
import type { Queryable } from './db.js';

/** How a test card behaves, as Stripe's test cards do. */
export type SandboxCardKind =
  | 'ok'
  | 'declined'
  | 'insufficient_funds'
  | 'authenticate'
  | 'fails_later';

export interface SandboxCustomer {
  id: string;
  email: string | null;
  card_kind: SandboxCardKind | null;
  card_last4: string | null;
  balance_cents: number;
  created_ts: number;
}

export interface SandboxCheckout {
  id: string;
  customer: string;
  mode: 'subscription' | 'payment';
  amount_cents: number;
  description: string;
  locale: 'en' | 'es';
  metadata: string;
  success_url: string;
  cancel_url: string;
  status: 'open' | 'complete' | 'expired';
  payment_intent: string;
  /** The card waiting for the bank's authentication (3-D Secure): its kind and last four. */
  awaiting_card: string | null;
  created_ts: number;
}

export interface SandboxSubscription {
  id: string;
  customer: string;
  amount_cents: number;
  metadata: string;
  status: 'active' | 'past_due' | 'canceled';
  cancel_at_period_end: boolean;
  current_period_end_ts: number;
  open_invoice: string | null;
  attempt_count: number;
  next_attempt_ts: number | null;
  created_ts: number;
}

export interface SandboxInvoice {
  id: string;
  subscription: string;
  customer: string;
  total_cents: number;
  amount_paid_cents: number;
  status: 'open' | 'paid' | 'void';
  payment_intent: string;
  card_last4: string | null;
  created_ts: number;
  paid_ts: number | null;
}

export async function insertSandboxCustomer(
  db: Queryable,
  c: Pick<SandboxCustomer, 'id' | 'created_ts'>,
) {
  await db.query('INSERT INTO sandbox_customers (id, created_ts) VALUES ($1, $2)', [
    c.id,
    c.created_ts,
  ]);
}

export async function findSandboxCustomer(db: Queryable, id: string) {
  const rows = await db.query<SandboxCustomer>('SELECT * FROM sandbox_customers WHERE id = $1', [
    id,
  ]);
  return rows[0] ?? null;
}

export async function saveSandboxCard(
  db: Queryable,
  id: string,
  kind: SandboxCardKind,
  last4: string,
) {
  await db.query('UPDATE sandbox_customers SET card_kind = $2, card_last4 = $3 WHERE id = $1', [
    id,
    kind,
    last4,
  ]);
}

export async function addSandboxBalance(db: Queryable, id: string, cents: number) {
  await db.query('UPDATE sandbox_customers SET balance_cents = balance_cents + $2 WHERE id = $1', [
    id,
    cents,
  ]);
}

export async function insertSandboxCheckout(
  db: Queryable,
  c: Omit<SandboxCheckout, 'status' | 'awaiting_card'>,
) {
  await db.query(
    `INSERT INTO sandbox_checkouts (id, customer, mode, amount_cents, description, locale, metadata,
       success_url, cancel_url, payment_intent, created_ts)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      c.id,
      c.customer,
      c.mode,
      c.amount_cents,
      c.description,
      c.locale,
      c.metadata,
      c.success_url,
      c.cancel_url,
      c.payment_intent,
      c.created_ts,
    ],
  );
}

export async function findSandboxCheckout(db: Queryable, id: string) {
  const rows = await db.query<SandboxCheckout>('SELECT * FROM sandbox_checkouts WHERE id = $1', [
    id,
  ]);
  return rows[0] ?? null;
}

export async function setSandboxCheckoutAwaiting(db: Queryable, id: string, card: string | null) {
  await db.query('UPDATE sandbox_checkouts SET awaiting_card = $2 WHERE id = $1', [id, card]);
}

/** Completes an open checkout; false when it was not open (paid twice, or expired). */
export async function completeSandboxCheckout(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE sandbox_checkouts SET status = 'complete', awaiting_card = NULL
     WHERE id = $1 AND status = 'open' RETURNING id`,
    [id],
  );
  return rows.length > 0;
}

export async function insertSandboxSubscription(
  db: Queryable,
  s: Pick<
    SandboxSubscription,
    'id' | 'customer' | 'amount_cents' | 'metadata' | 'current_period_end_ts' | 'created_ts'
  >,
) {
  await db.query(
    `INSERT INTO sandbox_subscriptions (id, customer, amount_cents, metadata, status,
       current_period_end_ts, created_ts) VALUES ($1, $2, $3, $4, 'active', $5, $6)`,
    [s.id, s.customer, s.amount_cents, s.metadata, s.current_period_end_ts, s.created_ts],
  );
}

export async function findSandboxSubscription(db: Queryable, id: string) {
  const rows = await db.query<SandboxSubscription>(
    'SELECT * FROM sandbox_subscriptions WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

export async function sandboxSubscriptionsOf(db: Queryable, customer: string) {
  return db.query<SandboxSubscription>(
    'SELECT * FROM sandbox_subscriptions WHERE customer = $1 ORDER BY created_ts DESC',
    [customer],
  );
}

/** Subscriptions with a renewal, retry or end due by `now`. */
export async function dueSandboxSubscriptions(db: Queryable, now: number, limit = 200) {
  return db.query<SandboxSubscription>(
    `SELECT * FROM sandbox_subscriptions
     WHERE (status = 'active' AND current_period_end_ts <= $1)
        OR (status = 'past_due' AND next_attempt_ts IS NOT NULL AND next_attempt_ts <= $1)
     ORDER BY id LIMIT $2`,
    [now, limit],
  );
}

export async function updateSandboxSubscription(
  db: Queryable,
  id: string,
  s: Partial<
    Pick<
      SandboxSubscription,
      | 'status'
      | 'cancel_at_period_end'
      | 'current_period_end_ts'
      | 'open_invoice'
      | 'attempt_count'
      | 'next_attempt_ts'
    >
  >,
) {
  const sets: string[] = [];
  const values: unknown[] = [id];
  for (const [key, value] of Object.entries(s)) {
    values.push(value);
    sets.push(`${key} = $${values.length}`);
  }
  if (sets.length === 0) return;
  await db.query(`UPDATE sandbox_subscriptions SET ${sets.join(', ')} WHERE id = $1`, values);
}

/**
 * Takes a subscription for one billing attempt, so two sweeps (or a sweep and a card update) never
 * bill it twice; null when another holds it. `until` is wall-clock time, whatever the test clock.
 */
export async function claimSandboxSubscription(
  db: Queryable,
  id: string,
  until: number,
): Promise<SandboxSubscription | null> {
  const rows = await db.query<SandboxSubscription>(
    `UPDATE sandbox_subscriptions SET claimed_until_ts = $2
     WHERE id = $1 AND (claimed_until_ts IS NULL OR claimed_until_ts < $3) RETURNING *`,
    [id, until, Date.now()],
  );
  return rows[0] ?? null;
}

export async function releaseSandboxSubscription(db: Queryable, id: string) {
  await db.query('UPDATE sandbox_subscriptions SET claimed_until_ts = NULL WHERE id = $1', [id]);
}

export async function insertSandboxInvoice(db: Queryable, i: SandboxInvoice) {
  await db.query(
    `INSERT INTO sandbox_invoices (id, subscription, customer, total_cents, amount_paid_cents,
       status, payment_intent, card_last4, created_ts, paid_ts)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      i.id,
      i.subscription,
      i.customer,
      i.total_cents,
      i.amount_paid_cents,
      i.status,
      i.payment_intent,
      i.card_last4,
      i.created_ts,
      i.paid_ts,
    ],
  );
}

export async function findSandboxInvoice(db: Queryable, id: string) {
  const rows = await db.query<SandboxInvoice>('SELECT * FROM sandbox_invoices WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function paySandboxInvoice(
  db: Queryable,
  id: string,
  p: { amountPaid: number; last4: string | null; now: number },
) {
  await db.query(
    `UPDATE sandbox_invoices SET status = 'paid', amount_paid_cents = $2, card_last4 = $3, paid_ts = $4
     WHERE id = $1`,
    [id, p.amountPaid, p.last4, p.now],
  );
}

export async function sandboxInvoicesOf(db: Queryable, customer: string) {
  return db.query<SandboxInvoice>(
    'SELECT * FROM sandbox_invoices WHERE customer = $1 ORDER BY created_ts DESC, id DESC LIMIT 100',
    [customer],
  );
}

export async function insertSandboxEvent(
  db: Queryable,
  e: { id: string; payload: string; now: number },
) {
  await db.query('INSERT INTO sandbox_events (id, payload, created_ts) VALUES ($1, $2, $3)', [
    e.id,
    e.payload,
    e.now,
  ]);
}

export async function markSandboxEventDelivered(db: Queryable, id: string) {
  await db.query('UPDATE sandbox_events SET delivered = true WHERE id = $1', [id]);
}

export async function undeliveredSandboxEvents(db: Queryable, limit = 100) {
  return db.query<{ id: string; payload: string }>(
    'SELECT id, payload FROM sandbox_events WHERE NOT delivered ORDER BY created_ts, id LIMIT $1',
    [limit],
  );
}

export interface SandboxPortalSession {
  id: string;
  customer: string;
  return_url: string;
  locale: 'en' | 'es';
  expires_ts: number;
}

export async function insertSandboxPortalSession(db: Queryable, p: SandboxPortalSession) {
  await db.query(
    `INSERT INTO sandbox_portal_sessions (id, customer, return_url, locale, expires_ts)
     VALUES ($1, $2, $3, $4, $5)`,
    [p.id, p.customer, p.return_url, p.locale, p.expires_ts],
  );
}

export async function findSandboxPortalSession(db: Queryable, id: string, now: number) {
  const rows = await db.query<SandboxPortalSession>(
    'SELECT * FROM sandbox_portal_sessions WHERE id = $1 AND expires_ts > $2',
    [id, now],
  );
  return rows[0] ?? null;
}
