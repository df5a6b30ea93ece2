// What the payment service needs from a card processor: one charge per idempotency key, answered
// as succeeded, processing (settled later by a webhook or confirmation) or failed.
import type { SandboxCard } from '@blockcatch/sdk';

export type ChargeMethod =
  | { kind: 'card'; card: SandboxCard & { digits: string } }
  | { kind: 'payment-method'; id: string };

export interface ChargeInput {
  /** Our payment id: the processor's idempotency key, so a retried charge bills once. */
  paymentId: string;
  amountCents: number;
  currency: 'usd';
  method: ChargeMethod;
  metadata: Record<string, string>;
}

export type ChargeResult =
  | { status: 'succeeded' | 'processing'; providerRef: string; cardLast4: string | null }
  | { status: 'failed'; providerRef: string | null; cardLast4: string | null; reason: string };

export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  /** Which body field carries the payment method: the card itself, or a client-made `pm_…`. */
  readonly takes: ChargeMethod['kind'];
  /** Throws only when the outcome is unknown (network, 5xx): the caller may retry with the same id. */
  charge(input: ChargeInput): Promise<ChargeResult>;
}

/** A processor's word on a charge that was processing, from its webhook or the sandbox. */
export interface Settlement {
  paymentId: string | null;
  providerRef: string;
  outcome: 'succeeded' | 'failed';
  reason?: string;
}
