// Payments as a subscription business: the driver opens a hosted checkout (weekly subscription or
// a number of weeks once) and the processor's signed events settle it; the driver sees billing,
// cancels or resumes at the end of the paid week and opens the processor's portal; billing admins
// refund whole weeks. Every processor call goes through `processor()`, which turns a 4xx refusal
// into a 4xx the driver can act on and only a network failure or 5xx into 503 "retry".
import { randomBytes } from 'node:crypto';
import {
  type BillingSummary,
  type CheckoutRequest,
  MAX_WEEKS,
  MIN_WEEKS,
  type PriceResponse,
} from '@blockcatch/sdk';
import type { GatewayConfig } from '../config.js';
import { ApiError, conflict, notFound, quote } from '../http/errors.js';
import {
  type CheckoutRecord,
  currentSubscription,
  deleteCheckout,
  findCheckout,
  findCheckoutByKey,
  findCustomer,
  insertCheckout,
  insertRefund,
  listCredits,
  markCreditPushed,
  type ProviderName,
  refundedThroughUs,
  saveCustomer,
  setCheckoutUrl,
  toSubscription,
  unpushedCredits,
  upsertSubscription,
} from '../storage/billing.js';
import type { Db } from '../storage/db.js';
import { listLostHoursCredits } from '../storage/lost-hours-credits.js';
import {
  findPayment,
  listPaymentsOfUser,
  type PaymentRecord,
  toPayment,
} from '../storage/payments.js';
import type { UserRecord } from '../storage/user-record.js';
import { applyEvent, type EventEffect, type ProcessorEvent } from './events.js';
import { type BillingProvider, ProcessorRefusal, ProcessorUnavailable } from './provider.js';
import { grantWeeksAsTime } from './settle.js';

/** How long a second request with the same key waits for the first to get its URL. */
const CHECKOUT_WAIT_MS = 15_000;
const CHECKOUT_POLL_MS = 50;

export interface PaymentService {
  readonly provider: BillingProvider;
  price(): PriceResponse;
  checkout(
    user: UserRecord,
    idempotencyKey: string,
    request: Required<CheckoutRequest>,
    appBase: string,
  ): Promise<CheckoutRecord>;
  getCheckout(user: UserRecord, id: string): Promise<CheckoutRecord>;
  summary(user: UserRecord): Promise<BillingSummary>;
  setCancelAtPeriodEnd(user: UserRecord, cancel: boolean): Promise<BillingSummary>;
  portal(user: UserRecord, appBase: string, locale: 'en' | 'es'): Promise<string>;
  refund(
    admin: UserRecord,
    request: { paymentId: string; weeks: number; reason: string },
  ): Promise<{ id: string; payment: PaymentRecord; weeks: number; amountCents: number }>;
  /** Verifies and applies a webhook; throws ApiError 400 bad_signature when it is not genuine. */
  receive(rawBody: Buffer, signature: string): Promise<void>;
  /** Sends owed referral credit to the processor (after a settlement, and from the sweep). */
  pushCredits(): Promise<void>;
}

