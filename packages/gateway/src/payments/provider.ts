// What the gateway needs from a card processor with hosted pages: a customer per driver, a hosted
// checkout (subscription or one-off weeks), a billing portal, cancel or resume at the period end,
// refunds, referral credit, and its signed webhook events. Stripe and the sandbox both answer
// this, and both settle through the same Stripe-shaped events (events.ts).
import type { ProviderName } from '../storage/billing.js';
import type { ProcessorEvent } from './events.js';

export interface CheckoutInput {
  checkoutId: string;
  userId: string;
  customerRef: string;
  mode: 'subscription' | 'payment';
  weeks: number;
  amountCents: number;
  weeklyPriceCents: number;
  description: string;
  locale: 'en' | 'es';
  successUrl: string;
  cancelUrl: string;
}

export interface BillingProvider {
  readonly name: ProviderName;
  /** The processor's customer for a driver; the key makes a retried call create one customer. */
  createCustomer(input: { userId: string; name: string; idempotencyKey: string }): Promise<string>;
  createCheckout(input: CheckoutInput): Promise<{ ref: string; url: string }>;
  /** A short-lived link to the processor's billing portal (update card, invoices, cancel). */
  portal(input: { customerRef: string; returnUrl: string; locale: 'en' | 'es' }): Promise<string>;
  setCancelAtPeriodEnd(subscriptionRef: string, cancel: boolean): Promise<void>;
  /** The PaymentIntent that paid an invoice, when its event did not include it; null if none. */
  paymentIntentOfInvoice(invoiceId: string): Promise<string | null>;
  /** Refunds part of a PaymentIntent; its charge.refunded event takes the weeks back. */
  refund(input: {
    paymentIntent: string;
    amountCents: number;
    idempotencyKey: string;
  }): Promise<string>;
  /** Credit the customer's balance, used by the next renewal invoice. */
  addCredit(input: {
    customerRef: string;
    amountCents: number;
    idempotencyKey: string;
  }): Promise<void>;
  /**
   * The event, once its `Stripe-Signature` (`t=…,v1=…`, HMAC-SHA256 of `t.body`) matches the raw
   * body and its timestamp is within the tolerance of `receivedAt`; throws otherwise.
   */
  verifyWebhook(rawBody: Buffer, signature: string, receivedAt: number): ProcessorEvent;
}

/** A processor refused the request (4xx): the caller should change something, not retry. */
export class ProcessorRefusal extends Error {
  constructor(
    readonly kind: 'card_error' | 'invalid_request_error',
    readonly status: number,
    readonly processorCode: string | null,
    message: string,
  ) {
    super(message);
  }
}

/** The processor could not be reached or failed (network, 5xx): retrying may work. */
export class ProcessorUnavailable extends Error {}
