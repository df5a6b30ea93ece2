// The messaging endpoints: the two sends and their review preview, the template list, send jobs
// (list, report, cancel), the sandbox outbox and the provider's webhooks (keyword replies,
// MessageStatus).
import { randomUUID } from 'node:crypto';
import {
  approvalReasonFor,
  type Channel,
  findLinks,
  MAX_PHONE_LENGTH,
  type MsgTemplate,
  normalizePhone,
  outboxResponseSchema,
  quietHoursRelease,
  regionTimeZone,
  type SendJobSummary,
  type SendResult,
  segmentSms,
  sendJobReportSchema,
  sendJobsResponseSchema,
  sendPreviewSchema,
  sendResultSchema,
  smsSendPayloadSchema,
  templatesResponseSchema,
  templatesSyncResponseSchema,
  whatsappSendPayloadSchema,
  withSampleLinks,
} from '@blockcatch/sdk';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isOwner, type Principal } from '../api/authenticate.js';
import { appBaseUrl, type GatewayConfig, linkBaseUrl } from '../config.js';
import { noteAudit } from '../http/audit.js';
import { ApiError, forbidden, invalid, notFound, quote } from '../http/errors.js';
import {
  IDEMPOTENCY_HEADER,
  idempotencyKeySchema,
  idempotentHeadersSchema,
  REPLAYED_HEADER,
} from '../http/idempotency.js';
import { parseInput } from '../http/input.js';
import type { Db } from '../storage/db.js';
import { readOutbox } from '../storage/outbox.js';
import { findPendingInvitees } from '../storage/pending-invitees.js';
import { findSkippedRecipients, type MarketingRules } from '../storage/recipient-skips.js';
import { findApprovals } from '../storage/send-approvals.js';
import {
  createOrExtendSendJob,
  findJobNumbers,
  findKeyedJob,
  type KeyedJob,
  skipReasonOf,
} from '../storage/send-job-create.js';
import { findJobIdsByKey, findJobWait, resolveJobId } from '../storage/send-job-lookup.js';
import { cancelJob, listJobs, readJobReport } from '../storage/send-jobs.js';
import { listTemplates } from '../storage/templates.js';
import { approvalRules } from './approval-routes.js';
import { alertApprovers } from './approver-alerts.js';
import {
  type ComposedSend,
  composeSms,
  composeWhatsapp,
  localDues,
  parseSendAt,
  quietHoursWait,
  type SortedNumbers,
  sendAtInstant,
  sortNumbers,
} from './compose.js';
import type { Enqueue } from './enqueue.js';
import { answerKeyword } from './inbound.js';
import type { MessagingMetrics } from './metrics.js';
import { senderFor, sendersOf } from './providers/index.js';
import {
  authorizeRecipients,
  authorizeSendKind,
  changedParts,
  contentHash,
  jobAnswer,
  type SendContent,
  sendContentOf,
} from './send-request.js';
import { registerStatusCallback, requireSignedWebhook } from './status-callback.js';
import { syncTemplateApprovals } from './template-approvals.js';

export interface RouteDeps {
  db: Db;
  config: GatewayConfig;
  /** Tells the worker a job was just queued. */
  onQueued: () => void;
  /** Sends a keyword's answer (HELP, the opt-out confirmation) at once, from `from` if given. */
  reply: (to: string, body: string, from?: string) => Promise<void>;
  /** The time quiet hours are judged by (tests move it). */
  now: () => number;
  metrics: MessagingMetrics;
  /** Queues a system text (the approvers' alert of a held send). */
  enqueue: Enqueue;
}

const outboxQuerySchema = z.strictObject({
  to: z.string().min(1).max(MAX_PHONE_LENGTH).optional(),
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

const jobParamsSchema = z.strictObject({ id: z.string().min(1).max(100) });

const jobListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  before: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  /** Admins' sends by default; `system` for the gateway's own texts (invitations, alerts). */
  origin: z.enum(['admin', 'system', 'all']).optional(),
  /** The jobs this Idempotency-Key named (one per admin who used it). */
  key: idempotencyKeySchema.optional(),
});

