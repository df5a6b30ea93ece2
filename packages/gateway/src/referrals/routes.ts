// Referral endpoints: a driver's invitations (send, list, one by phone), the reseller view of
// the users who signed up with the reseller's code, and the admins' view of invitation texts kept
// for a later hour.
import {
  createInvitationRequestSchema,
  type DriverInvitation,
  driverInvitationsResponseSchema,
  invitationBacklogResponseSchema,
  invitationResponseSchema,
  MAX_PHONE_LENGTH,
  normalizePhone,
  paymentStanding,
  type RecipientState,
  resellerResponseSchema,
} from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayConfig } from '../config.js';
import { conflict, forbidden, invalid, notFound, quote } from '../http/errors.js';
import type { Enqueue, QueuedJob } from '../messaging/enqueue.js';
import { phoneInUse } from '../storage/accounts.js';
import type { Db } from '../storage/db.js';
import { invitationBacklog } from '../storage/invitation-texts.js';
import { findOptedOut } from '../storage/opt-outs.js';
import {
  ensureReferralCode,
  findInvitationBy,
  friendAlreadyTexted,
  type InvitationWithStatus,
  invitationMessageKey,
  inviteFriend,
  listInvitationsBy,
  listReferredUsers,
} from '../storage/referrals.js';
import { isReseller } from '../storage/users.js';
import { generateReferralCode } from './codes.js';
import {
  requireInviter,
  reserveInvitationSlot,
  spendDriverInvitation,
} from './invitation-limits.js';
import { invitationMessage } from './invitation-message.js';

/** The locales' text (flex.invite.phoneRequired); the web client shows its own translation. */
const PHONE_REQUIRED = 'The phone number is required to send an invitation';

const phoneParamsSchema = z.strictObject({ phoneNumber: z.string().min(1).max(MAX_PHONE_LENGTH) });

/** The SDK's body, with the screen's own text when the phone is missing or empty. */
const invitationBodySchema = createInvitationRequestSchema.extend({
  phoneNumber: z
    .string({ error: PHONE_REQUIRED })
    .min(1, { error: PHONE_REQUIRED })
    .max(MAX_PHONE_LENGTH),
});

