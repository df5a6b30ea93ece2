// A second pair of eyes on admin sends: a send to more recipients than the threshold, or any
// WhatsApp template send (marketing), waits until another admin with the approval permission
// approves it; the approver reviews what the requester reviewed: count, message, schedule, cost.
import { z } from 'zod';

export const APPROVAL_REASONS = ['size', 'whatsapp-marketing'] as const;
export type ApprovalReason = (typeof APPROVAL_REASONS)[number];

/** Why a send must wait for approval, or null when it may go at once. */
export function approvalReasonFor(
  channel: 'sms' | 'whatsapp',
  recipients: number,
  rules: { threshold: number; whatsapp: boolean },
): ApprovalReason | null {
  if (channel === 'whatsapp' && rules.whatsapp) return 'whatsapp-marketing';
  return recipients > rules.threshold ? 'size' : null;
}

export const MAX_APPROVAL_NOTE = 500;

export const approvalDecisionSchema = z.strictObject({
  /** Kept with the decision; a rejection must say why. */
  note: z.string().trim().max(MAX_APPROVAL_NOTE).optional(),
});

export const pendingApprovalSchema = z.object({
  jobId: z.string(),
  reason: z.enum(APPROVAL_REASONS),
  requestedBy: z.object({ id: z.string(), name: z.string(), phoneNumber: z.string() }),
  requestedAt: z.number(),
  channel: z.enum(['sms', 'whatsapp']),
  /** The SMS text, or the template's name for WhatsApp. */
  message: z.string(),
  /** The message as the first recipient will read it. */
  preview: z.object({ to: z.string(), text: z.string() }).nullable(),
  recipients: z.number().int().nonnegative(),
  segments: z.number().int().nonnegative(),
  /** When it would start once approved (epoch ms), or null for at once. */
  sendAt: z.number().nullable(),
  /** US dollars at the gateway's prices. */
  estimatedCost: z.number().nonnegative(),
  /** Whether the caller may decide it (has the permission and did not ask for it). */
  canDecide: z.boolean(),
});
export type PendingApproval = z.infer<typeof pendingApprovalSchema>;

export const pendingApprovalsSchema = z.object({
  Items: z.array(pendingApprovalSchema),
  /** Whether the caller holds the approval permission. */
  canApprove: z.boolean(),
  /** Sends to more recipients than this wait for approval. */
  threshold: z.number().int(),
});
export type PendingApprovals = z.infer<typeof pendingApprovalsSchema>;

export const approvalOutcomeSchema = z.object({
  jobId: z.string(),
  status: z.enum(['approved', 'rejected']),
  note: z.string().nullable(),
});

export const approvalSettingsSchema = z.strictObject({
  threshold: z.number().int().min(1).max(10_000_000),
});

/** An admin and whether they may approve sends; owners always may, and cannot be changed. */
export const approverSchema = z.object({
  phoneNumber: z.string(),
  name: z.string(),
  owner: z.boolean(),
  canApprove: z.boolean(),
});
export type Approver = z.infer<typeof approverSchema>;

export const approversSchema = z.object({ Items: z.array(approverSchema) });

/** An owner's change to one admin's approval permission. */
export const approverChangeSchema = z.strictObject({ canApprove: z.boolean() });