const jobReportQuerySchema = z.strictObject({
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(0).max(10_000).optional(),
});

// `key`: the Idempotency-Key the send will use, so the preview counts who its job already has.
const previewSchema = z.discriminatedUnion('channel', [
  smsSendPayloadSchema.extend({ channel: z.literal('sms'), key: idempotencyKeySchema.optional() }),
  whatsappSendPayloadSchema.extend({
    channel: z.literal('whatsapp'),
    key: idempotencyKeySchema.optional(),
  }),
]);

const inboundSchema = z.looseObject({
  From: z.string().min(1),
  Body: z.string(),
  MessageSid: z.string().min(1).max(64).optional(),
  /** Our number it was sent to, and the messaging service that number belongs to, if any. */
  To: z.string().min(1).max(64).optional(),
  MessagingServiceSid: z.string().min(1).max(64).optional(),
});

/** `YYYY-MM-DD` of `ts` in `timeZone`: the day HELP is answered once in. */
function dayIn(ts: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(ts);
}

const TWIML_EMPTY = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

export function registerMessagingRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { db } = deps;
  const prices = {
    smsSegment: deps.config.smsSegmentPrice,
    whatsappMessage: deps.config.whatsappMessagePrice,
  };

  const api = app.withTypeProvider<ZodTypeProvider>();
  const sendResponses = { 202: sendResultSchema };

  api.post(
    '/api/flex/v1/admin/sendsms',
    {
      config: { auth: 'admin', audit: 'send.create' },
      schema: {
        headers: idempotentHeadersSchema,
        body: smsSendPayloadSchema,
        response: sendResponses,
      },
    },
    async (request, reply) => {
      const { principal, body: payload } = request;
      authorizeSendKind(principal, { channel: 'sms', message: asRead(payload.message) });
      const answer = await queueSend({
        principal,
        key: request.headers[IDEMPOTENCY_HEADER],
        payload,
      });
      noteSent(request, 'sms', answer.body);
      return answerWith(reply, answer);
    },
  );

  api.post(
    '/api/flex/v1/admin/sendWhatsapp',
    {
      config: { auth: 'admin', audit: 'send.create' },
      schema: {
        headers: idempotentHeadersSchema,
        body: whatsappSendPayloadSchema,
        response: sendResponses,
      },
    },
    async (request, reply) => {
      const { principal, body: payload } = request;
      authorizeSendKind(principal, { channel: 'whatsapp' });
      const answer = await queueSend({
        principal,
        key: request.headers[IDEMPOTENCY_HEADER],
        payload,
      });
      noteSent(request, 'whatsapp', answer.body);
      return answerWith(reply, answer);
    },
  );

  // The review: what the first recipient will read, who will be skipped and why, who will wait,
  // what it costs. The same checks as the send, in the same order, refused the same way.
  api.post(
    '/api/flex/v1/admin/send-preview',
    {
      config: { auth: 'admin' },
      schema: { body: previewSchema, response: { 200: sendPreviewSchema } },
    },
    async (request) => {
      const { principal, body } = request;
      const { channel, key, ...payload } = body;
      authorizeSendKind(
        principal,
        'message' in payload
          ? { channel: 'sms', message: asRead(payload.message) }
          : { channel: 'whatsapp' },
      );
      const plan = await planSend(principal, key ?? null, payload);
      const { fresh, sendAt } = plan;
      const composed = await composeFor(payload, fresh);
      const dues = plan.dues ?? fresh.valid.map(() => sendAt ?? Date.now());
      const found = await findSkippedRecipients(
        db,
        fresh.valid,
        dues,
        marketingRules(plan.content.channel),
      );
      const skipped = [
        ...found.map(({ number, status }) => ({
          number,
          reason: skipReasonOf(status as Parameters<typeof skipReasonOf>[0])!,
        })),
        ...fresh.invalid.map((number) => ({ number, reason: 'invalid' as const })),
      ];
      const skippedNumbers = new Set(skipped.map((s) => s.number));
      const sendable = fresh.valid.filter((n) => !skippedNumbers.has(n));
      const waiting = await waitingFor(sendable, sendAt);
      return {
        preview: composed.preview,
        queued: sendable.length,
        skipped,
        waitingForQuietHours: waiting.count,
        ...(waiting.count > 0 && waiting.until !== null ? { quietHoursUntil: waiting.until } : {}),
        ...(sendAt === null ? {} : { sendAt }),
        earlier: plan.earlier,
        ...(plan.existing ? { jobId: plan.existing.id } : {}),
        segments: segmentsOf(payload),
        estimatedCost: costOf(payload, sendable.length),
        ...(plan.existing ? {} : await approvalOf(channel, fresh.valid.length)),
      };
    },
  );

  api.get(
    '/api/flex/v1/admin/send-jobs',
    {
      config: { auth: 'admin' },
      schema: { querystring: jobListQuerySchema, response: { 200: sendJobsResponseSchema } },
    },
    async (request) => {
      const { key, ...query } = request.query;
      if (key === undefined) {
        return { Items: await withApprovals(await listJobs(db, prices, query)) };
      }
      const ids = await findJobIdsByKey(db, key, query.limit ?? 20);
      const reports = await Promise.all(
        ids.map((id) => readJobReport(db, id, prices, { limit: 0 })),
      );
      return {
        Items: reports.flatMap((r) =>
          r ? [{ ...r, recipients: undefined, more: undefined }] : [],
        ),
      };
    },
  );

  api.post(
    '/api/flex/v1/admin/send-jobs/:id/cancel',
    {
      config: { auth: 'admin', audit: 'send.cancel' },
      schema: { params: jobParamsSchema, response: { 200: sendJobReportSchema } },
    },
    async (request) => {
      const { id } = request.params;
      noteAudit(request, { target: id });
      const { principal } = request;
      const outcome = await cancelJob(db, id, Date.now(), {
        userId: principal.user.id,
        owner: isOwner(principal),
      });
      if (outcome === 'not-found') throw notFound(`No send job ${quote(id)}.`);
      if (outcome === 'system') {
        throw forbidden(
          'This send was queued by the service itself (an invitation or an alert); it cannot be cancelled here.',
        );
      }
      if (outcome === 'not-creator') {
        throw forbidden('Only the admin who created this send, or an owner, may cancel it.');
      }
      if (outcome === 'started') {
        throw new ApiError(
          409,
          'job_started',
          'This send has already started; only a send that has not started can be cancelled.',
        );
      }
      const report = await readJobReport(db, id, prices, { limit: 0 });
      if (!report) throw notFound(`No send job ${quote(id)}.`);
      return report;
    },
  );

  api.get(
    '/api/flex/v1/admin/sendWhatsapp',
    { config: { auth: 'billing' }, schema: { response: { 200: templatesResponseSchema } } },
    async () => ({ Items: await listTemplates(db) }),
  );

  // WhatsApp's approval of each template, read again from Twilio's Content API; the trail keeps
  // which templates changed status.
  api.post(
    '/api/flex/v1/admin/templates/sync',
    {
      config: { auth: 'billing', audit: 'template.change' },
      // Nothing to send: a body, if any, is an empty object.
      schema: {
        body: z.strictObject({}).nullish(),
        response: { 200: templatesSyncResponseSchema },
      },
    },
    async (request) => {
      const before = new Map((await listTemplates(db)).map((t) => [t.id, t.approvalStatus]));
      const failed = await syncTemplateApprovals(db, deps.config, deps.now);
      for (const failure of failed)
        request.log.warn(failure, 'a template approval could not be read');
      const Items = await listTemplates(db);
      const changed = Items.filter((t) => t.approvalStatus !== before.get(t.id)).map((t) => ({
        id: t.id,
        from: before.get(t.id) ?? null,
        to: t.approvalStatus ?? null,
      }));
      noteAudit(request, {
        target: 'templates',
        detail: { changed, failed: failed.map((f) => f.id) },
      });
      return { Items, failed };
    },
  );

  api.get(
    '/api/flex/v1/admin/send-jobs/:id',
    {
      config: { auth: 'admin' },
      schema: {
        params: jobParamsSchema,
        querystring: jobReportQuerySchema,
        response: { 200: sendJobReportSchema },
      },
    },
    async (request) => {
      const id = await jobIdOf(request.params.id);
      const { after, limit } = request.query;
      const report = await readJobReport(db, id, prices, {
        ...(after === undefined ? {} : { afterSeq: after }),
        ...(limit === undefined ? {} : { limit }),
      });
      if (!report) throw notFound(`No send job ${quote(id)}.`);
      const withApproval = (await withApprovals([report]))[0];
      if (!withApproval) throw notFound(`No send job ${quote(id)}.`);
      // A send waiting for approval waits for a person, not for a time.
      if (report.done || withApproval.approval?.status === 'pending') return withApproval;
      const waiting = await waitOf(id);
      return waiting ? { ...withApproval, waiting } : withApproval;
    },
  );

  api.get(
    '/api/sandbox/outbox',
    {
      config: { auth: 'admin' },
      schema: { querystring: outboxQuerySchema, response: { 200: outboxResponseSchema } },
    },
    async (request) => {
      const query = request.query;
      let to: string | undefined;
      if (query.to !== undefined) {
        to = normalizePhone(query.to) ?? undefined;
        if (!to) {
          throw invalid(
            'to',
            `${quote(query.to)} is not a valid US phone number; use 10 digits, optionally with a leading 1`,
          );
        }
      }
      const items = await readOutbox(db, {
        ...(to ? { to } : {}),
        ...(query.after === undefined ? {} : { afterId: query.after }),
        ...(query.limit === undefined ? {} : { limit: query.limit }),
      });
      // One-time codes show only to the owner and to the number they were sent to.
      const { user } = request.principal;
      const owner = isOwner(request.principal);
      return {
        Items: items.map((item) =>
          owner || item.to === user.phone_number ? item : { ...item, body: maskCodes(item.body) },
        ),
      };
    },
  );

  // Its own scope, so the form parser serves only Twilio's webhook.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    // Public: the provider signs its requests, checked below.
    scope.post(
      '/api/webhooks/twilio/inbound',
      { config: { auth: 'public' } },
      async (request, reply) => {
        const params = requireSignedWebhook(request, deps.config);
        const inbound = parseInput(inboundSchema, params, 'form');
        const from = normalizePhone(inbound.From.replace(/^whatsapp:/, ''));
        if (!from) {
          request.log.warn('an inbound reply from a number outside the US plan was ignored');
        } else {
          const senders = sendersOf(deps.config);
          const to =
            [inbound.MessagingServiceSid, inbound.To?.replace(/^whatsapp:/, '')].find(
              (s) => s === senders.marketing || s === senders.account,
            ) ?? null;
          const now = deps.now();
          const answer = await answerKeyword(
            db,
            {
              from,
              to,
              body: inbound.Body,
              messageSid: inbound.MessageSid ?? null,
              now,
              day: dayIn(now, deps.config.productTimeZone),
            },
            senders,
          );
          // Answered from the sender it was sent to.
          if (answer) await deps.reply(from, answer, to ?? undefined);
        }
        return reply.type('text/xml').send(TWIML_EMPTY);
      },
    );
    registerStatusCallback(scope, deps);
  });

  /** Jobs with where their approval stands, for those that needed one. */
  async function withApprovals<J extends { jobId: string }>(
    jobs: J[],
  ): Promise<(J & { approval?: NonNullable<SendJobSummary['approval']> })[]> {
    const approvals = await findApprovals(
      db,
      jobs.map((j) => j.jobId),
    );
    return jobs.map((job) => {
      const approval = approvals.get(job.jobId);
      if (!approval) return job;
      return {
        ...job,
        approval: {
          status: approval.status,
          reason: approval.reason,
          decidedBy: approval.decided_by,
          note: approval.note,
        },
      };
    });
  }

  /** A job's id, or the one job whose id starts with what was typed (`3f2a`). */
  async function jobIdOf(typed: string): Promise<string> {
    const [exact] = await db.query<{ id: string }>('SELECT id FROM send_jobs WHERE id = $1', [
      typed,
    ]);
    if (exact) return exact.id;
    const found = await resolveJobId(db, typed);
    if (found === 'ambiguous') {
      throw new ApiError(
        409,
        'conflict',
        `More than one send job starts with ${quote(typed)}; give more of its id.`,
        'id',
      );
    }
    if (found === null) throw notFound(`No send job ${quote(typed)}.`);
    return found;
  }

  /** What a job that is not done waits for: its schedule, quiet hours, a retry or its turn. */
  async function waitOf(jobId: string) {
    const now = deps.now();
    const wait = await findJobWait(db, jobId, now);
    if (!wait) return null;
    const timeZone = regionTimeZone(wait.region, deps.config.productTimeZone);
    if (wait.reason === 'pace' && deps.config.quietHours) {
      const release = quietHoursRelease(now, timeZone);
      if (release > now) return { reason: 'quiet-hours' as const, until: release, timeZone };
    }
    return { reason: wait.reason, until: Math.max(wait.until, now), timeZone };
  }

  /** Marketing's rules for a send on `channel`: consent, the weekly cap, its sender's opt-outs. */
  function marketingRules(channel: Channel): MarketingRules {
    return {
      consent: deps.config.marketingConsent,
      weeklyCap: deps.config.marketingWeeklyCap,
      optOutSender:
        channel === 'sms' ? sendersOf(deps.config).marketing : senderFor(deps.config, channel),
    };
  }

  /** How many would wait for 8 am, when quiet hours are on, and until when. */
  function waitingFor(
    numbers: string[],
    sendAt: number | null,
  ): Promise<{ count: number; until: number | null }> {
    if (!deps.config.quietHours) return Promise.resolve({ count: 0, until: null });
    return quietHoursWait(db, numbers, sendAt ?? deps.now(), deps.config.productTimeZone);
  }

  /** Whether a new send of this size would wait for another admin, and why. */
  async function approvalOf(channel: Channel, recipients: number) {
    const reason = approvalReasonFor(channel, recipients, await approvalRules(db, deps.config));
    return reason === null ? {} : { approval: reason };
  }

  /**
   * An admin's SMS is marketing: its addresses go as tracked short links, and it is measured (the
   * segments permission, segments, cost) as recipients will read it.
   */
  function asRead(message: string): string {
    return withSampleLinks(message, linkBaseUrl(deps.config));
  }

  function segmentsOf(payload: SendPayload): number {
    return 'message' in payload ? segmentSms(asRead(payload.message)).segments : 1;
  }

  /** Estimated provider cost in US dollars of `queued` messages of this content. */
  function costOf(payload: SendPayload, queued: number): number {
    const cost =
      'message' in payload
        ? queued * segmentSms(asRead(payload.message)).segments * prices.smsSegment
        : queued * prices.whatsappMessage;
    return Math.round(cost * 10_000) / 10_000;
  }

  function composeFor(payload: SendPayload, numbers: SortedNumbers): Promise<ComposedSend> {
    return 'message' in payload
      ? Promise.resolve(composeSms(numbers, payload.message, linkBaseUrl(deps.config)))
      : composeWhatsapp(db, numbers, payload.msgTemplate, deps.config.productTimeZone);
  }

  /**
   * What a send (or its preview) under `key` would do, checked in the send's order: who may
   * receive it, whether the key names a job with other content, which numbers that job already has
   * (`earlier`), and the rest (`fresh`). A new job's schedule must be ahead; a job's own is kept.
   */
  async function planSend(principal: Principal, key: string | null, payload: SendPayload) {
    const zone = deps.config.productTimeZone;
    const localTime = payload.localTime === true;
    if (localTime && payload.sendAt === undefined) {
      throw invalid(
        'localTime',
        'give sendAt too, e.g. 2026-12-01T10:00 for 10:00 where each recipient is.',
      );
    }
    const content = sendContentOf(
      payload,
      sendAtInstant(payload.sendAt, zone, { local: localTime }),
      localTime,
    );
    const hash = contentHash(content);
    const sorted = sortNumbers(payload.numbers);
    authorizeRecipients(
      principal,
      sorted.valid,
      isOwner(principal) ? new Set() : await findPendingInvitees(db, sorted.valid),
    );
    const existing = key === null ? null : await findKeyedJob(db, principal.user.id, key);
    if (existing) refuseOtherContent(existing, key!, hash, content);
    const have = existing
      ? await findJobNumbers(db, existing.id, [...sorted.valid, ...sorted.invalid])
      : new Set<string>();
    const fresh: SortedNumbers = {
      valid: sorted.valid.filter((n) => !have.has(n)),
      invalid: sorted.invalid.filter((n) => !have.has(n)),
    };
    const now = Date.now();
    // At a wall-clock time in each recipient's zone: each has its own due time, the job starts at
    // the first of them. Judged by the gateway's clock, which tests move across a season change.
    const dues = localTime
      ? await localDues(db, fresh.valid, payload.sendAt!, zone, deps.now())
      : null;
    const sendAt = dues
      ? dues.first
      : existing
        ? content.sendAt !== null && content.sendAt > now
          ? content.sendAt
          : null
        : parseSendAt(payload.sendAt, now, zone);
    return {
      content,
      hash,
      existing,
      earlier: have.size,
      fresh,
      sendAt,
      dues: dues?.dues ?? null,
    };
  }

  async function queueSend(send: {
    principal: Principal;
    key: string;
    payload: SendPayload;
  }): Promise<SendAnswer> {
    const { principal, key, payload } = send;
    const plan = await planSend(principal, key, payload);
    const { fresh, sendAt } = plan;
    const answer = (
      jobId: string,
      added: { number: string; status: string }[],
      earlier: number,
      waiting: { count: number; until: number | null },
    ) => {
      const skipped = added.flatMap(({ number, status }) => {
        const reason = skipReasonOf(status as Parameters<typeof skipReasonOf>[0]);
        return reason ? [{ number, reason }] : [];
      });
      const queued = added.length - skipped.length;
      return jobAnswer(jobId, {
        queued,
        added: added.length,
        earlier,
        skipped,
        sendAt,
        waiting: { count: Math.min(waiting.count, queued), until: waiting.until },
        estimatedCost: costOf(payload, queued),
      });
    };
    if (plan.existing && fresh.valid.length + fresh.invalid.length === 0) {
      const body = answer(plan.existing.id, [], plan.earlier, { count: 0, until: null });
      return { status: 202, body, replayed: true };
    }
    const composed = await composeFor(payload, fresh);
    if (plan.dues) composed.recipients.due = plan.dues;
    const waiting = await waitingFor(fresh.valid, sendAt);
    const channel: Channel = plan.content.channel;
    const approval = plan.existing
      ? null
      : approvalReasonFor(channel, fresh.valid.length, await approvalRules(db, deps.config));
    const outcome = await createOrExtendSendJob(
      db,
      {
        id: randomUUID(),
        createdBy: principal.user.id,
        idempotencyKey: key,
        requestHash: plan.hash,
        content: plan.content,
        ...('message' in payload ? { links: findLinks(payload.message).map((l) => l.url) } : {}),
        channel,
        body: composed.body,
        template: composed.template,
        createdTs: Date.now(),
        sendAtTs: sendAt,
        sender: senderFor(deps.config, channel),
        quietHours: deps.config.quietHours,
      },
      composed.recipients,
      marketingRules(channel),
      (added) => answer('', added, 0, waiting),
      approval,
    );
    if (outcome.kind === 'other-content') {
      refuseOtherContent(outcome.existing, key, plan.hash, plan.content);
      throw new Error('a job with other content was not refused');
    }
    if (outcome.kind === 'cancelled') {
      throw new ApiError(
        409,
        'conflict',
        `Send job ${outcome.existing.id} under this Idempotency-Key was cancelled; use a new key for a new send.`,
        IDEMPOTENCY_HEADER,
      );
    }
    const asked = fresh.valid.length + fresh.invalid.length;
    const earlier = plan.earlier + (asked - outcome.added.length);
    const sent = answer(outcome.jobId, outcome.added, earlier, waiting);
    const body = outcome.held ? heldAnswer(sent) : sent;
    if (outcome.added.length > 0 && !outcome.held) deps.onQueued();
    // Asked once per send: recipients added later under its key join the same request.
    if (outcome.held && outcome.added.length > 0 && !plan.existing) {
      // The send is made whatever becomes of the alert: the Approvals page lists it either way.
      await alertApprovers(db, deps.enqueue, {
        jobId: outcome.jobId,
        requester: { id: principal.user.id, name: principal.user.name },
        recipients: sent.queued ?? 0,
        link: `${appBaseUrl(deps.config)}/admin/approvals`,
      }).catch((error: unknown) =>
        app.log.error({ err: error, jobId: outcome.jobId }, 'the approvers could not be alerted'),
      );
    }
    return { status: 202, body, replayed: outcome.added.length === 0 };
  }
}

