// The messaging endpoints: the two sends and their review preview, the template list, send jobs
// (list, report, cancel), the sandbox outbox and the provider's webhooks (keyword replies,
// MessageStatus).
import { randomUUID } from 'node:crypto';
import {
  type Channel,
  MAX_PHONE_LENGTH,
  normalizePhone,
  type SendResult,
  sendResultSchema,
  smsSendPayloadSchema,
  templatesResponseSchema,
  whatsappSendPayloadSchema,
} from '@blockcatch/sdk';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isOwner, type Principal } from '../api/authenticate.js';
import type { GatewayConfig } from '../config.js';
import { ApiError, conflict, forbidden, invalid, notFound, quote } from '../http/errors.js';
import {
  IDEMPOTENCY_HEADER,
  idempotentHeadersSchema,
  REPLAYED_HEADER,
} from '../http/idempotency.js';
import { parseInput } from '../http/input.js';
import type { Db } from '../storage/db.js';
import { readOutbox } from '../storage/outbox.js';
import { findPendingInvitees } from '../storage/pending-invitees.js';
import {
  cancelJob,
  createSendJob,
  findJobByIdempotencyKey,
  listJobs,
  readJobReport,
  type StoredAnswer,
} from '../storage/send-jobs.js';
import { listTemplates } from '../storage/templates.js';
import {
  type ComposedSend,
  composeSms,
  composeWhatsapp,
  countWaitingForQuietHours,
  parseSendAt,
  type SortedNumbers,
  sortNumbers,
} from './compose.js';
import { answerKeyword } from './inbound.js';
import { senderFor, sendersOf } from './providers/index.js';
import {
  authorizeRecipients,
  authorizeSendKind,
  fingerprintRequest,
  sendAnswer,
} from './send-request.js';
import { registerStatusCallback, requireSignedWebhook } from './status-callback.js';

export interface RouteDeps {
  db: Db;
  config: GatewayConfig;
  /** Tells the worker a job was just queued. */
  onQueued: () => void;
  /** Sends a keyword's answer (HELP, the opt-out confirmation) at once, from `from` if given. */
  reply: (to: string, body: string, from?: string) => Promise<void>;
  /** The time quiet hours are judged by (tests move it). */
  now: () => number;
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
});

const jobReportQuerySchema = z.strictObject({
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(0).max(10_000).optional(),
});

