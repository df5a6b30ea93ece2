// Stripe through stripe-node: customers, Checkout Sessions (subscription mode for weekly renewal,
// payment mode for a number of weeks), the Customer Portal, subscription cancel/resume, refunds,
// balance credit, and webhook events checked against their signature and age.
import Stripe from 'stripe';
import { eventSchema } from './events.js';
import { type BillingProvider, ProcessorRefusal, ProcessorUnavailable } from './provider.js';

export function createStripeProvider(options: {
  secretKey: string;
  webhookSecret: string;
  baseUrl: string;
  /** Seconds a signed event stays acceptable (Stripe's own default is 300). */
  toleranceSeconds: number;
}): BillingProvider {
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
    createCustomer: (input) =>
      call(async () => {
        const customer = await stripe.customers.create(
          { name: input.name, metadata: { userId: input.userId } },
          { idempotencyKey: input.idempotencyKey },
        );
        return customer.id;
      }),
    createCheckout: (input) =>
      call(async () => {
        const subscription = input.mode === 'subscription';
        const metadata = {
          checkoutId: input.checkoutId,
          userId: input.userId,
          weeks: String(input.weeks),
        };
        const session = await stripe.checkout.sessions.create(
          {
            mode: input.mode,
            customer: input.customerRef,
            client_reference_id: input.userId,
            locale: input.locale,
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            line_items: [
              {
                quantity: subscription ? 1 : input.weeks,
                price_data: {
                  currency: 'usd',
                  unit_amount: input.weeklyPriceCents,
                  product_data: { name: input.description },
                  ...(subscription ? { recurring: { interval: 'week' as const } } : {}),
                },
              },
            ],
            metadata,
            ...(subscription
              ? {
                  subscription_data: {
                    metadata: { checkoutId: input.checkoutId, userId: input.userId },
                  },
                }
              : { payment_intent_data: { metadata } }),
          },
          { idempotencyKey: input.checkoutId },
        );
        if (!session.url) throw new ProcessorUnavailable('Stripe answered a session without a URL');
        return { ref: session.id, url: session.url };
      }),
    portal: (input) =>
      call(async () => {
        const session = await stripe.billingPortal.sessions.create({
          customer: input.customerRef,
          return_url: input.returnUrl,
          locale: input.locale,
        });
        return session.url;
      }),
    setCancelAtPeriodEnd: (ref, cancel) =>
      call(async () => {
        await stripe.subscriptions.update(ref, { cancel_at_period_end: cancel });
      }),
    paymentIntentOfInvoice: (invoiceId) =>
      call(async () => {
        // Invoice events leave `payments` out unless expanded: ask Stripe which intent paid it.
        const page = await stripe.invoicePayments.list({ invoice: invoiceId, limit: 10 });
        const paid = page.data.find((p) => p.status === 'paid') ?? page.data[0];
        const intent = paid?.payment?.payment_intent;
        return typeof intent === 'string' ? intent : (intent?.id ?? null);
      }),
    refund: (input) =>
      call(async () => {
        const refund = await stripe.refunds.create(
          {
            payment_intent: input.paymentIntent,
            amount: input.amountCents,
            reason: 'requested_by_customer',
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return refund.id;
      }),
    addCredit: (input) =>
      call(async () => {
        // A negative balance transaction is credit the next invoice uses before charging the card.
        await stripe.customers.createBalanceTransaction(
          input.customerRef,
          { amount: -input.amountCents, currency: 'usd', description: 'Referral free week' },
          { idempotencyKey: input.idempotencyKey },
        );
      }),
    verifyWebhook(rawBody, signature, receivedAt) {
      const event = stripe.webhooks.constructEvent(
        rawBody,
        signature,
        options.webhookSecret,
        options.toleranceSeconds,
        undefined,
        receivedAt,
      );
      return eventSchema.parse(event);
    },
  };
}

/** Maps stripe-node's errors: a 4xx refusal is the caller's to fix, the rest may pass on retry. */
async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      throw new ProcessorRefusal(
        'card_error',
        402,
        error.decline_code ?? error.code ?? null,
        error.message,
      );
    }
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      throw new ProcessorRefusal(
        'invalid_request_error',
        status,
        error.code ?? null,
        error.message,
      );
    }
    if (
      error instanceof Stripe.errors.StripeConnectionError ||
      error instanceof Stripe.errors.StripeAPIError ||
      error instanceof Stripe.errors.StripeRateLimitError ||
      (error instanceof Stripe.errors.StripeError && (error.statusCode ?? 500) >= 500)
    ) {
      throw new ProcessorUnavailable(error.message);
    }
    throw error;
  }
}
