// Taking a weekly payment: one charge per (driver, Idempotency-Key), whoever asks and however many
// times. The first request inserts a pending row holding a short lease and charges; replays wait
// for it to finish and answer from the row; a replay after a crashed attempt takes the lease over
// and charges again under the same processor idempotency key, which bills once.
import { createHash, randomBytes } from 'node:crypto';
import {
  type CreatePaymentRequest,
  cardDigits,
  MAX_WEEKS,
  MIN_WEEKS,
  type PriceResponse,
  passesLuhn,
} from '@blockcatch/sdk';
import type { GatewayConfig } from '../config.js';
import { ApiError, invalid } from '../http/errors.js';
import type { Db } from '../storage/db.js';
import {
  findPayment,
  findPaymentByKey,
  findPaymentByProviderRef,
  insertPayment,
  markPaymentProcessing,
  type PaymentRecord,
  releasePaymentLease,
  takePaymentLease,
  toPayment,
} from '../storage/payments.js';
import type { UserRecord } from '../storage/users.js';
import type { ChargeMethod, PaymentProvider, Settlement } from './provider.js';
import { settlePayment } from './settle.js';

/** How long one attempt may hold a pending payment before a replay may take it over. */
const LEASE_MS = 30_000;
/** How long a replay waits for the attempt in flight before answering 409. */
const REPLAY_WAIT_MS = 35_000;
const REPLAY_POLL_MS = 25;

export const PAYMENT_FAILED = { code: 'payment_failed', message: 'Payment failed' } as const;
export const PAYMENT_PROCESSING = "We're processing your payment";

export interface PaymentAnswer {
  status: number;
  body: unknown;
  replayed: boolean;
}

export interface PaymentService {
  price(): PriceResponse;
  pay(
    user: UserRecord,
    idempotencyKey: string,
    request: CreatePaymentRequest,
  ): Promise<PaymentAnswer>;
  /** Applies a processor's settlement (webhook, sandbox confirmation); null for an unknown payment. */
  settle(settlement: Settlement): Promise<PaymentRecord | null>;
}

export function createPaymentService(deps: {
  db: Db;
  config: GatewayConfig;
  provider: PaymentProvider;
  /** A payment settled as failed (the driver is told; repeats of one payment are told once). */
  onFailed?: (payment: PaymentRecord) => void;
}): PaymentService {
  const { db, config, provider } = deps;
  const settle = async (input: Parameters<typeof settlePayment>[1]) => {
    const settled = await settlePayment(db, input);
    if (settled?.status === 'failed') deps.onFailed?.(settled);
    return settled;
  };

  async function charge(payment: PaymentRecord, method: ChargeMethod): Promise<PaymentRecord> {
    let result: Awaited<ReturnType<PaymentProvider['charge']>>;
    try {
      result = await provider.charge({
        paymentId: payment.id,
        amountCents: payment.amount_cents,
        currency: 'usd',
        method,
        metadata: { paymentId: payment.id, userId: payment.user_id, weeks: String(payment.weeks) },
      });
    } catch {
      // The outcome is unknown: free the row so a retry with the same key charges again under the
      // same processor idempotency key (and so bills once).
      await releasePaymentLease(db, payment.id);
      throw new ApiError(
        502,
        'payment_provider_unavailable',
        'The card processor could not be reached. Retry with the same Idempotency-Key; you will not be charged twice.',
      );
    }
    if (result.status === 'processing') {
      await markPaymentProcessing(db, payment.id, result.providerRef, result.cardLast4);
    } else {
      await settle({
        paymentId: payment.id,
        outcome: result.status,
        providerRef: result.providerRef,
        cardLast4: result.cardLast4,
        ...(result.status === 'failed' ? { reason: result.reason } : {}),
      });
    }
    const after = await findPayment(db, payment.id);
    if (!after) throw new Error(`payment ${payment.id} vanished while charging`);
    return after;
  }

  async function waitForOutcome(
    existing: PaymentRecord,
    method: ChargeMethod,
  ): Promise<PaymentRecord> {
    const deadline = Date.now() + REPLAY_WAIT_MS;
    let current: PaymentRecord | null = existing;
    while (current && current.status === 'pending') {
      const now = Date.now();
      const taken = await takePaymentLease(db, current.id, now, now + LEASE_MS);
      if (taken) return charge(taken, method);
      if (now > deadline) {
        throw new ApiError(
          409,
          'payment_in_progress',
          'A payment with this Idempotency-Key is still being charged; ask again in a moment.',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, REPLAY_POLL_MS));
      current = await findPayment(db, current.id);
    }
    if (!current) throw new Error(`payment ${existing.id} vanished while waiting`);
    return current;
  }

  return {
    price: () => ({
      weeklyPriceCents: config.weeklyPriceCents,
      currency: 'usd',
      minWeeks: MIN_WEEKS,
      maxWeeks: MAX_WEEKS,
      provider: provider.name,
    }),

    async pay(user, idempotencyKey, request) {
      const method = chargeMethod(provider, request);
      const requestHash = fingerprint(request.weeks, method);
      const now = Date.now();
      const inserted = await insertPayment(db, {
        id: `pay_${randomBytes(12).toString('hex')}`,
        user_id: user.id,
        idempotency_key: idempotencyKey,
        request_hash: requestHash,
        provider: provider.name,
        weeks: request.weeks,
        amount_cents: request.weeks * config.weeklyPriceCents,
        card_last4: method.kind === 'card' ? method.card.digits.slice(-4) : null,
        lease_until_ts: now + LEASE_MS,
        created_ts: now,
      });
      if (inserted) return answer(await charge(inserted, method), false);
      const existing = await findPaymentByKey(db, user.id, idempotencyKey);
      if (!existing) throw new Error('payment vanished after an idempotency-key conflict');
      if (existing.request_hash !== requestHash) {
        throw new ApiError(
          409,
          'idempotency_key_reused',
          'Idempotency-Key was already used for a different payment (other weeks or card); use a new key for a new payment.',
        );
      }
      return answer(await waitForOutcome(existing, method), true);
    },

    async settle(settlement) {
      const paymentId = settlement.paymentId;
      const payment = paymentId ? await findPayment(db, paymentId) : null;
      const target =
        payment && payment.provider === provider.name
          ? payment
          : await findPaymentByProviderRef(db, provider.name, settlement.providerRef);
      if (!target) return null;
      return settle({
        paymentId: target.id,
        outcome: settlement.outcome,
        providerRef: settlement.providerRef,
        ...(settlement.reason ? { reason: settlement.reason } : {}),
      });
    },
  };
}

