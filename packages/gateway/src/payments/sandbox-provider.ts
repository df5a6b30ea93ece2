// The sandbox card processor: a stand-in for Stripe that lives beside the gateway, with its own
// records (storage/sandbox-billing.ts), hosted pages under /sandbox/… (sandbox-pages.ts), a
// billing clock that renews subscriptions, retries failed renewals and ends canceled ones, and
// Stripe-shaped events signed with its own secret in Stripe's scheme. Test cards behave as in
// Stripe's test mode.
import { randomBytes } from 'node:crypto';
import { cardDigits, nextDunningAttempt, passesLuhn, WEEK_MS } from '@blockcatch/sdk';
import Stripe from 'stripe';
import type { Db, Queryable } from '../storage/db.js';
import {
  addSandboxBalance,
  claimSandboxSubscription,
  completeSandboxCheckout,
  dueSandboxSubscriptions,
  findSandboxCheckout,
  findSandboxCustomer,
  findSandboxInvoice,
  findSandboxSubscription,
  insertSandboxCheckout,
  insertSandboxCustomer,
  insertSandboxEvent,
  insertSandboxInvoice,
  insertSandboxPortalSession,
  insertSandboxSubscription,
  markSandboxEventDelivered,
  paySandboxInvoice,
  releaseSandboxSubscription,
  type SandboxCardKind,
  type SandboxCheckout,
  type SandboxCustomer,
  type SandboxSubscription,
  saveSandboxCard,
  setSandboxCheckoutAwaiting,
  undeliveredSandboxEvents,
  updateSandboxSubscription,
} from '../storage/sandbox-billing.js';
import {
  findSandboxCharge,
  recordSandboxCharge,
  refundSandboxCharge,
} from '../storage/sandbox-card-charges.js';
import { eventSchema } from './events.js';
import { type BillingProvider, ProcessorRefusal } from './provider.js';

/** Stripe's test card numbers and what each does here. */
const SANDBOX_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  authenticate: '4000002500003155',
  /** Saved without trouble, but every later charge fails: a renewal that will fail. */
  failsLater: '4000000000000341',
} as const;

const KIND_OF: Record<string, SandboxCardKind> = {
  [SANDBOX_CARDS.declined]: 'declined',
  [SANDBOX_CARDS.insufficientFunds]: 'insufficient_funds',
  [SANDBOX_CARDS.authenticate]: 'authenticate',
  [SANDBOX_CARDS.failsLater]: 'fails_later',
};

/** The decline code each failing card answers with. */
const DECLINE_CODE: Partial<Record<SandboxCardKind, string>> = {
  declined: 'card_declined',
  insufficient_funds: 'insufficient_funds',
  fails_later: 'card_declined',
};

export type CardCheck =
  | { ok: true; kind: SandboxCardKind; last4: string }
  | { ok: false; field: 'number' | 'expiry' | 'cvc' };

/** Checks a typed card as a processor's page does, before any charge. */
export function checkCard(
  input: { number: string; expiry: string; cvc: string },
  now: number,
): CardCheck {
  const digits = cardDigits(input.number.slice(0, 40));
  if (!digits || !passesLuhn(digits)) return { ok: false, field: 'number' };
  const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(input.expiry.trim().slice(0, 10));
  const month = Number(expiry?.[1]);
  const year = expiry?.[2]?.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry?.[2]);
  const today = new Date(now);
  if (
    !expiry ||
    month < 1 ||
    month > 12 ||
    year * 12 + month - 1 < today.getUTCFullYear() * 12 + today.getUTCMonth()
  ) {
    return { ok: false, field: 'expiry' };
  }
  if (!/^\d{3,4}$/.test(input.cvc.trim().slice(0, 10))) return { ok: false, field: 'cvc' };
  return { ok: true, kind: KIND_OF[digits] ?? 'ok', last4: digits.slice(-4) };
}

export type PayOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'authenticate' }
  | { kind: 'declined'; code: string }
  | { kind: 'closed' };

