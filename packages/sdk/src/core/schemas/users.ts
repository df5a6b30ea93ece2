// Users as the gateway sends them: the signed-in user and the admin tables' rows.
import { z } from 'zod';

/** A timestamp in epoch milliseconds. */
export const timestampSchema = z.number().int().nonnegative();

const roleSchema = z.object({
  role: z.string(),
  properties: z
    .object({
      billingDetails: z.boolean().optional(),
      /** May clear 'Limit characters' and send SMS longer than one segment. */
      multiSegmentSms: z.boolean().optional(),
    })
    .default({}),
});

export const signedInUserSchema = z.object({
  name: z.string(),
  phoneNumber: z.string(),
  isAdmin: z.boolean(),
  proxyInstalled: z.boolean(),
  setupComplete: z.boolean(),
  goodStanding: z.boolean(),
  role: roleSchema.nullable().default(null),
  expirationDateTimestamp: timestampSchema.nullable(),
  /** May read the reseller view (a payout account or the reseller role); absent means no. */
  reseller: z.boolean().optional(),
});
export type SignedInUser = z.infer<typeof signedInUserSchema>;

/** The current-user answer: the user arrives as `Item` or as `data`. */
export const currentUserResponseSchema = z
  .union([z.object({ Item: signedInUserSchema }), z.object({ data: signedInUserSchema })])
  .transform((r) => ('Item' in r ? r.Item : r.data));

export const userStatusSchema = z.enum(['start', 'stop']);
export type UserStatus = z.infer<typeof userStatusSchema>;

const userRowBase = {
  name: z.string(),
  phoneNumber: z.string(),
  referral: z.string().nullable().default(null),
  goodStanding: z.boolean(),
  proxyInstalled: z.boolean(),
  setupComplete: z.boolean(),
  createDateTimestamp: timestampSchema,
  /** ISO 8601 date-time, or null when the user never paid. */
  expirationDate: z.iso.datetime({ offset: true }).nullable(),
  expirationDateTimestamp: timestampSchema.nullable(),
  /** Set for resellers paid out through the card provider; the admin table highlights their name. */
  stripeExpressId: z.string().nullable().default(null),
  status: userStatusSchema,
};

export const flexUserSchema = z.object({
  ...userRowBase,
  humanRegion: z.string().nullable().default(null),
});
export type FlexUser = z.infer<typeof flexUserSchema>;

export const sparkUserSchema = z.object({
  ...userRowBase,
  driverOptions: z
    .object({ deliveryArea: z.string().nullable().default(null) })
    .default({ deliveryArea: null }),
});
export type SparkUser = z.infer<typeof sparkUserSchema>;

export type UserRow = FlexUser | SparkUser;

export const productSchema = z.enum(['flex', 'spark']);
export type Product = z.infer<typeof productSchema>;

export const flexUsersResponseSchema = z.object({ Items: z.array(flexUserSchema) });
export const sparkUsersResponseSchema = z.object({ Items: z.array(sparkUserSchema) });
/** A user table with a response key set: the table's JSON, AES-GCM encrypted (`decryptResponse`). */
export const encryptedAnswerSchema = z.object({ encrypted: z.string() });

/** An owner's change to whether a Flex user is an admin (owners stay admins). */
export const adminRoleChangeSchema = z.strictObject({ admin: z.boolean() });

/** A Flex user's admin role after an owner's change. */
export const adminRoleSchema = z.object({
  phoneNumber: z.string(),
  name: z.string(),
  admin: z.boolean(),
});
export type AdminRole = z.infer<typeof adminRoleSchema>;
