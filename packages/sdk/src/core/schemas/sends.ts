// A send job after it is queued: the list's summaries, one job's report (counts by state, a row
// per recipient with its error, segments, estimated cost), and the review's preview of a send.
import { z } from 'zod';
import { RECIPIENT_STATES } from '../delivery.js';
import { APPROVAL_REASONS } from './approvals.js';
import { type MsgTemplate, type Recipient, skipReasonSchema } from './messages.js';

const recipientStateSchema = z.enum(RECIPIENT_STATES);

export const sendJobSummarySchema = z.object({
  jobId: z.string(),
  channel: z.enum(['sms', 'whatsapp']),
  createdAt: z.number(),
  createdBy: z.string(),
  body: z.string(),
  templateName: z.string().nullable(),
  sendAt: z.number().nullable(),
  cancelledAt: z.number().nullable(),
  total: z.number().int().nonnegative(),
  counts: z.record(recipientStateSchema, z.number().int().nonnegative()),
  segments: z.number().int().nonnegative(),
  /** US dollars, at the gateway's configured prices. */
  estimatedCost: z.number().nonnegative(),
  /** True once no recipient is queued or being sent. */
  done: z.boolean(),
  /** Set when the send needed a second admin: where that stands, who decided and their note. */
  approval: z
    .object({
      status: z.enum(['pending', 'approved', 'rejected']),
      reason: z.enum(APPROVAL_REASONS),
      decidedBy: z.string().nullable(),
      note: z.string().nullable(),
    })
    .optional(),
});
export type SendJobSummary = z.infer<typeof sendJobSummarySchema>;
export const sendJobsResponseSchema = z.object({ Items: z.array(sendJobSummarySchema) });

export const sendRecipientRowSchema = z.object({
  seq: z.number().int(),
  to: z.string(),
  status: recipientStateSchema,
  errorCode: z.number().int().nullable(),
  /** The error code's meaning, or the gateway's own reason. */
  error: z.string().nullable(),
  segments: z.number().int(),
  attempts: z.number().int(),
  sentAt: z.number().nullable(),
  statusAt: z.number().nullable(),
  dueAt: z.number(),
});
export type SendRecipientRow = z.infer<typeof sendRecipientRowSchema>;

export const sendJobReportSchema = sendJobSummarySchema.extend({
  recipients: z.array(sendRecipientRowSchema),
  more: z.boolean(),
  /**
   * Why a job that is not done waits: its schedule, quiet hours in the first waiting recipient's
   * zone, a retry, or its turn at the sending pace; `until` in epoch ms.
   */
  waiting: z
    .object({
      reason: z.enum(['scheduled', 'quiet-hours', 'retry', 'pace']),
      until: z.number(),
      timeZone: z.string(),
    })
    .optional(),
});
export type SendJobReport = z.infer<typeof sendJobReportSchema>;

export const sendPreviewSchema = z.object({
  preview: z
    .object({ to: z.string(), text: z.string(), variables: z.record(z.string(), z.string()) })
    .nullable(),
  queued: z.number().int().nonnegative(),
  skipped: z.array(z.object({ number: z.string(), reason: skipReasonSchema })),
  waitingForQuietHours: z.number().int().nonnegative(),
  /** When the last of those waiting is released (epoch ms). */
  quietHoursUntil: z.number().optional(),
  sendAt: z.number().optional(),
  /** Recipients the job named by `key` already has: the send would not text them again. */
  earlier: z.number().int().nonnegative().optional(),
  /** That job, when the key names one. */
  jobId: z.string().optional(),
  /** Segments per SMS (1 for WhatsApp). */
  segments: z.number().int().nonnegative().optional(),
  /** US dollars, at the gateway's prices, of what would be queued. */
  estimatedCost: z.number().nonnegative().optional(),
  /** Why the send would wait for another admin's approval, when it would. */
  approval: z.enum(APPROVAL_REASONS).optional(),
});
export type SendPreview = z.infer<typeof sendPreviewSchema>;

/** `key`: the Idempotency-Key the send will use, so recipients its job already has are counted. */
export type SendPreviewRequest = {
  numbers: Recipient[];
  sendAt?: string;
  localTime?: boolean;
  key?: string;
} & ({ channel: 'sms'; message: string } | { channel: 'whatsapp'; msgTemplate: MsgTemplate });