export interface SandboxProcessor extends BillingProvider {
  /** Where events go: the gateway's own sandbox webhook. */
  setDelivery(deliver: (payload: string, signature: string) => Promise<boolean>): void;
  /** Runs the billing clock to `now`: renewals, retries, and ends at the period end. */
  advance(now: number): Promise<void>;
  /** Sends again the events the gateway has not acknowledged. */
  redeliver(): Promise<void>;
  /** The card network opening a dispute on a paid PaymentIntent. */
  dispute(paymentIntent: string, reason?: string): Promise<void>;
  checkout(id: string): Promise<SandboxCheckout | null>;
  /** Pays an open checkout with a checked card. */
  pay(id: string, card: { kind: SandboxCardKind; last4: string }): Promise<PayOutcome>;
  /** The driver approved or refused the bank's authentication (3-D Secure) on the page. */
  authenticate(id: string, approve: boolean): Promise<PayOutcome>;
  customer(id: string): Promise<SandboxCustomer | null>;
  /** Saves a new card; a subscription waiting in dunning is tried again with it at once. */
  updateCard(customer: string, card: { kind: SandboxCardKind; last4: string }): Promise<void>;
  setCancel(customer: string, cancel: boolean): Promise<void>;
}

export function createSandboxProcessor(deps: {
  db: Db;
  now: () => number;
  /** Absolute or root-relative base of the sandbox's pages. */
  pagesBase: string;
  toleranceSeconds: number;
}): SandboxProcessor {
  const { db, now } = deps;
  // The sandbox's own signing secret: the gateway checks its events as it checks Stripe's.
  const webhookSecret = `whsec_sandbox_${randomBytes(24).toString('hex')}`;
  let deliver: ((payload: string, signature: string) => Promise<boolean>) | null = null;
  const newId = (prefix: string) => `${prefix}_sandbox_${randomBytes(12).toString('hex')}`;
  const receiptUrl = (invoiceOrIntent: string) =>
    `${deps.pagesBase}/sandbox/receipts/${invoiceOrIntent}`;

  async function emit(type: string, object: Record<string, unknown>): Promise<void> {
    const at = now();
    const event = {
      id: newId('evt'),
      object: 'event',
      type,
      api_version: Stripe.API_VERSION,
      created: Math.floor(at / 1000),
      livemode: false,
      data: { object },
    };
    const payload = JSON.stringify(event);
    await insertSandboxEvent(db, { id: event.id, payload, now: at });
    await send(event.id, payload);
  }

  async function send(id: string, payload: string): Promise<void> {
    if (!deliver) return;
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: webhookSecret,
      timestamp: Math.floor(now() / 1000),
    });
    // Delivered in order and at once, so the driver returns to an app that already knows.
    if (await deliver(payload, signature).catch(() => false)) {
      await markSandboxEventDelivered(db, id);
    }
  }

  const metadataOf = (text: string): Record<string, string> => JSON.parse(text);

  function intentObject(
    id: string,
    amount: number,
    metadata: Record<string, string>,
    outcome: { status: string; last4: string | null; code?: string },
  ) {
    return {
      id,
      object: 'payment_intent',
      amount,
      currency: 'usd',
      status: outcome.status,
      metadata,
      last_payment_error: outcome.code
        ? { type: 'card_error', code: 'card_declined', decline_code: outcome.code }
        : null,
      latest_charge: outcome.last4
        ? {
            id: `ch_${id.slice(3)}`,
            object: 'charge',
            payment_method_details: { type: 'card', card: { brand: 'visa', last4: outcome.last4 } },
            receipt_url: receiptUrl(id),
          }
        : null,
    };
  }

  function subscriptionObject(s: SandboxSubscription) {
    return {
      id: s.id,
      object: 'subscription',
      customer: s.customer,
      status: s.status,
      cancel_at_period_end: s.cancel_at_period_end,
      metadata: metadataOf(s.metadata),
      items: {
        object: 'list',
        data: [
          {
            object: 'subscription_item',
            current_period_end: Math.floor(s.current_period_end_ts / 1000),
          },
        ],
      },
    };
  }

  function invoiceObject(
    s: SandboxSubscription,
    invoice: {
      id: string;
      total: number;
      paid: number;
      intent: string;
      attempts: number;
      nextAttempt: number | null;
      periodStart: number;
    },
  ) {
    return {
      id: invoice.id,
      object: 'invoice',
      customer: s.customer,
      total: invoice.total,
      amount_paid: invoice.paid,
      attempt_count: invoice.attempts,
      next_payment_attempt:
        invoice.nextAttempt === null ? null : Math.floor(invoice.nextAttempt / 1000),
      hosted_invoice_url: receiptUrl(invoice.id),
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: s.id, metadata: metadataOf(s.metadata) },
      },
      payments: {
        object: 'list',
        data: [{ payment: { type: 'payment_intent', payment_intent: invoice.intent } }],
      },
      // The week this invoice pays for: from the period end it renews.
      lines: {
        object: 'list',
        data: [
          {
            period: {
              start: Math.floor(invoice.periodStart / 1000),
              end: Math.floor((invoice.periodStart + WEEK_MS) / 1000),
            },
          },
        ],
      },
    };
  }

  /** Charges the card on file (balance first); answers the decline code, or null when paid. */
  async function collect(
    customer: SandboxCustomer,
    intent: string,
    amount: number,
    at: number,
  ): Promise<{ paid: number; code: string | null }> {
    const credit = Math.min(amount, Math.max(0, -customer.balance_cents));
    if (credit > 0) await addSandboxBalance(db, customer.id, credit);
    const due = amount - credit;
    if (due === 0) return { paid: 0, code: null };
    const kind = customer.card_kind;
    const code =
      kind === null
        ? 'card_declined'
        : kind === 'authenticate' || kind === 'ok'
          ? null
          : (DECLINE_CODE[kind] ?? 'card_declined');
    await recordSandboxCharge(db, {
      id: newId('ch'),
      payment_intent: intent,
      amount_cents: due,
      currency: 'usd',
      card_last4: customer.card_last4 ?? '0000',
      status: code ? 'failed' : 'succeeded',
      created_ts: at,
    });
    // A failed charge gives the credit back to the balance, as a voided attempt does.
    if (code && credit > 0) await addSandboxBalance(db, customer.id, -credit);
    return { paid: due, code };
  }

  /** Bills under a claim; `due` says whether the claimed row still needs it. */
  async function billClaimed(id: string, due: (s: SandboxSubscription) => boolean, at: number) {
    const s = await claimSandboxSubscription(db, id, Date.now() + 60_000);
    if (!s) return false;
    try {
      if (!due(s)) return false;
      if (s.status === 'active' && s.cancel_at_period_end) {
        await updateSandboxSubscription(db, s.id, { status: 'canceled' });
        await emit(
          'customer.subscription.deleted',
          subscriptionObject({ ...s, status: 'canceled' }),
        );
      } else {
        await bill(s, at);
      }
      return true;
    } finally {
      await releaseSandboxSubscription(db, id);
    }
  }

  /** Bills the subscription's next week: a new invoice, or another attempt at the open one. */
  async function bill(s: SandboxSubscription, at: number): Promise<void> {
    const customer = await findSandboxCustomer(db, s.customer);
    if (!customer) return;
    const open = s.open_invoice ? await findSandboxInvoice(db, s.open_invoice) : null;
    const invoice = open ?? {
      id: newId('in'),
      payment_intent: newId('pi'),
      created_ts: at,
    };
    if (!open) {
      await insertSandboxInvoice(db, {
        id: invoice.id,
        subscription: s.id,
        customer: s.customer,
        total_cents: s.amount_cents,
        amount_paid_cents: 0,
        status: 'open',
        payment_intent: invoice.payment_intent,
        card_last4: null,
        created_ts: at,
        paid_ts: null,
      });
    }
    const attempts = s.attempt_count + 1;
    const result = await collect(customer, invoice.payment_intent, s.amount_cents, at);
    if (result.code === null) {
      await paySandboxInvoice(db, invoice.id, {
        amountPaid: result.paid,
        last4: customer.card_last4,
        now: at,
      });
      const next: SandboxSubscription = {
        ...s,
        status: 'active',
        open_invoice: null,
        attempt_count: 0,
        next_attempt_ts: null,
        // The billing anchor stays: a week paid late still ends where the period did.
        current_period_end_ts: s.current_period_end_ts + WEEK_MS,
      };
      await updateSandboxSubscription(db, s.id, {
        status: next.status,
        open_invoice: null,
        attempt_count: 0,
        next_attempt_ts: null,
        current_period_end_ts: next.current_period_end_ts,
      });
      await emit(
        'invoice.paid',
        invoiceObject(next, {
          id: invoice.id,
          total: s.amount_cents,
          paid: result.paid,
          intent: invoice.payment_intent,
          attempts,
          nextAttempt: null,
          periodStart: s.current_period_end_ts,
        }),
      );
      if (s.status !== 'active')
        await emit('customer.subscription.updated', subscriptionObject(next));
      return;
    }
    const nextAttempt = nextDunningAttempt(invoice.created_ts, attempts);
    const next: SandboxSubscription = {
      ...s,
      status: nextAttempt === null ? 'canceled' : 'past_due',
      open_invoice: invoice.id,
      attempt_count: attempts,
      next_attempt_ts: nextAttempt,
    };
    await updateSandboxSubscription(db, s.id, {
      status: next.status,
      open_invoice: invoice.id,
      attempt_count: attempts,
      next_attempt_ts: nextAttempt,
    });
    await emit(
      'invoice.payment_failed',
      invoiceObject(next, {
        id: invoice.id,
        total: s.amount_cents,
        paid: 0,
        intent: invoice.payment_intent,
        attempts,
        nextAttempt,
        periodStart: s.current_period_end_ts,
      }),
    );
    // After the last retry the subscription ends, as Stripe's "cancel the subscription" setting does.
    if (next.status === 'canceled')
      await emit('customer.subscription.deleted', subscriptionObject(next));
    else if (s.status !== 'past_due')
      await emit('customer.subscription.updated', subscriptionObject(next));
  }

  async function succeed(c: SandboxCheckout, card: { last4: string }): Promise<PayOutcome> {
    if (!(await completeSandboxCheckout(db, c.id))) return { kind: 'closed' };
    const at = now();
    await saveSandboxCard(db, c.customer, 'ok', card.last4);
    const metadata = metadataOf(c.metadata);
    const successUrl = c.success_url;
    if (c.mode === 'payment') {
      await recordSandboxCharge(db, {
        id: newId('ch'),
        payment_intent: c.payment_intent,
        amount_cents: c.amount_cents,
        currency: 'usd',
        card_last4: card.last4,
        status: 'succeeded',
        created_ts: at,
      });
      await emit(
        'payment_intent.succeeded',
        intentObject(c.payment_intent, c.amount_cents, metadata, {
          status: 'succeeded',
          last4: card.last4,
        }),
      );
      await emit('checkout.session.completed', {
        id: c.id,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: metadata.userId ?? null,
        customer: c.customer,
        subscription: null,
        payment_intent: c.payment_intent,
        amount_total: c.amount_cents,
        metadata,
      });
      return { kind: 'redirect', url: successUrl };
    }
    const subscription: SandboxSubscription = {
      id: newId('sub'),
      customer: c.customer,
      amount_cents: c.amount_cents,
      metadata: JSON.stringify({
        checkoutId: metadata.checkoutId ?? '',
        userId: metadata.userId ?? '',
      }),
      status: 'active',
      cancel_at_period_end: false,
      current_period_end_ts: at,
      open_invoice: null,
      attempt_count: 0,
      next_attempt_ts: null,
      created_ts: at,
    };
    await insertSandboxSubscription(db, subscription);
    await emit('checkout.session.completed', {
      id: c.id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: metadata.userId ?? null,
      customer: c.customer,
      subscription: subscription.id,
      payment_intent: null,
      amount_total: c.amount_cents,
      metadata,
    });
    // The first week is billed now, with the card just saved.
    await bill(subscription, at);
    return { kind: 'redirect', url: successUrl };
  }

  async function decline(c: SandboxCheckout, code: string, last4: string): Promise<PayOutcome> {
    await recordSandboxCharge(db, {
      id: newId('ch'),
      payment_intent: c.payment_intent,
      amount_cents: c.amount_cents,
      currency: 'usd',
      card_last4: last4,
      status: 'failed',
      created_ts: now(),
    });
    await emit(
      'payment_intent.payment_failed',
      intentObject(c.payment_intent, c.amount_cents, metadataOf(c.metadata), {
        status: 'requires_payment_method',
        last4: null,
        code,
      }),
    );
    return { kind: 'declined', code };
  }

  async function openSubscriptionsOf(customer: string, db_: Queryable = db) {
    const rows = await db_.query<SandboxSubscription>(
      `SELECT * FROM sandbox_subscriptions WHERE customer = $1 AND status <> 'canceled'
       ORDER BY created_ts DESC`,
      [customer],
    );
    return rows;
  }

  return {
    name: 'sandbox',
    setDelivery(fn) {
      deliver = fn;
    },
    async createCustomer() {
      const id = newId('cus');
      await insertSandboxCustomer(db, { id, created_ts: now() });
      return id;
    },
    async createCheckout(input) {
      if (!(await findSandboxCustomer(db, input.customerRef))) {
        throw new ProcessorRefusal(
          'invalid_request_error',
          400,
          'resource_missing',
          `No such customer: '${input.customerRef}'`,
        );
      }
      const id = newId('cs');
      await insertSandboxCheckout(db, {
        id,
        customer: input.customerRef,
        mode: input.mode,
        amount_cents: input.amountCents,
        description: input.description,
        locale: input.locale,
        metadata: JSON.stringify({
          checkoutId: input.checkoutId,
          userId: input.userId,
          ...(input.mode === 'payment' ? { weeks: String(input.weeks) } : {}),
        }),
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        payment_intent: newId('pi'),
        created_ts: now(),
      });
      return { ref: id, url: `${deps.pagesBase}/sandbox/checkout/${id}` };
    },
    async portal(input) {
      const id = newId('bps');
      await insertSandboxPortalSession(db, {
        id,
        customer: input.customerRef,
        return_url: input.returnUrl,
        locale: input.locale,
        expires_ts: now() + 60 * 60 * 1000,
      });
      return `${deps.pagesBase}/sandbox/portal/${id}`;
    },
    async setCancelAtPeriodEnd(ref, cancel) {
      const s = await findSandboxSubscription(db, ref);
      if (!s || s.status === 'canceled') {
        throw new ProcessorRefusal(
          'invalid_request_error',
          404,
          'resource_missing',
          `No such subscription: '${ref}'`,
        );
      }
      await updateSandboxSubscription(db, ref, { cancel_at_period_end: cancel });
      await emit(
        'customer.subscription.updated',
        subscriptionObject({ ...s, cancel_at_period_end: cancel }),
      );
    },
    async paymentIntentOfInvoice(invoiceId) {
      return (await findSandboxInvoice(db, invoiceId))?.payment_intent ?? null;
    },
    async refund(input) {
      const charged = await refundSandboxCharge(db, input.paymentIntent, input.amountCents);
      if (!charged) {
        throw new ProcessorRefusal(
          'invalid_request_error',
          400,
          'charge_already_refunded',
          `Refund of ${input.amountCents} exceeds what is left on ${input.paymentIntent}`,
        );
      }
      const id = newId('re');
      await emit('charge.refunded', {
        id: charged.id,
        object: 'charge',
        payment_intent: input.paymentIntent,
        amount: charged.amount_cents,
        amount_refunded: charged.refunded_cents,
        refunded: charged.refunded_cents === charged.amount_cents,
      });
      return id;
    },
    async addCredit(input) {
      await addSandboxBalance(db, input.customerRef, -input.amountCents);
    },
    verifyWebhook(rawBody, signature, receivedAt) {
      const event = Stripe.webhooks.constructEvent(
        rawBody,
        signature,
        webhookSecret,
        deps.toleranceSeconds,
        undefined,
        receivedAt,
      );
      return eventSchema.parse(event);
    },
    async advance(at) {
      // Each pass bills one week per subscription; a clock moved weeks ahead takes several.
      for (let pass = 0; pass < 60; pass++) {
        const due = await dueSandboxSubscriptions(db, at);
        let billed = false;
        for (const s of due) {
          const done = await billClaimed(
            s.id,
            (c) =>
              (c.status === 'active' && c.current_period_end_ts <= at) ||
              (c.status === 'past_due' && c.next_attempt_ts !== null && c.next_attempt_ts <= at),
            at,
          );
          billed ||= done;
        }
        // What is left is held by another sweep, which bills it.
        if (!billed) return;
      }
    },
    async redeliver() {
      for (const e of await undeliveredSandboxEvents(db)) await send(e.id, e.payload);
    },
    async dispute(paymentIntent, reason = 'fraudulent') {
      const charge = await findSandboxCharge(db, paymentIntent);
      if (charge?.status !== 'succeeded') throw new Error(`no paid charge for ${paymentIntent}`);
      await emit('charge.dispute.created', {
        id: newId('dp'),
        object: 'dispute',
        charge: charge.id,
        payment_intent: paymentIntent,
        amount: charge.amount_cents,
        reason,
        status: 'needs_response',
      });
    },
    checkout: (id) => findSandboxCheckout(db, id),
    async pay(id, card) {
      const c = await findSandboxCheckout(db, id);
      if (c?.status !== 'open') return { kind: 'closed' };
      if (card.kind === 'authenticate') {
        await setSandboxCheckoutAwaiting(db, id, JSON.stringify(card));
        return { kind: 'authenticate' };
      }
      const code = DECLINE_CODE[card.kind];
      // 0341 is saved fine but fails when charged; a first payment is a charge.
      if (code) return decline(c, code, card.last4);
      return succeed(c, card);
    },
    async authenticate(id, approve) {
      const c = await findSandboxCheckout(db, id);
      if (c?.status !== 'open' || !c.awaiting_card) return { kind: 'closed' };
      const card = JSON.parse(c.awaiting_card) as { last4: string };
      await setSandboxCheckoutAwaiting(db, id, null);
      if (!approve) return decline(c, 'authentication_required', card.last4);
      return succeed(c, card);
    },
    customer: (id) => findSandboxCustomer(db, id),
    async updateCard(customer, card) {
      // A card that asks for authentication is authenticated on this page, as in Stripe's setup.
      await saveSandboxCard(
        db,
        customer,
        card.kind === 'authenticate' ? 'ok' : card.kind,
        card.last4,
      );
      for (const s of await openSubscriptionsOf(customer)) {
        if (s.status === 'past_due') {
          await billClaimed(s.id, (c) => c.status === 'past_due', now());
        }
      }
    },
    async setCancel(customer, cancel) {
      for (const s of await openSubscriptionsOf(customer)) {
        await updateSandboxSubscription(db, s.id, { cancel_at_period_end: cancel });
        await emit(
          'customer.subscription.updated',
          subscriptionObject({ ...s, cancel_at_period_end: cancel }),
        );
      }
    },
  };
}
