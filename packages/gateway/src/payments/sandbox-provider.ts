// The sandbox card processor: Stripe's test cards behave as they do in Stripe's test mode, and
// charges are kept in the sandbox's own ledger, one per idempotency key.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../storage/db.js';
import { recordSandboxCharge, settleSandboxCharge } from '../storage/sandbox-card-charges.js';
import type { ChargeInput, ChargeResult, PaymentProvider } from './provider.js';

export const SANDBOX_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  processing: '4000000000003220',
} as const;

export interface SandboxProvider extends PaymentProvider {
  /** Stands in for the card network finishing a processing charge. */
  settle(providerRef: string, outcome: 'succeeded' | 'failed'): Promise<boolean>;
}

export function createSandboxProvider(db: Queryable): SandboxProvider {
  return {
    name: 'sandbox',
    takes: 'card',
    async charge(input: ChargeInput): Promise<ChargeResult> {
      if (input.method.kind !== 'card') {
        throw new Error('the sandbox provider charges cards, not payment methods');
      }
      const digits = input.method.card.digits;
      // Any other number that passes Luhn succeeds, as 4242… does.
      const status =
        digits === SANDBOX_CARDS.declined
          ? 'failed'
          : digits === SANDBOX_CARDS.processing
            ? 'processing'
            : 'succeeded';
      const charge = await recordSandboxCharge(db, {
        id: `ch_sandbox_${randomBytes(12).toString('hex')}`,
        idempotency_key: input.paymentId,
        amount_cents: input.amountCents,
        currency: input.currency,
        card_last4: digits.slice(-4),
        status,
        created_ts: Date.now(),
      });
      if (charge.status === 'failed') {
        return {
          status: 'failed',
          providerRef: charge.id,
          cardLast4: charge.card_last4,
          reason: 'card_declined',
        };
      }
      return { status: charge.status, providerRef: charge.id, cardLast4: charge.card_last4 };
    },
    async settle(providerRef, outcome) {
      return (await settleSandboxCharge(db, providerRef, outcome)) !== null;
    },
  };
}
