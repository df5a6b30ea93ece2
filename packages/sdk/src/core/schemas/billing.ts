// Weekly payments and admin billing: the request and answer bodies of the /api/flex/v1 payment
// endpoints (packages/gateway/API.md, "Weekly payments" and "Admin billing").
import { z } from 'zod';
import { MAX_WEEKS, MIN_WEEKS } from '../billing.js';
import { LOST_TIME_REASONS } from '../lost-hours.js';
import { boundedFormat } from './bounds.js';
import { timestampSchema } from './users.js';

const weeksSchema = z
  .number({ error: `weeks must be a whole number from ${MIN_WEEKS} to ${MAX_WEEKS}` })
  .int(`weeks must be a whole number from ${MIN_WEEKS} to ${MAX_WEEKS}`)
  .min(MIN_WEEKS, `buy at least ${MIN_WEEKS} week`)
  .max(MAX_WEEKS, `buy at most ${MAX_WEEKS} weeks at once`);

/**
 * `POST /api/flex/v1/checkout` with an Idempotency-Key header: the gateway answers a hosted
 * checkout's URL (Stripe Checkout, or the sandbox's page). No body of the product carries card
 * data: strict objects refuse any other field, a card included.
 */
export const checkoutRequestSchema = z.strictObject({
  /** 'subscription' renews every week by itself; 'payment' buys `weeks` weeks once. */
  mode: z.enum(['subscription', 'payment']),
  weeks: weeksSchema.default(1),
  /** The checkout page's language. */
  locale: z.enum(['en', 'es']).default('en'),
});
export type CheckoutRequest = z.input<typeof checkoutRequestSchema>;

export const checkoutSchema = z.object({
  id: z.string(),
  mode: z.enum(['subscription', 'payment']),
  weeks: z.number().int(),
  amountCents: z.number().int(),
  provider: z.enum(['sandbox', 'stripe']),
  status: z.enum(['open', 'complete', 'expired']),
  /** Where the driver pays: the processor's hosted page. */
  url: z.string(),
  /** Why the last attempt on the checkout page failed (a processor decline code), if it did. */
  failureCode: z.string().nullable(),
  createdTimestamp: timestampSchema,
});
export type Checkout = z.infer<typeof checkoutSchema>;
export const checkoutResponseSchema = z.object({ Item: checkoutSchema });