type SendPayload = {
  numbers: { number: string }[];
  sendAt?: string | undefined;
  localTime?: boolean | undefined;
} & ({ message: string } | { msgTemplate: MsgTemplate });

/** A key names one job: other content under it is refused, saying what changed. */
function refuseOtherContent(
  existing: KeyedJob,
  key: string,
  hash: string,
  content: SendContent,
): void {
  if (existing.requestHash === hash) return;
  const changed = changedParts(existing.content, content);
  throw new ApiError(
    409,
    'idempotency_key_reused',
    `Idempotency-Key ${quote(key)} already names send job ${existing.id} with other content: ${changed.join(', ')} changed. Use a new key for a new send, or the same content to add recipients to it.`,
    IDEMPOTENCY_HEADER,
  );
}

interface SendAnswer {
  status: number;
  body: SendResult;
  replayed: boolean;
}

/** What the trail keeps of a send: its job, and how many were added, queued and skipped. */
function noteSent(request: FastifyRequest, channel: Channel, body: SendResult): void {
  noteAudit(request, {
    target: body.jobId ?? null,
    detail: {
      channel,
      added: body.added ?? 0,
      queued: body.queued ?? 0,
      skipped: body.skipped?.length ?? 0,
    },
  });
}

/** A held send's answer: nothing goes until another admin approves. */
function heldAnswer(answer: SendResult): SendResult {
  const queued = answer.queued ?? 0;
  return {
    ...answer,
    pendingApproval: true,
    message: `Waiting for approval: another admin with the approval permission must approve this send to ${queued} ${queued === 1 ? 'user' : 'users'} before anything goes.`,
  };
}

/** Answers once: the handler returns the body, never a reply that was already sent. */
function answerWith(reply: FastifyReply, answer: SendAnswer): SendResult {
  if (answer.replayed) reply.header(REPLAYED_HEADER, 'true');
  reply.status(answer.status);
  return answer.body;
}

/** Hides the digits of a one-time code ("… code is 123456") and keeps the rest of the text. */
function maskCodes(body: string): string {
  return body.replace(
    /(\bcode\b[^0-9]{0,20})(\d{4,8})\b/gi,
    (_m, lead: string, digits: string) => `${lead}${'•'.repeat(digits.length)}`,
  );
}
