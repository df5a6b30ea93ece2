// The driver endpoints' request shapes, validated at the edge. Filters use the SDK's contract.
import { isoDaySchema, normalizePhone } from '@blockcatch/sdk';
import { z } from 'zod';

export const platformSignInSchema = z.object({
  // The SPEC's loose email check: text, an @, text, a dot, text, no spaces.
  email: z
    .string()
    .trim()
    .regex(/^\S+@\S+\.\S+$/, { message: 'expected an email address such as name@example.com' }),
  password: z.string().min(1, { message: 'the delivery account password is required' }).max(256),
});

export const platformVerifySchema = z.object({
  challengeId: z.uuid({ message: 'expected the challengeId the sign-in answered' }),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { message: 'expected the 6-digit code sent to your phone' }),
});

export const statusSchema = z.object({
  status: z.enum(['start', 'stop'], { message: "expected 'start' or 'stop'" }),
});

export const offerKindSchema = z.enum(['won', 'disliked', 'gone'], {
  message: 'expected kind=won, kind=disliked or kind=gone',
});

export const offersQuerySchema = z.object({
  kind: offerKindSchema,
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** A `seenAt` from the previous page: returns older records. */
  before: z.coerce.number().int().positive().optional(),
});

export const calendarQuerySchema = z
  .object({
    /** First day shown, in the driver's time zone (default: today). */
    from: isoDaySchema.optional(),
    /** Last day shown, inclusive (default: 30 days after `from`). */
    to: isoDaySchema.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'to must not be before from',
    path: ['to'],
  });

export const phoneParamSchema = z.object({
  phone: z.string().refine((value) => normalizePhone(value) !== null, {
    message: 'expected a US phone number such as +15125550100',
  }),
});
