// The processor's webhook events, Stripe-shaped whichever provider sent them (the sandbox speaks
// Stripe's event format), validated with bounds, stored by id and applied once in one transaction.
// docs/architecture.md ("Payments") lists every event and what it does.
import { randomBytes } from 'node:crypto';
import { refundedWeeks } from '@blockcatch/sdk';
import { z } from 'zod';
import {
  claimEvent,
  findCheckout,
  findSubscription,
  flagAccount,
  markDunning,
  markRenewed,
  type ProviderName,
  saveCustomer,
  updateCheckout,
  upsertSubscription,
} from '../storage/billing.js';
import type { Db, Queryable } from '../storage/db.js';
import {
  findPaidByProviderRef,
  type PaymentRecord,
  raiseRefundedWeeks,
  recordCharge,
} from '../storage/payments.js';
import { grantWeeks, takeBackWeeks } from './settle.js';

const id = z.string().min(1).max(255);
/** An expandable field: the object's id, or the object itself. */
const ref = z
  .union([id, z.object({ id })])
  .nullish()
  .transform((v) => (v == null ? null : typeof v === 'string' ? v : v.id));
const metadata = z
  .record(z.string().max(40), z.string().max(500))
  .nullish()
  .transform((m) => m ?? {});
const cents = z.number().int().min(0).max(100_000_000);
const seconds = z.number().int().min(0).max(10_000_000_000);

