// Subscription billing state the processor's webhooks keep: hosted checkouts the gateway opened,
// each driver's processor customer and subscription, the events already applied, refunds with
// their reason, billing flags (disputes) and referral credit.
import type { Checkout, Subscription } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

export type ProviderName = 'sandbox' | 'stripe';

export interface CheckoutRecord {
  id: string;
  user_id: string;
  idempotency_key: string;
  provider: ProviderName;
  mode: 'subscription' | 'payment';
  weeks: number;
  amount_cents: number;
  provider_ref: string | null;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  failure_code: string | null;
  created_ts: number;
}

/** Inserts a checkout, or returns null when this driver already used the key. */
export async function insertCheckout(
  db: Queryable,
  c: Omit<CheckoutRecord, 'provider_ref' | 'url' | 'status' | 'failure_code'>,
): Promise<CheckoutRecord | null> {
  const rows = await db.query<CheckoutRecord>(
    `INSERT INTO checkouts (id, user_id, idempotency_key, provider, mode, weeks, amount_cents, created_ts)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING *`,
    [c.id, c.user_id, c.idempotency_key, c.provider, c.mode, c.weeks, c.amount_cents, c.created_ts],
  );
  return rows[0] ?? null;
}

export async function findCheckoutByKey(db: Queryable, userId: string, key: string) {
  const rows = await db.query<CheckoutRecord>(
    'SELECT * FROM checkouts WHERE user_id = $1 AND idempotency_key = $2',
    [userId, key],
  );
  return rows[0] ?? null;
}