/** The answer a payment's state gives, the same on every replay of its key. */
export function answer(payment: PaymentRecord, replayed: boolean): PaymentAnswer {
  if (payment.status === 'failed') return { status: 402, body: PAYMENT_FAILED, replayed };
  if (payment.status === 'succeeded') {
    return { status: 201, body: { status: 'succeeded', payment: toPayment(payment) }, replayed };
  }
  return {
    status: 202,
    body: { status: 'processing', message: PAYMENT_PROCESSING, payment: toPayment(payment) },
    replayed,
  };
}

function chargeMethod(provider: PaymentProvider, request: CreatePaymentRequest): ChargeMethod {
  if ('card' in request) {
    if (provider.takes !== 'card') {
      throw invalid(
        'card',
        'this gateway charges through Stripe, and card numbers must not be sent to it; create a PaymentMethod with Stripe.js and send paymentMethodId.',
      );
    }
    const digits = cardDigits(request.card.number);
    if (!digits || !passesLuhn(digits)) {
      throw invalid(
        'card.number',
        `"…${request.card.number.replace(/\D/g, '').slice(-4)}" is not a valid card number; check the digits (test card: 4242 4242 4242 4242).`,
      );
    }
    const now = new Date();
    const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (request.card.expYear * 12 + (request.card.expMonth - 1) < thisMonth) {
      throw invalid(
        'card.expYear',
        `the card expired in ${request.card.expMonth}/${request.card.expYear}; use a card that has not expired.`,
      );
    }
    return { kind: 'card', card: { ...request.card, digits } };
  }
  if (provider.takes !== 'payment-method') {
    throw invalid(
      'paymentMethodId',
      'the sandbox charges test cards; send card { number, expMonth, expYear, cvc } instead.',
    );
  }
  return { kind: 'payment-method', id: request.paymentMethodId };
}

/** Tells a replay from a different payment under the same key without keeping card data. */
function fingerprint(weeks: number, method: ChargeMethod): string {
  const what =
    method.kind === 'card'
      ? ['card', method.card.digits.slice(-4), method.card.expMonth, method.card.expYear]
      : ['pm', method.id];
  return createHash('sha256')
    .update(JSON.stringify([weeks, ...what]))
    .digest('hex');
}