export const eventSchema = z.object({
  id,
  type: z.string().min(1).max(100),
  created: seconds,
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type ProcessorEvent = z.infer<typeof eventSchema>;

const checkoutSessionSchema = z.object({
  id,
  mode: z.enum(['payment', 'subscription', 'setup']),
  payment_status: z.string().max(40),
  client_reference_id: z.string().max(255).nullish(),
  customer: ref,
  subscription: ref,
  payment_intent: ref,
  amount_total: cents.nullish(),
  metadata,
});

const paymentIntentSchema = z.object({
  id,
  amount: cents,
  metadata,
  last_payment_error: z
    .object({ code: z.string().max(100).nullish(), decline_code: z.string().max(100).nullish() })
    .nullish(),
  latest_charge: z
    .union([
      id,
      z.object({
        id,
        payment_method_details: z
          .object({ card: z.object({ last4: z.string().max(4).nullish() }).nullish() })
          .nullish(),
        receipt_url: z.string().max(2000).nullish(),
      }),
    ])
    .nullish(),
});

const invoiceSchema = z.object({
  id,
  customer: ref,
  total: cents,
  amount_paid: cents,
  attempt_count: z.number().int().min(0).max(1000),
  next_payment_attempt: seconds.nullish(),
  hosted_invoice_url: z.string().max(2000).nullish(),
  parent: z
    .object({
      subscription_details: z.object({ subscription: ref, metadata }).nullish(),
    })
    .nullish(),
  payments: z
    .object({
      data: z.array(z.object({ payment: z.object({ payment_intent: ref }).nullish() })).max(100),
    })
    .nullish(),
  lines: z
    .object({
      data: z
        .array(z.object({ period: z.object({ start: seconds, end: seconds }).nullish() }))
        .max(100),
    })
    .nullish(),
});

const subscriptionSchema = z.object({
  id,
  customer: ref,
  status: z.string().max(40),
  cancel_at_period_end: z.boolean(),
  metadata,
  items: z
    .object({ data: z.array(z.object({ current_period_end: seconds.nullish() })).max(100) })
    .nullish(),
});

const chargeSchema = z.object({
  id,
  payment_intent: ref,
  amount: cents,
  amount_refunded: cents,
});

const disputeSchema = z.object({
  id,
  charge: ref,
  payment_intent: ref,
  amount: cents,
  reason: z.string().max(100),
});

/** What the gateway does after the event's transaction commits. */
export type EventEffect =
  | { kind: 'renewal-failed'; payment: PaymentRecord }
  | { kind: 'credit-owed'; userId: string };

const HANDLED_EVENTS = [
  'checkout.session.completed',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'charge.refunded',
  'charge.dispute.created',
] as const;

/**
 * Applies a verified event once: its id is stored in the same transaction as its changes, so a
 * redelivery (or two deliveries at once) changes nothing the second time. An event that names
 * nothing of ours is acknowledged, or the processor would resend it for days.
 */
export async function applyEvent(
  db: Db,
  provider: ProviderName,
  event: ProcessorEvent,
  now: number,
): Promise<EventEffect[]> {
  if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return [];
  return db.transaction(async (tx) => {
    if (!(await claimEvent(tx, { provider, id: event.id, type: event.type, now }))) return [];
    const effects: EventEffect[] = [];
    await handle(tx, provider, event, now, effects);
    return effects;
  });
}

async function handle(
  tx: Queryable,
  provider: ProviderName,
  event: ProcessorEvent,
  now: number,
  effects: EventEffect[],
): Promise<void> {
  const object = event.data.object;
  switch (event.type) {
    case 'checkout.session.completed': {
      const s = checkoutSessionSchema.parse(object);
      const userId = await knownUser(tx, s.metadata.userId ?? s.client_reference_id ?? null);
      if (!userId) return;
      if (s.metadata.checkoutId) {
        await updateCheckout(tx, s.metadata.checkoutId, { status: 'complete', failureCode: null });
      }
      if (s.customer) await saveCustomer(tx, userId, provider, s.customer);
      if (s.mode === 'subscription' && s.subscription) {
        await upsertSubscription(tx, {
          id: s.subscription,
          userId,
          provider,
          customerRef: s.customer,
          now,
        });
      }
      if (s.mode === 'payment' && s.payment_status === 'paid' && s.payment_intent) {
        const weeks = weeksOf(s.metadata.weeks);
        if (weeks) {
          await oneOffPaid(tx, effects, {
            provider,
            userId,
            paymentIntent: s.payment_intent,
            weeks,
            amountCents: s.amount_total ?? 0,
            cardLast4: null,
            receiptUrl: null,
            now,
          });
        }
      }
      return;
    }
    case 'payment_intent.succeeded': {
      const pi = paymentIntentSchema.parse(object);
      const userId = await knownUser(tx, pi.metadata.userId ?? null);
      const weeks = weeksOf(pi.metadata.weeks);
      // Invoices' PaymentIntents carry no weeks: their invoice.paid extends the service.
      if (!userId || !weeks) return;
      if (pi.metadata.checkoutId) {
        await updateCheckout(tx, pi.metadata.checkoutId, { status: 'complete', failureCode: null });
      }
      const charge = typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
      await oneOffPaid(tx, effects, {
        provider,
        userId,
        paymentIntent: pi.id,
        weeks,
        amountCents: pi.amount,
        cardLast4: charge?.payment_method_details?.card?.last4 ?? null,
        receiptUrl: charge?.receipt_url ?? null,
        now,
      });
      return;
    }
    case 'payment_intent.payment_failed': {
      const pi = paymentIntentSchema.parse(object);
      const userId = await knownUser(tx, pi.metadata.userId ?? null);
      const weeks = weeksOf(pi.metadata.weeks);
      if (!userId || !weeks) return;
      const code = pi.last_payment_error?.decline_code ?? pi.last_payment_error?.code ?? 'declined';
      // The driver is still on the checkout page, which said why; the app says it again on return.
      if (pi.metadata.checkoutId) {
        await updateCheckout(tx, pi.metadata.checkoutId, { failureCode: code });
      }
      await recordCharge(tx, {
        id: newPaymentId(),
        userId,
        key: `pi:${pi.id}`,
        provider,
        providerRef: pi.id,
        kind: 'one_off',
        weeks,
        amountCents: pi.amount,
        status: 'failed',
        cardLast4: null,
        failureReason: code,
        receiptUrl: null,
        now,
      });
      return;
    }
    case 'payment_intent.canceled': {
      const pi = paymentIntentSchema.parse(object);
      if (pi.metadata.checkoutId && (await findCheckout(tx, pi.metadata.checkoutId))) {
        await updateCheckout(tx, pi.metadata.checkoutId, { status: 'expired' });
      }
      // A canceled intent never charges: an attempt recorded as failed says so.
      await tx.query(
        `UPDATE payments SET failure_reason = 'canceled'
         WHERE provider = $1 AND provider_ref = $2 AND status = 'failed'`,
        [provider, pi.id],
      );
      return;
    }
    case 'invoice.paid': {
      const inv = invoiceSchema.parse(object);
      const sub = await subscriptionOfInvoice(tx, provider, inv);
      // Only a billed week counts: a $0 invoice with nothing due (a trial) buys nothing.
      if (!sub || inv.total === 0) return;
      await upsertSubscription(tx, {
        id: sub.id,
        userId: sub.userId,
        provider,
        customerRef: inv.customer,
        status: 'active',
        now,
      });
      const { payment, succeededNow } = await recordCharge(tx, {
        id: newPaymentId(),
        userId: sub.userId,
        key: `invoice:${inv.id}`,
        provider,
        providerRef: inv.payments?.data[0]?.payment?.payment_intent ?? null,
        kind: 'renewal',
        weeks: 1,
        amountCents: inv.amount_paid,
        status: 'succeeded',
        cardLast4: null,
        failureReason: null,
        receiptUrl: inv.hosted_invoice_url ?? null,
        now,
      });
      if (!succeededNow) return;
      // The customer's credit balance paid it: one week of referral credit was used.
      await markRenewed(tx, sub.id, inv.amount_paid === 0 ? 1 : 0);
      const period = inv.lines?.data[0]?.period;
      const granted = await grantWeeks(tx, payment, 1, now, period ? period.start * 1000 : now);
      if (granted?.creditFor) effects.push({ kind: 'credit-owed', userId: granted.creditFor });
      if (period) {
        await upsertSubscription(tx, {
          id: sub.id,
          userId: sub.userId,
          provider,
          currentPeriodEnd: period.end * 1000,
          now,
        });
      }
      return;
    }
    case 'invoice.payment_failed': {
      const inv = invoiceSchema.parse(object);
      const sub = await subscriptionOfInvoice(tx, provider, inv);
      if (!sub) return;
      const code = 'card_declined';
      await upsertSubscription(tx, { id: sub.id, userId: sub.userId, provider, now });
      await markDunning(tx, sub.id, {
        attempts: inv.attempt_count,
        nextRetry: inv.next_payment_attempt ? inv.next_payment_attempt * 1000 : null,
        code,
        now,
      });
      const { payment } = await recordCharge(tx, {
        id: newPaymentId(),
        userId: sub.userId,
        key: `invoice:${inv.id}`,
        provider,
        providerRef: inv.payments?.data[0]?.payment?.payment_intent ?? null,
        kind: 'renewal',
        weeks: 1,
        amountCents: inv.total,
        status: 'failed',
        cardLast4: null,
        failureReason: code,
        receiptUrl: inv.hosted_invoice_url ?? null,
        now,
      });
      // One alert per unpaid invoice, on its first failure; the retries follow the schedule.
      if (inv.attempt_count <= 1 && payment.status === 'failed') {
        effects.push({ kind: 'renewal-failed', payment });
      }
      return;
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const s = subscriptionSchema.parse(object);
      const known = await findSubscription(tx, s.id);
      const userId = known?.user_id ?? (await knownUser(tx, s.metadata.userId ?? null));
      if (!userId) return;
      const periodEnd = s.items?.data[0]?.current_period_end;
      await upsertSubscription(tx, {
        id: s.id,
        userId,
        provider,
        customerRef: s.customer,
        status: event.type === 'customer.subscription.deleted' ? 'canceled' : statusOf(s.status),
        cancelAtPeriodEnd: s.cancel_at_period_end,
        currentPeriodEnd: periodEnd ? periodEnd * 1000 : null,
        now,
      });
      return;
    }
    case 'charge.refunded': {
      const ch = chargeSchema.parse(object);
      if (!ch.payment_intent) return;
      const payment = await findPaidByProviderRef(tx, provider, ch.payment_intent);
      if (!payment) return;
      const weeks = refundedWeeks(ch.amount_refunded, payment.amount_cents, payment.weeks);
      const more = await raiseRefundedWeeks(tx, payment.id, weeks);
      if (more > 0) await takeBackWeeks(tx, payment.user_id, more, now);
      return;
    }
    case 'charge.dispute.created': {
      const d = disputeSchema.parse(object);
      if (!d.payment_intent) return;
      const payment = await findPaidByProviderRef(tx, provider, d.payment_intent);
      if (!payment) return;
      await flagAccount(tx, {
        id: d.id,
        userId: payment.user_id,
        paymentId: payment.id,
        reason: d.reason,
        amountCents: d.amount,
        now,
      });
      return;
    }
  }
}

async function oneOffPaid(
  tx: Queryable,
  effects: EventEffect[],
  p: {
    provider: ProviderName;
    userId: string;
    paymentIntent: string;
    weeks: number;
    amountCents: number;
    cardLast4: string | null;
    receiptUrl: string | null;
    now: number;
  },
) {
  const { payment, succeededNow } = await recordCharge(tx, {
    id: newPaymentId(),
    userId: p.userId,
    key: `pi:${p.paymentIntent}`,
    provider: p.provider,
    providerRef: p.paymentIntent,
    kind: 'one_off',
    weeks: p.weeks,
    amountCents: p.amountCents,
    status: 'succeeded',
    cardLast4: p.cardLast4,
    failureReason: null,
    receiptUrl: p.receiptUrl,
    now: p.now,
  });
  if (!succeededNow) return;
  const granted = await grantWeeks(tx, payment, p.weeks, p.now);
  if (granted?.creditFor) effects.push({ kind: 'credit-owed', userId: granted.creditFor });
}

async function subscriptionOfInvoice(
  tx: Queryable,
  provider: ProviderName,
  inv: z.infer<typeof invoiceSchema>,
): Promise<{ id: string; userId: string } | null> {
  const details = inv.parent?.subscription_details;
  if (!details?.subscription) return null;
  const known = await findSubscription(tx, details.subscription);
  if (known) return { id: known.id, userId: known.user_id };
  // The invoice can arrive before checkout.session.completed: the subscription's metadata names
  // the driver.
  const userId = await knownUser(tx, details.metadata.userId ?? null);
  if (!userId) return null;
  if (inv.customer) await saveCustomer(tx, userId, provider, inv.customer);
  return { id: details.subscription, userId };
}

function statusOf(stripeStatus: string): 'incomplete' | 'active' | 'past_due' | 'canceled' {
  switch (stripeStatus) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return 'incomplete';
  }
}

function weeksOf(value: string | undefined): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 52 ? n : null;
}

async function knownUser(tx: Queryable, userId: string | null): Promise<string | null> {
  if (!userId || userId.length > 100) return null;
  const rows = await tx.query<{ id: string }>('SELECT id FROM users WHERE id = $1', [userId]);
  return rows[0]?.id ?? null;
}

function newPaymentId(): string {
  return `pay_${randomBytes(12).toString('hex')}`;
}
