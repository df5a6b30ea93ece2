// Weekly payments and admin billing: the request and answer bodies of the /api/flex/v1 payment
// endpoints (packages/gateway/API.md, "Weekly payments" and "Admin billing").
import { z } from 'zod';
import { MAX_WEEKS, MIN_WEEKS } from '../billing.js';
import { boundedFormat } from './bounds.js';
import { timestampSchema } from './users.js';

const weeksSchema = z
  .number({ error: `weeks must be a whole number from ${MIN_WEEKS} to ${MAX_WEEKS}` })
  .int(`weeks must be a whole number from ${MIN_WEEKS} to ${MAX_WEEKS}`)
  .min(MIN_WEEKS, `buy at least ${MIN_WEEKS} week`)
  .max(MAX_WEEKS, `buy at most ${MAX_WEEKS} weeks at once`);

/** Card details, accepted by the sandbox provider only: real cards never reach the gateway. */
export const sandboxCardSchema = z.strictObject({
  number: z.string().min(1).max(40),
  expMonth: z.number().int().min(1).max(12),
  expYear: z.number().int().min(2000).max(2100),
  cvc: z
    .string()
    .max(4, { abort: true, message: 'cvc must be 3 or 4 digits' })
    .regex(/^\d{3,4}$/, 'cvc must be 3 or 4 digits'),
});
export type SandboxCard = z.infer<typeof sandboxCardSchema>;

/**
 * `POST /api/flex/v1/payments` with an Idempotency-Key header. The sandbox takes `card`; Stripe
 * takes `paymentMethodId` (a `pm_…` made in the browser by Stripe.js), so card numbers never pass
 * through the gateway in production.
 */
export const sandboxPaymentRequestSchema = z.strictObject({
  weeks: weeksSchema,
  card: sandboxCardSchema,
});
export const stripePaymentRequestSchema = z.strictObject({
  weeks: weeksSchema,
  paymentMethodId: z
    .string()
    .max(255, { abort: true })
    .regex(/^pm_\w+$/, 'paymentMethodId must be a pm_… id from Stripe.js'),
});
export const createPaymentRequestSchema = z.union([
  sandboxPaymentRequestSchema,
  stripePaymentRequestSchema,
]);
export type CreatePaymentRequest = z.infer<typeof createPaymentRequestSchema>;

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
});
export type Payment = z.infer<typeof paymentSchema>;

/** 201 when the charge succeeded, 202 while it is processing (`message` is the screen's text). */
export const paymentResponseSchema = z.object({
  status: paymentStatusSchema,
  message: z.string().optional(),
  payment: paymentSchema,
});
export type PaymentResponse = z.infer<typeof paymentResponseSchema>;

export const paymentsResponseSchema = z.object({ Items: z.array(paymentSchema) });
/** `GET /payments/{id}`, and the sandbox's confirmation of a processing payment. */
export const paymentItemResponseSchema = z.object({ Item: paymentSchema });

export const priceResponseSchema = z.object({
  weeklyPriceCents: z.number().int().positive(),
  currency: z.literal('usd'),
  minWeeks: z.number().int(),
  maxWeeks: z.number().int(),
  /** 'sandbox' takes `card` in the payment body; 'stripe' takes `paymentMethodId`. */
  provider: z.enum(['sandbox', 'stripe']),
});
export type PriceResponse = z.infer<typeof priceResponseSchema>;

/** Admin stand-in for the card network settling a processing sandbox payment. */
export const confirmSandboxPaymentRequestSchema = z
  .strictObject({ outcome: z.enum(['succeeded', 'failed']).default('succeeded') })
  .default({ outcome: 'succeeded' });
export type ConfirmSandboxPaymentRequest = z.input<typeof confirmSandboxPaymentRequestSchema>;

export const billingQuerySchema = z.strictObject({
  from: boundedFormat(10, z.iso.date('from must be a day as YYYY-MM-DD')),
  to: boundedFormat(10, z.iso.date('to must be a day as YYYY-MM-DD')).optional(),
  timeZone: z.string().min(1).max(64).default('America/New_York'),
});
export type BillingQuery = z.input<typeof billingQuerySchema>;

export const billingPaymentSchema = paymentSchema.extend({
  name: z.string(),
  phoneNumber: z.string(),
});

export const billingDaySchema = z.object({
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
