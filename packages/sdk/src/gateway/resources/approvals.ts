// Sends waiting for a second admin: the list with each one's review, approve or reject with a
// note, and the threshold owners change.
import {
  approvalOutcomeSchema,
  approvalSettingsSchema,
  type PendingApprovals,
  pendingApprovalsSchema,
} from '../../core/schemas/approvals.js';
import type { Requester, RequestOptions } from '../requester.js';

const PATH = '/api/flex/v1/admin/send-approvals';

export function approvalsResource(http: Requester) {
  return {
    list(options?: RequestOptions): Promise<PendingApprovals> {
      return http.get(PATH, pendingApprovalsSchema, options);
    },
    approve(jobId: string, note?: string, options?: RequestOptions) {
      return http.post(
        `${PATH}/${encodeURIComponent(jobId)}/approve`,
        approvalOutcomeSchema,
        note ? { note } : {},
        options,
      );
    },
    reject(jobId: string, note: string, options?: RequestOptions) {
      return http.post(
        `${PATH}/${encodeURIComponent(jobId)}/reject`,
        approvalOutcomeSchema,
        { note },
        options,
      );
    },
    setThreshold(threshold: number, options?: RequestOptions) {
      return http.put(`${PATH}/settings`, approvalSettingsSchema, { threshold }, options);
    },
  };
}
