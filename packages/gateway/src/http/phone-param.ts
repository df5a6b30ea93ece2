// The `{phone}` of the admin paths that name a person (a driver's dashboard, calendar and outcomes,
// an admin's approval permission): bounded before the number is read, then a US number.
import { MAX_PHONE_LENGTH, normalizePhone } from '@blockcatch/sdk';
import { z } from 'zod';

export const phoneParamSchema = z.strictObject({
  phone: z
    .string()
    .max(MAX_PHONE_LENGTH, { abort: true })
    .refine((value) => normalizePhone(value) !== null, {
      message: 'expected a US phone number such as +15125550100',
    }),
});