export function createPaymentService(deps: {
  db: Db;
  config: GatewayConfig;
  provider: BillingProvider;
  now: () => number;
  /** A renewal failed: the driver is told, with a link to update the card. */
  onFailed?: (payment: PaymentRecord) => void;
}): PaymentService {
  const { db, config, provider, now } = deps;
  const name: ProviderName = provider.name;

  async function customerOf(user: UserRecord): Promise<string> {
    const known = await findCustomer(db, user.id, name);
    if (known) return known;
    const made = await processor(() =>
      provider.createCustomer({
        userId: user.id,
        name: user.name,
        idempotencyKey: `customer:${user.id}`,
      }),
    );
    return saveCustomer(db, user.id, name, made);
  }

  async function afterEvent(effects: EventEffect[]) {
    for (const effect of effects) {
      if (effect.kind === 'renewal-failed') deps.onFailed?.(effect.payment);
    }
    if (effects.some((e) => e.kind === 'credit-owed')) await pushCredits().catch(() => {});
  }

  async function pushCredits() {
    for (const credit of await unpushedCredits(db)) {
      const subscription = await currentSubscription(db, credit.user_id);
      const customer = subscription?.customer_ref ?? (await findCustomer(db, credit.user_id, name));
      const renewing =
        subscription &&
        customer &&
        (subscription.status === 'active' || subscription.status === 'past_due') &&
        !subscription.cancel_at_period_end;
      if (!renewing || !subscription || !customer) {
        // No renewal left to pay: the week is added to the paid time instead.
        await db.transaction(async (tx) => {
          await grantWeeksAsTime(tx, credit.user_id, credit.weeks, now());
          await tx.query('UPDATE billing_credits SET pushed = true WHERE id = $1', [credit.id]);
        });
        continue;
      }
      await provider.addCredit({
        customerRef: customer,
        amountCents: credit.weeks * config.weeklyPriceCents,
        idempotencyKey: credit.id,
      });
      await db.transaction((tx) => markCreditPushed(tx, credit.id, subscription.id));
    }
  }

  async function summary(user: UserRecord): Promise<BillingSummary> {
    const [subscription, payments, credits, fresh, lostHoursCredits] = await Promise.all([
      currentSubscription(db, user.id),
      listPaymentsOfUser(db, user.id),
      listCredits(db, user.id),
      db.query<{ expiration_ts: number | null; good_standing: boolean }>(
        'SELECT expiration_ts, good_standing FROM users WHERE id = $1',
        [user.id],
      ),
      listLostHoursCredits(db, user.id),
    ]);
    return {
      provider: name,
      weeklyPriceCents: config.weeklyPriceCents,
      expirationDateTimestamp: fresh[0]?.expiration_ts ?? null,
      goodStanding: fresh[0]?.good_standing ?? false,
      subscription: subscription ? toSubscription(subscription) : null,
      creditWeeks:
        (subscription?.credit_weeks ?? 0) +
        credits.filter((c) => !c.pushed).reduce((n, c) => n + c.weeks, 0),
      credits: credits.map((c) => ({ weeks: c.weeks, createdTimestamp: c.created_ts })),
      invoices: payments.map(toPayment),
      lostHoursCredits,
    };
  }

  return {
    provider,
    price: () => ({
      weeklyPriceCents: config.weeklyPriceCents,
      currency: 'usd',
      minWeeks: MIN_WEEKS,
      maxWeeks: MAX_WEEKS,
      provider: name,
    }),

    async checkout(user, idempotencyKey, request, appBase) {
      const weeks = request.mode === 'subscription' ? 1 : request.weeks;
      const existing = await findCheckoutByKey(db, user.id, idempotencyKey);
      if (existing) return waitForUrl(existing, request.mode, weeks);
      if (request.mode === 'subscription') {
        const current = await currentSubscription(db, user.id);
        if (current && current.status !== 'canceled' && current.status !== 'incomplete') {
          throw conflict(
            'You already renew every week: change the card or cancel on the Billing page.',
            'mode',
          );
        }
      }
      const id = `chk_${randomBytes(12).toString('hex')}`;
      const inserted = await insertCheckout(db, {
        id,
        user_id: user.id,
        idempotency_key: idempotencyKey,
        provider: name,
        mode: request.mode,
        weeks,
        amount_cents: weeks * config.weeklyPriceCents,
        created_ts: now(),
      });
      if (!inserted) {
        const raced = await findCheckoutByKey(db, user.id, idempotencyKey);
        if (!raced) throw new Error('checkout vanished after a key conflict');
        return waitForUrl(raced, request.mode, weeks);
      }
      try {
        const customerRef = await customerOf(user);
        const back = `${appBase}/payment?checkout=${id}`;
        const { ref, url } = await processor(() =>
          provider.createCheckout({
            checkoutId: id,
            userId: user.id,
            customerRef,
            mode: request.mode,
            weeks,
            amountCents: inserted.amount_cents,
            weeklyPriceCents: config.weeklyPriceCents,
            description:
              request.mode === 'subscription'
                ? request.locale === 'es'
                  ? 'BlockCatch: servicio semanal'
                  : 'BlockCatch weekly service'
                : request.locale === 'es'
                  ? `BlockCatch: ${weeks} semana(s) de servicio`
                  : `BlockCatch: ${weeks} week(s) of service`,
            locale: request.locale,
            successUrl: back,
            cancelUrl: `${back}&canceled=1`,
          }),
        );
        await setCheckoutUrl(db, id, ref, url);
        return { ...inserted, provider_ref: ref, url };
      } catch (error) {
        // Nothing was charged: free the key so a retry opens a checkout again.
        await deleteCheckout(db, id);
        if (error instanceof ProcessorRefusal && error.processorCode === 'resource_missing') {
          // The processor no longer knows the saved customer: the next attempt makes a new one.
          await db.query('DELETE FROM billing_customers WHERE user_id = $1 AND provider = $2', [
            user.id,
            name,
          ]);
        }
        throw error;
      }
    },

    async getCheckout(user, id) {
      const found = await findCheckout(db, id);
      // Someone else's checkout answers as missing.
      if (!found || found.user_id !== user.id) throw notFound(`No checkout ${quote(id)} of yours.`);
      return found;
    },

    summary,

    async setCancelAtPeriodEnd(user, cancel) {
      const current = await currentSubscription(db, user.id);
      if (!current || current.status === 'canceled') {
        throw conflict('You have no weekly subscription to change; subscribe on the Payment page.');
      }
      await processor(() => provider.setCancelAtPeriodEnd(current.id, cancel));
      // The processor's event says the same; the answer should not wait for it.
      await upsertSubscription(db, {
        id: current.id,
        userId: user.id,
        provider: name,
        cancelAtPeriodEnd: cancel,
        now: now(),
      });
      return summary(user);
    },

    async portal(user, appBase, locale) {
      const customer = await findCustomer(db, user.id, name);
      if (!customer) {
        throw conflict('You have not paid by card yet; pay on the Payment page first.');
      }
      return processor(() =>
        provider.portal({ customerRef: customer, returnUrl: `${appBase}/flex/billing`, locale }),
      );
    },

    async refund(admin, request) {
      let payment = await findPayment(db, request.paymentId);
      if (!payment) throw notFound(`No payment ${quote(request.paymentId)}.`);
      if (payment.status === 'succeeded' && !payment.provider_ref && payment.kind === 'renewal') {
        // A renewal whose invoice event did not name its PaymentIntent: the processor knows it.
        const invoiceId = payment.idempotency_key.replace(/^invoice:/, '');
        const intent = await processor(() => provider.paymentIntentOfInvoice(invoiceId));
        if (intent) {
          await db.query(
            'UPDATE payments SET provider_ref = $2 WHERE id = $1 AND provider_ref IS NULL',
            [payment.id, intent],
          );
          payment = { ...payment, provider_ref: intent };
        }
      }
      if (payment.status !== 'succeeded' || !payment.provider_ref || payment.amount_cents === 0) {
        throw conflict(
          `Payment ${payment.id} charged nothing that can be refunded (it is ${payment.status}${payment.amount_cents === 0 ? ', paid by credit' : ''}).`,
          'paymentId',
        );
      }
      const already = Math.max(payment.refunded_weeks, await refundedThroughUs(db, payment.id));
      const left = payment.weeks - already;
      if (request.weeks > left) {
        throw conflict(
          `Payment ${payment.id} has ${left} of its ${payment.weeks} week(s) left to refund; refund at most ${left}.`,
          'weeks',
        );
      }
      const unit = payment.amount_cents / payment.weeks;
      const amountCents = Math.round(unit * (already + request.weeks)) - Math.round(unit * already);
      const paymentIntent = payment.provider_ref;
      const providerRef = await processor(() =>
        provider.refund({
          paymentIntent,
          amountCents,
          idempotencyKey: `refund:${request.paymentId}:${already + request.weeks}`,
        }),
      );
      const id = `rf_${randomBytes(12).toString('hex')}`;
      await insertRefund(db, {
        id,
        payment_id: payment.id,
        user_id: payment.user_id,
        weeks: request.weeks,
        amount_cents: amountCents,
        reason: request.reason,
        refunded_by: admin.name,
        provider_ref: providerRef,
        created_ts: now(),
      });
      return { id, payment, weeks: request.weeks, amountCents };
    },

    async receive(rawBody, signature) {
      let event: ProcessorEvent;
      try {
        event = provider.verifyWebhook(rawBody, signature, now());
      } catch {
        throw new ApiError(
          400,
          'bad_signature',
          'Stripe-Signature does not match this payload.',
          'stripe-signature',
        );
      }
      await afterEvent(await applyEvent(db, name, event, now()));
    },

    pushCredits,
  };

  async function waitForUrl(
    existing: CheckoutRecord,
    mode: CheckoutRecord['mode'],
    weeks: number,
  ): Promise<CheckoutRecord> {
    if (existing.mode !== mode || existing.weeks !== weeks) {
      throw new ApiError(
        409,
        'idempotency_key_reused',
        'Idempotency-Key was already used for a different checkout (other plan or weeks); use a new key.',
      );
    }
    const deadline = Date.now() + CHECKOUT_WAIT_MS;
    let current: CheckoutRecord | null = existing;
    while (current && !current.url && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, CHECKOUT_POLL_MS));
      current = await findCheckout(db, existing.id);
    }
    if (!current?.url) {
      throw new ApiError(
        503,
        'unavailable',
        'The checkout with this Idempotency-Key is still being opened; ask again in a moment.',
      );
    }
    return current;
  }
}

/** A processor call, its failures told apart: the caller's to fix (4xx) or worth a retry (503). */
async function processor<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ProcessorRefusal) {
      if (error.kind === 'card_error') {
        throw new ApiError(
          402,
          'payment_declined',
          'Your bank declined the card: try another card.',
        );
      }
      const status = error.status >= 400 && error.status < 500 ? error.status : 400;
      throw new ApiError(
        status === 401 || status === 403 ? 400 : status,
        'payment_request_invalid',
        `The card processor refused this request (${error.processorCode ?? 'invalid request'}: ${error.message.slice(0, 200)}). Reload the page and try again; if it happens again, contact support.`,
      );
    }
    if (error instanceof ProcessorUnavailable) {
      throw new ApiError(
        503,
        'unavailable',
        'The card processor could not be reached; try again in a moment. Nothing was charged twice.',
      );
    }
    throw error;
  }
}