const previewSchema = z.discriminatedUnion('channel', [
  smsSendPayloadSchema.extend({ channel: z.literal('sms') }),
  whatsappSendPayloadSchema.extend({ channel: z.literal('whatsapp') }),
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
      config: { auth: 'admin' },
      schema: {
        headers: idempotentHeadersSchema,
        body: smsSendPayloadSchema,
        response: sendResponses,
      },
    },
    async (request, reply) => {
      const { principal, body: payload } = request;
      authorizeSendKind(principal, { channel: 'sms', message: payload.message });
      const sendAt = parseSendAt(payload.sendAt, Date.now(), deps.config.productTimeZone);
      const sorted = sortNumbers(payload.numbers);
      const answer = await queueSend({
        principal,
        key: request.headers[IDEMPOTENCY_HEADER],
        channel: 'sms',
        fingerprint: fingerprintRequest('sms', payload),
        sorted,
        sendAt,
        compose: async () => composeSms(sorted, payload.message),
      });
      return answerWith(reply, answer);
    },
  );

  api.post(
    '/api/flex/v1/admin/sendWhatsapp',
    {
      config: { auth: 'admin' },
      schema: {
        headers: idempotentHeadersSchema,
        body: whatsappSendPayloadSchema,
        response: sendResponses,
      },
    },
    async (request, reply) => {
      const { principal, body: payload } = request;
      authorizeSendKind(principal, { channel: 'whatsapp' });
      const sendAt = parseSendAt(payload.sendAt, Date.now(), deps.config.productTimeZone);
      const sorted = sortNumbers(payload.numbers);
      // The stored template is the one approved for sending; its text is what recipients read.
      const answer = await queueSend({
        principal,
        key: request.headers[IDEMPOTENCY_HEADER],
        channel: 'whatsapp',
        fingerprint: fingerprintRequest('whatsapp', payload),
        sorted,
        sendAt,
        compose: () =>
          composeWhatsapp(db, sorted, payload.msgTemplate, deps.config.productTimeZone),
      });
      return answerWith(reply, answer);
    },
  );

  // The review: what the first recipient will read, who will be skipped and why, who will wait.
  api.post(
    '/api/flex/v1/admin/send-preview',
    { config: { auth: 'admin' }, schema: { body: previewSchema } },
    async (request) => {
      const { principal, body: payload } = request;
      authorizeSendKind(
        principal,
        payload.channel === 'sms'
          ? { channel: 'sms', message: payload.message }
          : { channel: 'whatsapp' },
      );
      const sendAt = parseSendAt(payload.sendAt, Date.now(), deps.config.productTimeZone);
      const sorted = sortNumbers(payload.numbers);
      const composed =
        payload.channel === 'sms'
          ? composeSms(sorted, payload.message)
          : await composeWhatsapp(db, sorted, payload.msgTemplate, deps.config.productTimeZone);
      const skipped = [
        ...(await findSkipped(sorted.valid)),
        ...sorted.invalid.map((number) => ({ number, reason: 'invalid' as const })),
      ];
      const skippedNumbers = new Set(skipped.map((s) => s.number));
      const sendable = sorted.valid.filter((n) => !skippedNumbers.has(n));
      return {
        preview: composed.preview,
        queued: sendable.length,
        skipped,
        waitingForQuietHours: await waitingFor(sendable, sendAt),
        ...(sendAt === null ? {} : { sendAt }),
      };
    },
  );

  api.get(
    '/api/flex/v1/admin/send-jobs',
    { config: { auth: 'admin' }, schema: { querystring: jobListQuerySchema } },
    async (request) => ({ Items: await listJobs(db, prices, request.query) }),
  );

  api.post(
    '/api/flex/v1/admin/send-jobs/:id/cancel',
    { config: { auth: 'admin' }, schema: { params: jobParamsSchema } },
    async (request) => {
      const { id } = request.params;
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
      return readJobReport(db, id, prices, { limit: 0 });
    },
  );

  api.get(
    '/api/flex/v1/admin/sendWhatsapp',
    { config: { auth: 'billing' }, schema: { response: { 200: templatesResponseSchema } } },
    async () => ({ Items: await listTemplates(db) }),
  );

  api.get(
    '/api/flex/v1/admin/send-jobs/:id',
    {
      config: { auth: 'admin' },
      schema: { params: jobParamsSchema, querystring: jobReportQuerySchema },
    },
    async (request) => {
      const { id } = request.params;
      const { after, limit } = request.query;
      const report = await readJobReport(db, id, prices, {
        ...(after === undefined ? {} : { afterSeq: after }),
        ...(limit === undefined ? {} : { limit }),
      });
      if (!report) throw notFound(`No send job ${quote(id)}.`);
      return report;
    },
  );

  api.get(
    '/api/sandbox/outbox',
    { config: { auth: 'admin' }, schema: { querystring: outboxQuerySchema } },
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

  /** The stored answer to an earlier request under this key, or null; a different request is a 409. */
  async function findReplay(userId: string, key: string, fingerprint: string) {
    const previous = await findJobByIdempotencyKey(db, userId, key);
    return previous ? replayOf(previous, fingerprint) : null;
  }

  /** Numbers a send would skip: opted out, or known landlines and unknown numbers. */
  async function findSkipped(
    numbers: string[],
  ): Promise<{ number: string; reason: 'opted-out' | 'landline' | 'invalid' }[]> {
    if (numbers.length === 0) return [];
    return db.query<{ number: string; reason: 'opted-out' | 'landline' | 'invalid' }>(
      `SELECT t.p AS number,
              CASE WHEN o.phone_number IS NOT NULL THEN 'opted-out' ELSE u.reason END AS reason
       FROM unnest($1::text[]) WITH ORDINALITY AS t(p, seq)
       LEFT JOIN opt_outs o ON o.phone_number = t.p
       LEFT JOIN undeliverable_numbers u ON u.phone_number = t.p
       WHERE o.phone_number IS NOT NULL OR u.phone_number IS NOT NULL
       ORDER BY t.seq`,
      [numbers],
    );
  }

  /** How many would wait for 8 am, when quiet hours are on. */
  function waitingFor(numbers: string[], sendAt: number | null): Promise<number> {
    if (!deps.config.quietHours) return Promise.resolve(0);
    return countWaitingForQuietHours(
      db,
      numbers,
      sendAt ?? deps.now(),
      deps.config.productTimeZone,
    );
  }

  async function queueSend(send: {
    principal: Principal;
    key: string;
    channel: Channel;
    fingerprint: string;
    sorted: SortedNumbers;
    sendAt: number | null;
    compose: () => Promise<ComposedSend>;
  }): Promise<SendAnswer> {
    const earlier = await findReplay(send.principal.user.id, send.key, send.fingerprint);
    if (earlier) return earlier;
    const { valid } = send.sorted;
    authorizeRecipients(
      send.principal,
      valid,
      isOwner(send.principal) ? new Set() : await findPendingInvitees(db, valid),
    );
    const composed = await send.compose();
    const waiting = await waitingFor(valid, send.sendAt);
    const jobId = randomUUID();
    const total = composed.recipients.to.length;
    const result = await createSendJob(
      db,
      {
        id: jobId,
        createdBy: send.principal.user.id,
        idempotencyKey: send.key,
        requestHash: send.fingerprint,
        channel: send.channel,
        body: composed.body,
        template: composed.template,
        createdTs: Date.now(),
        sendAtTs: send.sendAt,
        sender: senderFor(deps.config, send.channel),
        quietHours: deps.config.quietHours,
      },
      composed.recipients,
      (skipped) => ({
        status: 202,
        body: sendAnswer(jobId, total - skipped.length, skipped, {
          sendAt: send.sendAt,
          waitingForQuietHours: Math.min(waiting, total - skipped.length),
        }),
      }),
    );
    // A concurrent request with the same key created the job first: this one is its replay.
    if (!result.created) return replayOf(result.existing, send.fingerprint);
    deps.onQueued();
    return { status: result.status, body: result.body as SendResult, replayed: false };
  }
}

interface SendAnswer {
  status: number;
  body: SendResult;
  replayed: boolean;
}

/** Answers once: the handler returns the body, never a reply that was already sent. */
function answerWith(reply: FastifyReply, answer: SendAnswer): SendResult {
  if (answer.replayed) reply.header(REPLAYED_HEADER, 'true');
  reply.status(answer.status);
  return answer.body;
}

function replayOf(previous: StoredAnswer, fingerprint: string): SendAnswer {
  if (previous.requestHash !== fingerprint) {
    throw conflict(
      'Idempotency-Key was already used for a different request; use a new key for a new send.',
      IDEMPOTENCY_HEADER,
    );
  }
  return {
    status: previous.responseStatus,
    body: previous.responseBody,
    replayed: true,
  };
}

/** Hides the digits of a one-time code ("… code is 123456") and keeps the rest of the text. */
export function maskCodes(body: string): string {
  return body.replace(
    /(\bcode\b[^0-9]{0,20})(\d{4,8})\b/gi,
    (_m, lead: string, digits: string) => `${lead}${'•'.repeat(digits.length)}`,
  );
}
