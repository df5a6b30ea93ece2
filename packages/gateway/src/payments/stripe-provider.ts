// Stripe PaymentIntents through the official client: one confirmed PaymentIntent per payment, with
// our payment id as Stripe's Idempotency-Key, and webhook events checked against their signature.
import Stripe from 'stripe';
import type { ChargeInput, ChargeResult, PaymentProvider, Settlement } from './provider.js';

export interface StripeProvider extends PaymentProvider {
  /**
   * The event's settlement, or null for events we do not act on. Throws when the signature does
   * not match the raw body (or is too old), so a forged or replayed webhook changes nothing.
   */
  readWebhook(rawBody: Buffer, signature: string): Settlement | null;
}

export function createStripeProvider(options: {
  secretKey: string;
  webhookSecret: string;
  baseUrl: string;
}): StripeProvider {
  const base = new URL(options.baseUrl);
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  const stripe = new Stripe(options.secretKey, {
    host: base.hostname,
    port: base.port || (protocol === 'http' ? '80' : '443'),
    protocol,
    // Retries reuse the Idempotency-Key, so Stripe answers a retry with the first attempt's result.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });

  return {
    name: 'stripe',
    takes: 'payment-method',
    async charge(input: ChargeInput): Promise<ChargeResult> {
      if (input.method.kind !== 'payment-method') {
        throw new Error('the Stripe provider takes a payment method made by Stripe.js, not a card');
      }
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: input.currency,
            payment_method: input.method.id,
            // Cards only, confirmed here: no redirect-based method, so no return_url is needed.
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            confirm: true,
            metadata: input.metadata,
            expand: ['payment_method'],
          },
          { idempotencyKey: input.paymentId },
        );
        const cardLast4 =
          typeof intent.payment_method === 'object'
            ? (intent.payment_method?.card?.last4 ?? null)
            : null;
        if (intent.status === 'succeeded') {
          return { status: 'succeeded', providerRef: intent.id, cardLast4 };
        }
        if (intent.status === 'canceled' || intent.status === 'requires_payment_method') {
          return {
            status: 'failed',
            providerRef: intent.id,
            cardLast4,
            reason: intent.last_payment_error?.code ?? intent.status,
          };
        }
        // processing, requires_action (3-D Secure), requires_capture: settled by the webhook.
        return { status: 'processing', providerRef: intent.id, cardLast4 };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          return {
            status: 'failed',
            providerRef: error.payment_intent?.id ?? null,
            cardLast4: null,
            reason: error.code ?? 'card_error',
          };
        }
        throw error;
      }
    },
    readWebhook(rawBody, signature) {
      const event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      if (
        event.type !== 'payment_intent.succeeded' &&
        event.type !== 'payment_intent.payment_failed'
      ) {
        return null;
      }
      const intent = event.data.object;
      const failed = event.type === 'payment_intent.payment_failed';
      return {
        paymentId: intent.metadata?.paymentId ?? null,
        providerRef: intent.id,
        outcome: failed ? 'failed' : 'succeeded',
        ...(failed ? { reason: intent.last_payment_error?.code ?? 'payment_failed' } : {}),
      };
    },
  };
}