export const subscriptionSchema = z.object({
  status: z.enum(['incomplete', 'active', 'past_due', 'canceled']),
  cancelAtPeriodEnd: z.boolean(),
  /** When the processor bills the next week. */
  currentPeriodEndTimestamp: timestampSchema.nullable(),
  /** Failed attempts at the open renewal (dunning); 0 when in good order. */
  dunningAttempts: z.number().int(),
  nextRetryTimestamp: timestampSchema.nullable(),
  lastFailureCode: z.string().nullable(),
  canceledTimestamp: timestampSchema.nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionUpdateRequestSchema = z.strictObject({
  cancelAtPeriodEnd: z.boolean(),
});

export const portalResponseSchema = z.object({ url: z.string() });

export const paymentStatusSchema = z.enum(['pending', 'processing', 'succeeded', 'failed']);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

export const paymentSchema = z.object({
  id: z.string(),
  status: paymentStatusSchema,
  weeks: z.number().int(),
  amountCents: z.number().int(),
  currency: z.literal('usd'),
  provider: z.enum(['sandbox', 'stripe']),
  cardLast4: z.string().nullable(),
  createdTimestamp: timestampSchema,
  /** When the charge succeeded or failed; null while it is still processing. */
  settledTimestamp: timestampSchema.nullable(),
  /** The driver's expiration right after this payment extended it; null until it succeeds. */
  expirationDateTimestamp: timestampSchema.nullable(),
  /** 'one_off' bought `weeks` weeks at checkout; 'renewal' is a subscription's weekly invoice. */
  kind: z.enum(['one_off', 'renewal']),
  /** Weeks refunded and taken back. */
  refundedWeeks: z.number().int(),
  /** The processor's receipt or invoice page. */
  receiptUrl: z.string().nullable(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const paymentsResponseSchema = z.object({ Items: z.array(paymentSchema) });
/** `GET /payments/{id}`. */
export const paymentItemResponseSchema = z.object({ Item: paymentSchema });

export const priceResponseSchema = z.object({
  weeklyPriceCents: z.number().int().positive(),
  currency: z.literal('usd'),
  minWeeks: z.number().int(),
  maxWeeks: z.number().int(),
  /** Who processes the card on the hosted checkout: the sandbox's test page, or Stripe. */
  provider: z.enum(['sandbox', 'stripe']),
});
export type PriceResponse = z.infer<typeof priceResponseSchema>;

export const billingQuerySchema = z.strictObject({
  from: boundedFormat(10, z.iso.date('from must be a day as YYYY-MM-DD')),
  to: boundedFormat(10, z.iso.date('to must be a day as YYYY-MM-DD')).optional(),
  timeZone: z.string().min(1).max(64).default('America/New_York'),
});
export type BillingQuery = z.input<typeof billingQuerySchema>;

const billingPaymentSchema = paymentSchema.extend({
  name: z.string(),
  phoneNumber: z.string(),
});

const billingDaySchema = z.object({
  day: z.iso.date(),
  payments: z.number().int(),
  weeks: z.number().int(),
  amountCents: z.number().int(),
});

export const billingResponseSchema = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  timeZone: z.string(),
  totals: billingDaySchema.omit({ day: true }),
  days: z.array(billingDaySchema),
  Items: z.array(billingPaymentSchema),
});
export type BillingResponse = z.infer<typeof billingResponseSchema>;

/** One week's credit for lost hours: the week (its Monday in the driver's zone) and why. */
export const lostHoursCreditSchema = z.object({
  week: z.iso.date(),
  /** Service time added, in minutes. */
  minutes: z.number().int(),
  /** The minutes by reason, strongest first; they add up to `minutes`. */
  reasons: z.array(z.object({ reason: z.enum(LOST_TIME_REASONS), minutes: z.number().int() })),
  createdTimestamp: timestampSchema,
});
export type LostHoursCredit = z.infer<typeof lostHoursCreditSchema>;

/** `GET /api/flex/v1/billing`: the driver's own billing page. */
export const billingSummarySchema = z.object({
  provider: z.enum(['sandbox', 'stripe']),
  weeklyPriceCents: z.number().int(),
  expirationDateTimestamp: timestampSchema.nullable(),
  goodStanding: z.boolean(),
  subscription: subscriptionSchema.nullable(),
  /** Free weeks (referrals) waiting to pay the next renewals. */
  creditWeeks: z.number().int(),
  /** Free weeks granted so far, and when each was. */
  credits: z.array(z.object({ weeks: z.number().int(), createdTimestamp: timestampSchema })),
  /** Paid and failed charges, newest first, with receipts. */
  invoices: z.array(paymentSchema),
  /**
   * Service time credited for scheduled hours lost through no fault of the driver's (platform
   * outages, long throttling, the gateway down), newest week first (docs/product.md).
   */
  lostHoursCredits: z.array(lostHoursCreditSchema),
});
export type BillingSummary = z.infer<typeof billingSummarySchema>;

/** `POST /api/flex/v1/admin/billing/refunds` (billing admins): whole weeks, with the reason. */
export const refundRequestSchema = z.strictObject({
  paymentId: z.string().min(1).max(100),
  weeks: weeksSchema,
  reason: z.string().trim().min(3, 'reason must say why, in at least 3 characters').max(500),
});
export type RefundRequest = z.infer<typeof refundRequestSchema>;

const refundSchema = z.object({
  id: z.string(),
  paymentId: z.string(),
  weeks: z.number().int(),
  amountCents: z.number().int(),
  reason: z.string(),
  refundedBy: z.string(),
  createdTimestamp: timestampSchema,
  name: z.string(),
  phoneNumber: z.string(),
});
export const refundResponseSchema = z.object({ Item: refundSchema });

const overviewDriverSchema = z.object({
  userId: z.string(),
  name: z.string(),
  phoneNumber: z.string(),
});

/** `GET /api/flex/v1/admin/billing/overview` (billing admins): the subscription business now. */
export const billingOverviewSchema = z.object({
  weeklyPriceCents: z.number().int(),
  activeSubscriptions: z.number().int(),
  /** What the active subscriptions that are not canceling bill per week. */
  weeklyRevenueCents: z.number().int(),
  /** Succeeded payments over the last 7 days, net of refunds. */
  lastSevenDaysCents: z.number().int(),
  dunning: z.array(
    overviewDriverSchema.extend({
      attempts: z.number().int(),
      nextRetryTimestamp: timestampSchema.nullable(),
      failedSinceTimestamp: timestampSchema.nullable(),
      lastFailureCode: z.string().nullable(),
      expirationDateTimestamp: timestampSchema.nullable(),
    }),
  ),
  cancellations: z.array(
    overviewDriverSchema.extend({
      status: z.enum(['incomplete', 'active', 'past_due', 'canceled']),
      endsTimestamp: timestampSchema.nullable(),
      canceledTimestamp: timestampSchema.nullable(),
    }),
  ),
  flags: z.array(
    overviewDriverSchema.extend({
      kind: z.literal('dispute'),
      paymentId: z.string().nullable(),
      reason: z.string(),
      amountCents: z.number().int(),
      createdTimestamp: timestampSchema,
    }),
  ),
  refunds: z.array(refundSchema),
});
export type BillingOverview = z.infer<typeof billingOverviewSchema>;
