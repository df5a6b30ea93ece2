// Sends waiting for a second admin: the list with each one's review, approve or reject with a
// note, the threshold owners change, and which admins may approve.
import {
  type Approver,
  approvalOutcomeSchema,
  approvalSettingsSchema,
  approverSchema,
  approversSchema,
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
    /** Every admin and whether they may approve (owners only). */
    async approvers(options?: RequestOptions): Promise<Approver[]> {
      return (await http.get(`${PATH}/approvers`, approversSchema, options)).Items;
    },
    /** Gives or takes one admin's approval permission (owners only). */
    setApprover(phoneNumber: string, canApprove: boolean, options?: RequestOptions) {
      return http.put(
        `${PATH}/approvers/${encodeURIComponent(phoneNumber)}`,
        approverSchema,
        { canApprove },
        options,
      );
    },
  };
}