export function registerReferralRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    config: Pick<GatewayConfig, 'publicUrl' | 'host' | 'port' | 'invitationLimits'>;
    /** Queues the friend's text through the send pipeline. */
    enqueue: Enqueue;
    /** The clock invitation limits are counted by (tests move it). */
    now?: () => number;
  },
): void {
  const { db } = deps;
  const limits = deps.config.invitationLimits;
  const now = deps.now ?? Date.now;

  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/flex/v1/invitations',
    {
      config: { auth: 'user' },
      schema: {
        body: invitationBodySchema,
        response: { 200: invitationResponseSchema, 201: invitationResponseSchema },
      },
    },
    async (request, reply) => {
      const { user } = request.principal;
      const { phoneNumber } = request.body;
      const phone = requirePhone(phoneNumber);
      if (phone === user.phone_number) {
        throw invalid('phoneNumber', 'that is your own number; invite a friend instead.');
      }
      await requireInviter(db, request.principal);
      // Only a number without an account can be invited: an invitation would make a registered
      // user a "pending invitee" whom any admin may message.
      const previous = await findInvitationBy(db, user.id, phone);
      if (!previous && (await phoneInUse(db, phone, ''))) {
        throw conflict(
          'That number already has an account; invite a friend who has none yet.',
          'phoneNumber',
        );
      }
      // The friend gets one text, through the send pipeline (pace, opt-outs, quiet hours), whoever
      // invites them: a repeated invitation queues nothing, another inviter's text makes this one
      // queue none, and a friend who has since signed up gets none. A number that opted out gets
      // a job whose one recipient is skipped, and costs no invitation.
      const textDue =
        (!previous || (previous.status === 'invited' && previous.sms_status === null)) &&
        !(await friendAlreadyTexted(db, user.id, phone));
      const optedOut = textDue && (await findOptedOut(db, [phone])).has(phone);
      let sendAt: number | null = null;
      if (textDue && !optedOut) {
        const at = now();
        await spendDriverInvitation(db, reply, user.id, limits, at);
        sendAt = await reserveInvitationSlot(db, reply, limits, at);
      }
      const referralCode = await ensureReferralCode(db, user.id, generateReferralCode);
      const { created, invitation } = await inviteFriend(db, {
        inviterId: user.id,
        referralCode,
        phoneNumber: phone,
        now: Date.now(),
      });
      // Until the worker sends it, the invitation says its text is queued.
      let queued: QueuedJob | null = null;
      if (textDue) {
        queued = await deps.enqueue({
          createdBy: user.id,
          key: invitationMessageKey(invitation.normalized_phone),
          to: invitation.normalized_phone,
          body: invitationMessage({
            inviterName: user.name,
            language: user.preferred_language,
            referralCode,
            config: deps.config,
          }),
          sendAt,
        });
      }
      // Inviting the same friend again is not an error: the first invitation stands, date and all.
      const withStatus = await findInvitationBy(db, user.id, invitation.normalized_phone);
      const item = toDriverInvitation(
        withStatus ?? { ...invitation, status: 'invited', sms_status: null },
      );
      // A text just queued says so, even if the worker has already picked it up.
      if (queued?.created) item.smsStatus = smsStatusOf(queued);
      return reply.status(created ? 201 : 200).send({ Item: item });
    },
  );

  api.get(
    '/api/flex/v1/invitations',
    { config: { auth: 'user' }, schema: { response: { 200: driverInvitationsResponseSchema } } },
    async (request) => {
      const { user } = request.principal;
      const referralCode = await ensureReferralCode(db, user.id, generateReferralCode);
      const invitations = await listInvitationsBy(db, user.id);
      return {
        referralCode,
        freeWeeksEarned: invitations.filter((i) => i.free_week).length,
        Items: invitations.map(toDriverInvitation),
      };
    },
  );

  api.get(
    '/api/flex/v1/invite/:phoneNumber',
    {
      config: { auth: 'user' },
      schema: { params: phoneParamsSchema, response: { 200: invitationResponseSchema } },
    },
    async (request) => {
      const { user } = request.principal;
      const { phoneNumber } = request.params;
      const phone = requirePhone(phoneNumber);
      const invitation = await findInvitationBy(db, user.id, phone);
      if (!invitation) throw notFound(`You have not invited ${phone}.`);
      return { Item: toDriverInvitation(invitation) };
    },
  );

  api.get(
    '/api/flex/v1/admin/invitation-backlog',
    {
      config: { auth: 'admin' },
      schema: { response: { 200: invitationBacklogResponseSchema } },
    },
    async () => {
      const backlog = await invitationBacklog(db, now());
      return { waiting: backlog.waiting, nextAt: backlog.nextTs, perHour: limits.perHour };
    },
  );

  api.get(
    '/api/flex/v1/reseller',
    { config: { auth: 'user' }, schema: { response: { 200: resellerResponseSchema } } },
    async (request) => {
      const { user } = request.principal;
      if (!isReseller(user)) {
        throw forbidden(
          'The reseller view is for resellers (a payout account or the reseller role).',
        );
      }
      const referralCode = await ensureReferralCode(db, user.id, generateReferralCode);
      const now = Date.now();
      const referred = await listReferredUsers(db, referralCode);
      const items = referred.map((u) => ({
        name: u.name,
        phoneLast4: u.phone_number.slice(-4),
        createDateTimestamp: u.create_date_ts,
        expirationDateTimestamp: u.expiration_ts,
        paymentStatus: paymentStanding(u.expiration_ts, now),
      }));
      const totals = { paid: 0, expiring: 0, expired: 0, unpaid: 0 };
      for (const item of items) totals[item.paymentStatus] += 1;
      return { referralCode, totals, Items: items };
    },
  );
}

function requirePhone(input: string): string {
  const phone = normalizePhone(input);
  if (!phone) {
    throw invalid(
      'phoneNumber',
      `${quote(input)} is not a valid US phone number; use 10 digits, optionally with a leading 1.`,
    );
  }
  return phone;
}

/** What a text just queued for one friend is: queued, or skipped with the reason. */
function smsStatusOf(job: QueuedJob): RecipientState {
  const reason = job.skipped?.[0]?.reason;
  return (job.queued ?? 0) > 0 || !reason ? 'queued' : `skipped-${reason}`;
}

function toDriverInvitation(i: InvitationWithStatus): DriverInvitation {
  return {
    phoneNumber: i.normalized_phone,
    dateInvitedTimestamp: i.date_invited_ts,
    freeWeek: i.free_week,
    referralCode: i.referral_code,
    status: i.status,
    ...(i.sms_status ? { smsStatus: i.sms_status } : {}),
  };
}
