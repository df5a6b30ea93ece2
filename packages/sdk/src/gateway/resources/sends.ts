// Send jobs after they are queued: the recent ones, one job's report, cancelling a scheduled one,
// and the review's preview of what a send would do.

import {
  type TestSendPayload,
  type TestSendResult,
  testSendResultSchema,
} from '../../core/schemas/messages.js';
import { type SendResults, sendResultsSchema } from '../../core/schemas/send-results.js';
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