export async function findCheckout(db: Queryable, id: string): Promise<CheckoutRecord | null> {
  const rows = await db.query<CheckoutRecord>('SELECT * FROM checkouts WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function setCheckoutUrl(db: Queryable, id: string, ref: string, url: string) {
  await db.query('UPDATE checkouts SET provider_ref = $2, url = $3 WHERE id = $1', [id, ref, url]);
}

export async function deleteCheckout(db: Queryable, id: string) {
  await db.query('DELETE FROM checkouts WHERE id = $1 AND url IS NULL', [id]);
}

export async function updateCheckout(
  db: Queryable,
  id: string,
  change: { status?: CheckoutRecord['status']; failureCode?: string | null },
) {
  await db.query(
    `UPDATE checkouts SET status = CASE WHEN status = 'complete' THEN status ELSE coalesce($2, status) END,
       failure_code = CASE WHEN $3::boolean THEN $4 ELSE failure_code END
     WHERE id = $1`,
    [id, change.status ?? null, change.failureCode !== undefined, change.failureCode ?? null],
  );
}

export function toCheckout(c: CheckoutRecord): Checkout {
  return {
    id: c.id,
    mode: c.mode,
    weeks: c.weeks,
    amountCents: c.amount_cents,
    provider: c.provider,
    status: c.status,
    url: c.url ?? '',
    failureCode: c.failure_code,
    createdTimestamp: c.created_ts,
  };
}

export async function findCustomer(db: Queryable, userId: string, provider: ProviderName) {
  const rows = await db.query<{ customer_ref: string }>(
    'SELECT customer_ref FROM billing_customers WHERE user_id = $1 AND provider = $2',
    [userId, provider],
  );
  return rows[0]?.customer_ref ?? null;
}

/** Keeps the first customer made for a driver; answers the one kept. */
export async function saveCustomer(
  db: Queryable,
  userId: string,
  provider: ProviderName,
  customerRef: string,
): Promise<string> {
  await db.query(
    `INSERT INTO billing_customers (user_id, provider, customer_ref) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, provider) DO NOTHING`,
    [userId, provider, customerRef],
  );
  return (await findCustomer(db, userId, provider)) ?? customerRef;
}

export interface SubscriptionRecord {
  id: string;
  user_id: string;
  provider: ProviderName;
  customer_ref: string | null;
  status: Subscription['status'];
  cancel_at_period_end: boolean;
  current_period_end_ts: number | null;
  dunning_attempts: number;
  next_retry_ts: number | null;
  last_failure_code: string | null;
  failed_since_ts: number | null;
  credit_weeks: number;
  created_ts: number;
  canceled_ts: number | null;
}

/** What an event says about a subscription; fields left undefined are kept as they are. */
export interface SubscriptionChange {
  id: string;
  userId: string;
  provider: ProviderName;
  customerRef?: string | null;
  status?: SubscriptionRecord['status'];
  cancelAtPeriodEnd?: boolean;
  currentPeriodEnd?: number | null;
  now: number;
}

export async function upsertSubscription(tx: Queryable, s: SubscriptionChange) {
  const rows = await tx.query<SubscriptionRecord>(
    `INSERT INTO subscriptions (id, user_id, provider, customer_ref, status, cancel_at_period_end,
       current_period_end_ts, created_ts, canceled_ts)
     VALUES ($1, $2, $3, $4, coalesce($5, 'active'), coalesce($6, false), $7, $8,
       CASE WHEN $5 = 'canceled' THEN $8::bigint END)
     ON CONFLICT (id) DO UPDATE SET
       customer_ref = coalesce(EXCLUDED.customer_ref, subscriptions.customer_ref),
       status = CASE WHEN subscriptions.status = 'canceled' THEN 'canceled'
         ELSE coalesce($5, subscriptions.status) END,
       cancel_at_period_end = coalesce($6, subscriptions.cancel_at_period_end),
       current_period_end_ts = coalesce($7, subscriptions.current_period_end_ts),
       canceled_ts = CASE WHEN $5 = 'canceled' AND subscriptions.canceled_ts IS NULL THEN $8::bigint
         ELSE subscriptions.canceled_ts END
     RETURNING *`,
    [
      s.id,
      s.userId,
      s.provider,
      s.customerRef ?? null,
      s.status ?? null,
      s.cancelAtPeriodEnd ?? null,
      s.currentPeriodEnd ?? null,
      s.now,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error(`subscription ${s.id} vanished`);
  return row;
}

/** A renewal failed: the subscription is in dunning until a retry or a new card pays it. */
export async function markDunning(
  tx: Queryable,
  id: string,
  d: { attempts: number; nextRetry: number | null; code: string; now: number },
) {
  await tx.query(
    `UPDATE subscriptions SET status = CASE WHEN status = 'canceled' THEN status ELSE 'past_due' END,
       dunning_attempts = greatest(dunning_attempts, $2), next_retry_ts = $3,
       last_failure_code = $4, failed_since_ts = coalesce(failed_since_ts, $5)
     WHERE id = $1`,
    [id, d.attempts, d.nextRetry, d.code, d.now],
  );
}

/** A renewal was paid: out of dunning; `usedCredit` weeks of referral credit paid for it. */
export async function markRenewed(tx: Queryable, id: string, usedCredit: number) {
  await tx.query(
    `UPDATE subscriptions SET status = CASE WHEN status = 'canceled' THEN status ELSE 'active' END,
       dunning_attempts = 0, next_retry_ts = NULL, last_failure_code = NULL, failed_since_ts = NULL,
       credit_weeks = greatest(credit_weeks - $2, 0)
     WHERE id = $1`,
    [id, usedCredit],
  );
}

export async function findSubscription(db: Queryable, id: string) {
  const rows = await db.query<SubscriptionRecord>('SELECT * FROM subscriptions WHERE id = $1', [
    id,
  ]);
  return rows[0] ?? null;
}

/** The driver's current subscription: the newest one not canceled, else the newest. */
export async function currentSubscription(db: Queryable, userId: string) {
  const rows = await db.query<SubscriptionRecord>(
    `SELECT * FROM subscriptions WHERE user_id = $1
     ORDER BY (status = 'canceled'), created_ts DESC, id DESC LIMIT 1`,
    [userId],
  );
  return rows[0] ?? null;
}

export function toSubscription(s: SubscriptionRecord): Subscription {
  return {
    status: s.status,
    cancelAtPeriodEnd: s.cancel_at_period_end,
    currentPeriodEndTimestamp: s.current_period_end_ts,
    dunningAttempts: s.dunning_attempts,
    nextRetryTimestamp: s.next_retry_ts,
    lastFailureCode: s.last_failure_code,
    canceledTimestamp: s.canceled_ts,
  };
}

/** Stores an event's id; false when it was stored before (the event was already applied). */
export async function claimEvent(
  tx: Queryable,
  e: { provider: ProviderName; id: string; type: string; now: number },
): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO webhook_events (provider, id, type, received_ts) VALUES ($1, $2, $3, $4)
     ON CONFLICT (provider, id) DO NOTHING RETURNING id`,
    [e.provider, e.id, e.type, e.now],
  );
  return rows.length > 0;
}

export interface RefundRecord {
  id: string;
  payment_id: string;
  user_id: string;
  weeks: number;
  amount_cents: number;
  reason: string;
  refunded_by: string;
  provider_ref: string | null;
  created_ts: number;
}

export async function insertRefund(db: Queryable, r: RefundRecord) {
  await db.query(
    `INSERT INTO refunds (id, payment_id, user_id, weeks, amount_cents, reason, refunded_by,
       provider_ref, created_ts) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      r.id,
      r.payment_id,
      r.user_id,
      r.weeks,
      r.amount_cents,
      r.reason,
      r.refunded_by,
      r.provider_ref,
      r.created_ts,
    ],
  );
}

