// The second pair of eyes: the sends waiting for approval with the review the requester saw (count,
// message, schedule, cost), approving or rejecting one with a note, and the threshold an owner sets.
// Nobody decides a send they asked for; only owners and admins with the approval permission decide.
import {
  approvalDecisionSchema,
  approvalOutcomeSchema,
  approvalSettingsSchema,
  approverChangeSchema,
  approverSchema,
  approversSchema,
  normalizePhone,
  type PendingApproval,
  pendingApprovalsSchema,
  segmentSms,
} from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isOwner, type Principal } from '../api/authenticate.js';
import type { GatewayConfig } from '../config.js';
import { noteAudit } from '../http/audit.js';
import { ApiError, conflict, forbidden, invalid, notFound, quote } from '../http/errors.js';
import { phoneParamSchema } from '../http/phone-param.js';
import type { Db } from '../storage/db.js';
import {
  type ApprovalReview,
  type Decision,
  decideApproval,
  listPendingApprovals,
  readApprovalReviews,
  readApprovalThreshold,
  writeApprovalThreshold,
} from '../storage/send-approvals.js';
import { listAdmins, setApprovalPermission } from '../storage/users.js';

const PATH = '/api/flex/v1/admin/send-approvals';
const MAX_PENDING = 200;
const jobParamsSchema = z.strictObject({ id: z.string().min(1).max(100) });

/** Owners, and admins given the approval permission. */
function mayApprove(principal: Principal): boolean {
  return isOwner(principal) || principal.user.can_approve_sends === true;
}

/** The threshold in force: the owner's, or the setting's until an owner sets one. */
async function approvalThreshold(db: Db, config: GatewayConfig): Promise<number> {
  return (await readApprovalThreshold(db)) ?? config.approvalThreshold;
}

/** The rules a new send is held by now. */
export async function approvalRules(db: Db, config: GatewayConfig) {
  return { threshold: await approvalThreshold(db, config), whatsapp: config.approvalForWhatsapp };
}

export function registerApprovalRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: GatewayConfig; now: () => number; onApproved: () => void },
): void {
  const { db, config } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    PATH,
    { config: { auth: 'admin' }, schema: { response: { 200: pendingApprovalsSchema } } },
    async (request) => {
      const { principal } = request;
      const pending = await listPendingApprovals(db, MAX_PENDING);
      const reviews = await readApprovalReviews(
        db,
        pending.map((p) => p.job_id),
      );
      const canApprove = mayApprove(principal);
      const items = pending.flatMap((approval): PendingApproval[] => {
        const review = reviews.find((r) => r.jobId === approval.job_id);
        if (!review) return [];
        return [
          {
            jobId: review.jobId,
            reason: approval.reason,
            requestedBy: review.requester,
            requestedAt: approval.requested_ts,
            channel: review.channel,
            message: review.channel === 'sms' ? review.body : (review.templateName ?? review.body),
            preview: review.first,
            recipients: review.queued,
            segments: review.channel === 'sms' ? segmentSms(review.body).segments : 1,
            sendAt: review.sendAtTs,
            estimatedCost: costOf(review),
            canDecide: canApprove && approval.requested_by !== principal.user.id,
          },
        ];
      });
      return { Items: items, canApprove, threshold: await approvalThreshold(db, config) };
    },
  );

  const decide =
    (decision: Decision) =>
    async (request: {
      principal: Principal;
      params: { id: string };
      body: { note?: string | undefined };
    }) => {
      const { principal } = request;
      const { id } = request.params;
      const note = request.body.note?.trim() || null;
      if (!mayApprove(principal)) {
        throw forbidden(
          'Approving sends needs the approval permission; ask an owner, or another admin who has it.',
        );
      }
      if (decision === 'rejected' && note === null) {
        throw invalid('note', 'a rejection must say why, so the requester can fix the send.');
      }
      const outcome = await decideApproval(db, {
        jobId: id,
        decision,
        decidedBy: principal.user.id,
        note,
        now: deps.now(),
      });
      if (outcome === 'not-found') throw notFound(`No send ${quote(id)} waits for approval.`);
      if (outcome === 'own') {
        throw forbidden(
          'You asked for this send; another admin with the approval permission must decide it.',
        );
      }
      if (outcome === 'already-decided') {
        throw new ApiError(409, 'conflict', `Send ${id} was already decided or cancelled.`);
      }
      if (decision === 'approved') deps.onApproved();
      return { jobId: id, status: decision, note };
    };

  api.post(
    `${PATH}/:id/approve`,
    {
      config: { auth: 'admin', audit: 'send.approve' },
      schema: {
        params: jobParamsSchema,
        body: approvalDecisionSchema,
        response: { 200: approvalOutcomeSchema },
      },
    },
    async (request) => {
      const answer = await decide('approved')(request);
      noteAudit(request, { target: answer.jobId, detail: { note: answer.note } });
      return answer;
    },
  );

  api.post(
    `${PATH}/:id/reject`,
    {
      config: { auth: 'admin', audit: 'send.reject' },
      schema: {
        params: jobParamsSchema,
        body: approvalDecisionSchema,
        response: { 200: approvalOutcomeSchema },
      },
    },
    async (request) => {
      const answer = await decide('rejected')(request);
      noteAudit(request, { target: answer.jobId, detail: { note: answer.note } });
      return answer;
    },
  );

  api.put(
    `${PATH}/settings`,
    {
      config: { auth: 'owner', audit: 'settings.change' },
      schema: { body: approvalSettingsSchema, response: { 200: approvalSettingsSchema } },
    },
    async (request) => {
      const before = await approvalThreshold(db, config);
      const { threshold } = request.body;
      await writeApprovalThreshold(db, threshold, request.principal.user.id, deps.now());
      noteAudit(request, {
        target: 'approvalThreshold',
        detail: { from: before, to: threshold },
      });
      return { threshold };
    },
  );

  // Who may approve: every admin, and the owner's switch for each (owners always may).
  api.get(
    `${PATH}/approvers`,
    { config: { auth: 'owner' }, schema: { response: { 200: approversSchema } } },
    async () => ({
      Items: (await listAdmins(db)).map(({ id: _id, ...admin }) => admin),
    }),
  );

  api.put(
    `${PATH}/approvers/:phone`,
    {
      config: { auth: 'owner', audit: 'role.change' },
      schema: {
        params: phoneParamSchema,
        body: approverChangeSchema,
        response: { 200: approverSchema },
      },
    },
    async (request) => {
      const phone = normalizePhone(request.params.phone)!;
      const admin = (await listAdmins(db)).find((a) => a.phoneNumber === phone);
      if (!admin)
        throw notFound(`No admin has the phone number ${phone}; make them an admin first.`);
      if (admin.owner) {
        throw conflict(`${phone} is an owner, and owners always approve sends.`, 'phone');
      }
      const { canApprove } = request.body;
      await setApprovalPermission(db, phone, canApprove);
      noteAudit(request, {
        target: phone,
        detail: { permission: 'approveSends', from: admin.canApprove, to: canApprove },
      });
      return { phoneNumber: phone, name: admin.name, owner: false, canApprove };
    },
  );

  function costOf(review: ApprovalReview): number {
    const cost =
      review.channel === 'sms'
        ? review.segments * config.smsSegmentPrice
        : review.queued * config.whatsappMessagePrice;
    return Math.round(cost * 10_000) / 10_000;
  }
}
