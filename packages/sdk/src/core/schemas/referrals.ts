// The referral program: a driver's invitations to friends and the reseller view, the request and
// answer bodies of packages/gateway/API.md, "Referrals".
import { z } from 'zod';
import { RECIPIENT_STATES } from '../delivery.js';
import { timestampSchema } from './users.js';

/** `POST /invitations`: the friend's phone, in any US form. */
export const createInvitationRequestSchema = z.strictObject({ phoneNumber: z.string().max(40) });

export const invitationStatusSchema = z.enum(['invited', 'registered', 'paid']);
export type InvitationStatus = z.infer<typeof invitationStatusSchema>;

export const driverInvitationSchema = z.object({
  phoneNumber: z.string(),
  dateInvitedTimestamp: timestampSchema,
  freeWeek: z.boolean(),
  referralCode: z.string().nullable(),
  status: invitationStatusSchema,
  /**
   * Where the text inviting the friend stands: queued until the gateway's worker sends it (it may
   * wait for the morning), then sent, delivered or why not. Absent when no text was queued (the
   * friend had signed up already).
   */
  smsStatus: z.enum(RECIPIENT_STATES).optional(),
});
export type DriverInvitation = z.infer<typeof driverInvitationSchema>;

/** `POST /invitations` (201 new, 200 already invited) and `GET /invite/{phoneNumber}`. */
export const invitationResponseSchema = z.object({ Item: driverInvitationSchema });

/** `GET /invitations`, newest first. */
export const driverInvitationsResponseSchema = z.object({
  referralCode: z.string(),
  freeWeeksEarned: z.number().int().nonnegative(),
  Items: z.array(driverInvitationSchema),
});

const resellerStandingSchema = z.enum(['paid', 'expiring', 'expired', 'unpaid']);

const resellerUserSchema = z.object({
  name: z.string(),
  /** Last four digits only: a reseller is not given referred drivers' full numbers. */
  phoneLast4: z.string(),
  createDateTimestamp: timestampSchema,
  expirationDateTimestamp: timestampSchema.nullable(),
  paymentStatus: resellerStandingSchema,
});

/** `GET /reseller`: the users who signed up with the reseller's code. */
export const resellerResponseSchema = z.object({
  referralCode: z.string(),
  totals: z.record(resellerStandingSchema, z.number().int()),
  Items: z.array(resellerUserSchema),
});
export type ResellerView = z.infer<typeof resellerResponseSchema>;

/**
 * `GET /admin/invitation-backlog`: invitation texts past the service's hourly total, kept for a
 * later hour (docs/operations.md, "Security limits"), and when the first of them goes.
 */
export const invitationBacklogResponseSchema = z.object({
  waiting: z.number().int().nonnegative(),
  nextAt: timestampSchema.nullable(),
  perHour: z.number().int().positive(),
});
export type InvitationBacklog = z.infer<typeof invitationBacklogResponseSchema>;