/** Weeks of a payment already refunded through the admin route. */
export async function refundedThroughUs(db: Queryable, paymentId: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT coalesce(sum(weeks), 0)::int AS n FROM refunds WHERE payment_id = $1',
    [paymentId],
  );
  return rows[0]?.n ?? 0;
}

export async function flagAccount(
  tx: Queryable,
  f: {
    id: string;
    userId: string;
    paymentId: string | null;
    reason: string;
    amountCents: number;
    now: number;
  },
) {
  await tx.query(
    `INSERT INTO billing_flags (id, user_id, kind, payment_id, reason, amount_cents, created_ts)
     VALUES ($1, $2, 'dispute', $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
    [f.id, f.userId, f.paymentId, f.reason, f.amountCents, f.now],
  );
}

export interface CreditRecord {
  id: string;
  user_id: string;
  weeks: number;
  pushed: boolean;
  created_ts: number;
}

/** A free week owed to a subscriber, to be sent to the processor as credit on the next renewal. */
export async function addCredit(tx: Queryable, c: { id: string; userId: string; now: number }) {
  await tx.query(
    `INSERT INTO billing_credits (id, user_id, weeks, created_ts) VALUES ($1, $2, 1, $3)
     ON CONFLICT (id) DO NOTHING`,
    [c.id, c.userId, c.now],
  );
}

export async function listCredits(db: Queryable, userId: string) {
  return db.query<CreditRecord>(
    'SELECT * FROM billing_credits WHERE user_id = $1 ORDER BY created_ts DESC',
    [userId],
  );
}

export async function unpushedCredits(db: Queryable, limit = 50) {
  return db.query<CreditRecord>(
    'SELECT * FROM billing_credits WHERE NOT pushed ORDER BY created_ts LIMIT $1',
    [limit],
  );
}

/** Marks a credit sent and counts it on the subscription it will pay for. */
export async function markCreditPushed(tx: Queryable, id: string, subscriptionId: string) {
  const rows = await tx.query<{ weeks: number }>(
    'UPDATE billing_credits SET pushed = true WHERE id = $1 AND NOT pushed RETURNING weeks',
    [id],
  );
  if (rows[0]) {
    await tx.query('UPDATE subscriptions SET credit_weeks = credit_weeks + $2 WHERE id = $1', [
      subscriptionId,
      rows[0].weeks,
    ]);
  }
}
