// The billing admins' view of the subscription business now: active subscriptions and what they
// bill per week, the last 7 days' takings net of refunds, renewals failing in dunning, cancellations,
// disputed charges and the refunds made (with who made them and why).
import { type BillingOverview, WEEK_MS } from '@blockcatch/sdk';
import type { Queryable } from '../storage/db.js';

const LIST_LIMIT = 200;

export async function billingOverview(
  db: Queryable,
  options: { weeklyPriceCents: number; now: number },
): Promise<BillingOverview> {
  const { now } = options;
  const [active, takings, dunning, cancellations, flags, refunds] = await Promise.all([
    db.query<{ n: number; renewing: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE NOT cancel_at_period_end)::int AS renewing
       FROM subscriptions WHERE status IN ('active', 'past_due')`,
    ),
    db.query<{ cents: string | null; refunded: string | null }>(
      `SELECT sum(amount_cents) AS cents,
         sum(CASE WHEN weeks > 0 THEN amount_cents * refunded_weeks / weeks ELSE 0 END) AS refunded
       FROM payments WHERE status = 'succeeded' AND settled_ts >= $1`,
      [now - WEEK_MS],
    ),
    db.query<{
      user_id: string;
      name: string;
      phone_number: string;
      dunning_attempts: number;
      next_retry_ts: number | null;
      failed_since_ts: number | null;
      last_failure_code: string | null;
      expiration_ts: number | null;
    }>(
      `SELECT s.user_id, u.name, u.phone_number, s.dunning_attempts, s.next_retry_ts,
         s.failed_since_ts, s.last_failure_code, u.expiration_ts
       FROM subscriptions s JOIN users u ON u.id = s.user_id
       WHERE s.status = 'past_due' ORDER BY s.failed_since_ts NULLS LAST, s.id LIMIT $1`,
      [LIST_LIMIT],
    ),
    db.query<{
      user_id: string;
      name: string;
      phone_number: string;
      status: BillingOverview['cancellations'][number]['status'];
      current_period_end_ts: number | null;
      canceled_ts: number | null;
    }>(
      `SELECT s.user_id, u.name, u.phone_number, s.status, s.current_period_end_ts, s.canceled_ts
       FROM subscriptions s JOIN users u ON u.id = s.user_id
       WHERE s.cancel_at_period_end OR s.status = 'canceled'
       ORDER BY coalesce(s.canceled_ts, s.current_period_end_ts) DESC NULLS LAST, s.id LIMIT $1`,
      [LIST_LIMIT],
    ),
    db.query<{
      user_id: string;
      name: string;
      phone_number: string;
      payment_id: string | null;
      reason: string;
      amount_cents: number;
      created_ts: number;
    }>(
      `SELECT f.user_id, u.name, u.phone_number, f.payment_id, f.reason, f.amount_cents, f.created_ts
       FROM billing_flags f JOIN users u ON u.id = f.user_id
       ORDER BY f.created_ts DESC, f.id LIMIT $1`,
      [LIST_LIMIT],
    ),
    db.query<{
      id: string;
      payment_id: string;
      weeks: number;
      amount_cents: number;
      reason: string;
      refunded_by: string;
      created_ts: number;
      name: string;
      phone_number: string;
    }>(
      `SELECT r.*, u.name, u.phone_number FROM refunds r JOIN users u ON u.id = r.user_id
       ORDER BY r.created_ts DESC, r.id LIMIT $1`,
      [LIST_LIMIT],
    ),
  ]);
  const who = (r: { user_id: string; name: string; phone_number: string }) => ({
    userId: r.user_id,
    name: r.name,
    phoneNumber: r.phone_number,
  });
  return {
    weeklyPriceCents: options.weeklyPriceCents,
    activeSubscriptions: active[0]?.n ?? 0,
    weeklyRevenueCents: (active[0]?.renewing ?? 0) * options.weeklyPriceCents,
    lastSevenDaysCents:
      Number(takings[0]?.cents ?? 0) - Math.round(Number(takings[0]?.refunded ?? 0)),
    dunning: dunning.map((r) => ({
      ...who(r),
      attempts: r.dunning_attempts,
      nextRetryTimestamp: r.next_retry_ts === null ? null : Number(r.next_retry_ts),
      failedSinceTimestamp: r.failed_since_ts === null ? null : Number(r.failed_since_ts),
      lastFailureCode: r.last_failure_code,
      expirationDateTimestamp: r.expiration_ts === null ? null : Number(r.expiration_ts),
    })),
    cancellations: cancellations.map((r) => ({
      ...who(r),
      status: r.status,
      endsTimestamp: r.current_period_end_ts === null ? null : Number(r.current_period_end_ts),
      canceledTimestamp: r.canceled_ts === null ? null : Number(r.canceled_ts),
    })),
    flags: flags.map((r) => ({
      ...who(r),
      kind: 'dispute' as const,
      paymentId: r.payment_id,
      reason: r.reason,
      amountCents: r.amount_cents,
      createdTimestamp: Number(r.created_ts),
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      paymentId: r.payment_id,
      weeks: r.weeks,
      amountCents: r.amount_cents,
      reason: r.reason,
      refundedBy: r.refunded_by,
      createdTimestamp: Number(r.created_ts),
      name: r.name,
      phoneNumber: r.phone_number,
    })),
  };
}
