// Invitations sent by drivers, and the invitee rows the notifications screen builds from them.
import { z } from 'zod';
import { flexUserSchema, timestampSchema } from './users.js';

export const invitationSchema = z.object({
  phoneNumber: z.string(),
  dateInvitedTimestamp: timestampSchema,
  /** Set once the inviter has been granted the free week for this friend. */
  freeWeek: z.boolean().default(false),
  /** The inviter's referral code, when known. */
  referralCode: z.string().nullable().default(null),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const invitationsResponseSchema = z.object({ Items: z.array(invitationSchema) });

/** An invitation overlaid with the matching user's fields, or marked unregistered. */
export const mergedInviteeSchema = invitationSchema.extend({
  name: z.string(),
  unregistered: z.boolean(),
  goodStanding: z.boolean(),
  proxyInstalled: z.boolean(),
  setupComplete: z.boolean(),
  referral: flexUserSchema.shape.referral,
  humanRegion: flexUserSchema.shape.humanRegion,
  createDateTimestamp: timestampSchema.nullable().default(null),
  expirationDate: flexUserSchema.shape.expirationDate.default(null),
  expirationDateTimestamp: flexUserSchema.shape.expirationDateTimestamp.default(null),
  stripeExpressId: flexUserSchema.shape.stripeExpressId,
  status: flexUserSchema.shape.status.nullable().default(null),
});
export type MergedInvitee = z.infer<typeof mergedInviteeSchema>;

export const referralSchema = z.object({ referralCode: z.string().min(1) });
export type Referral = z.infer<typeof referralSchema>;
export const referralsResponseSchema = z.object({ Items: z.array(referralSchema) });
