// Send jobs after they are queued: the recent ones, one job's report (counts by state, a row per
// recipient with its error, segments, estimated cost), cancelling a scheduled one, and the review's
// preview of what a send would do.
import { z } from 'zod';
import { RECIPIENT_STATES } from '../../core/delivery.js';
import { APPROVAL_REASONS } from '../../core/schemas/approvals.js';
import {
  type MsgTemplate,
  type Recipient,
  skipReasonSchema,
  type TestSendPayload,
  type TestSendResult,
  testSendResultSchema,
} from '../../core/schemas/messages.js';
import { type SendResults, sendResultsSchema } from '../../core/schemas/send-results.js';
import type { Requester, RequestOptions } from '../client.js';

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
export type SendPreviewRequest = { numbers: Recipient[]; sendAt?: string; key?: string } & (
  | { channel: 'sms'; message: string }
  | { channel: 'whatsapp'; msgTemplate: MsgTemplate }
);

const JOBS = '/api/flex/v1/admin/send-jobs';

export function sendsResource(http: Requester) {
  return {
    /** Newest first; `before` (a job's createdAt) pages back; `key`: the jobs that key named. */
    async list(
      query: { limit?: number; before?: number; key?: string } = {},
      options?: RequestOptions,
    ): Promise<SendJobSummary[]> {
      return (
        await http.get(JOBS, z.object({ Items: z.array(sendJobSummarySchema) }), {
          ...options,
          query: { limit: query.limit, before: query.before, key: query.key },
        })
      ).Items;
    },
    /**
     * One job's report (`id` may be the start of one job's id); recipients come in pages of
     * `limit` after seq `after`.
     */
    async show(
      id: string,
      query: { after?: number; limit?: number } = {},
      options?: RequestOptions,
    ): Promise<SendJobReport> {
      return http.get(`${JOBS}/${encodeURIComponent(id)}`, sendJobReportSchema, {
        ...options,
        query: { after: query.after, limit: query.limit },
      });
    },
    /** Cancels a send that has not started (a scheduled one); 409 `job_started` once it has. */
    async cancel(id: string, options?: RequestOptions): Promise<SendJobReport> {
      return http.post(
        `${JOBS}/${encodeURIComponent(id)}/cancel`,
        sendJobReportSchema,
        undefined,
        options,
      );
    },
    /**
     * Sends the message, rendered for `renderFor` (default: you), to your own phone only; it is in
     * no count or report.
     */
    async test(request: TestSendPayload, options?: RequestOptions): Promise<TestSendResult> {
      return http.post('/api/flex/v1/admin/send-test', testSendResultSchema, request, options);
    },
    /** Each send's results and the weekly totals over the last `weeks` weeks (default 12). */
    async results(weeks?: number, options?: RequestOptions): Promise<SendResults> {
      return http.get('/api/flex/v1/admin/send-results', sendResultsSchema, {
        ...options,
        query: { weeks },
      });
    },
    /** What a send would do: the first recipient's message, who is skipped and why, who waits. */
    async preview(request: SendPreviewRequest, options?: RequestOptions): Promise<SendPreview> {
      return http.post('/api/flex/v1/admin/send-preview', sendPreviewSchema, request, options);
    },
  };
}

/** Every recipient of a job, reading its report page by page. */
export async function readWholeReport(
  sends: ReturnType<typeof sendsResource>,
  id: string,
  options?: RequestOptions,
): Promise<SendJobReport> {
  const first = await sends.show(id, { limit: 1000 }, options);
  const recipients = [...first.recipients];
  let more = first.more;
  while (more) {
    const page = await sends.show(id, { after: recipients.at(-1)!.seq, limit: 1000 }, options);
    recipients.push(...page.recipients);
    more = page.more;
  }
  return { ...first, recipients, more: false };
}
