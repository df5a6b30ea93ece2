// Send jobs after they are queued: the recent ones, one job's report, cancelling a scheduled one,
// and the review's preview of what a send would do.
import {
  type SendJobReport,
  type SendJobSummary,
  type SendPreview,
  type SendPreviewRequest,
  sendJobReportSchema,
  sendJobsResponseSchema,
  sendPreviewSchema,
} from '../../core/schemas/sends.js';
import type { Requester, RequestOptions } from '../requester.js';

const JOBS = '/api/flex/v1/admin/send-jobs';

export function sendsResource(http: Requester) {
  return {
    /** Newest first; `before` (a job's createdAt) pages back; `key`: the jobs that key named. */
    async list(
      query: { limit?: number; before?: number; key?: string } = {},
      options?: RequestOptions,
    ): Promise<SendJobSummary[]> {
      return (
        await http.get(JOBS, sendJobsResponseSchema, {
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
