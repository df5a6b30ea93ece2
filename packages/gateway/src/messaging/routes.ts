// The messaging endpoints: the two sends (sendsms, sendWhatsapp), the template list, job progress, the
// sandbox outbox and Twilio's inbound webhook for STOP replies.
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
import { conflict, forbidden, invalid, notFound, quote } from '../http/errors.js';
import {
  IDEMPOTENCY_HEADER,
  idempotentHeadersSchema,
  REPLAYED_HEADER,
} from '../http/idempotency.js';
import { parseInput } from '../http/input.js';
import type { Db } from '../storage/db.js';
import { optIn, optOut } from '../storage/opt-outs.js';
import { readOutbox } from '../storage/outbox.js';
import { findPendingInvitees } from '../storage/pending-invitees.js';
import {
  createSendJob,
  findJobByIdempotencyKey,
  readJobProgress,
  type StoredAnswer,
} from '../storage/send-jobs.js';
import { findTemplate, listTemplates } from '../storage/templates.js';
import { replyIntent } from './inbound.js';
import { renderTemplate } from './render-template.js';
import {
  authorizeRecipients,
  authorizeSendKind,
  fingerprintRequest,
  normaliseRecipients,
  sendAnswer,
} from './send-request.js';
import { verifyWebhookSignature, webhookUrl } from './webhook-signature.js';

export interface RouteDeps {
  db: Db;
  config: GatewayConfig;
  /** Tells the worker a job was just queued. */
  onQueued: () => void;
}

const outboxQuerySchema = z.strictObject({
  to: z.string().min(1).max(MAX_PHONE_LENGTH).optional(),
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

const jobParamsSchema = z.strictObject({ id: z.string().min(1).max(100) });

const inboundSchema = z.looseObject({ From: z.string().min(1), Body: z.string() });

const TWIML_EMPTY = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

export function registerMessagingRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { db } = deps;

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
      const answer = await queueSend({
        principal,
        key: request.headers[IDEMPOTENCY_HEADER],
        channel: 'sms',
        fingerprint: fingerprintRequest('sms', payload),
        recipients: normaliseRecipients(payload.numbers),
        body: payload.message,
        template: null,
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
      const key = request.headers[IDEMPOTENCY_HEADER];
      const recipients = normaliseRecipients(payload.numbers);
      const fingerprint = fingerprintRequest('whatsapp', payload);
      const earlier = await findReplay(principal.user.id, key, fingerprint);
      if (earlier) return answerWith(reply, earlier);
      const { name, language } = payload.msgTemplate;
      const template = await findTemplate(db, name, language);
      if (!template) {
        throw invalid(
          'msgTemplate',
          `no WhatsApp template named ${quote(name)} in language ${quote(language)}; GET /api/flex/v1/admin/sendWhatsapp lists them.`,
        );
      }
      // The stored template is the one approved for sending; its text is what recipients read.
      const answer = await queueSend({
        principal,
        key,
        channel: 'whatsapp',
        fingerprint,
        recipients,
        body: renderTemplate(template.components),
        template,
      });
      return answerWith(reply, answer);
    },
  );

  api.get(
    '/api/flex/v1/admin/sendWhatsapp',
    { config: { auth: 'billing' }, schema: { response: { 200: templatesResponseSchema } } },
    async () => ({ Items: await listTemplates(db) }),
  );

  api.get(
    '/api/flex/v1/admin/send-jobs/:id',
    { config: { auth: 'admin' }, schema: { params: jobParamsSchema } },
    async (request) => {
      const { id } = request.params;
      const progress = await readJobProgress(db, id);
      if (!progress) throw notFound(`No send job ${quote(id)}.`);
      return progress;
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
        const params = (request.body ?? {}) as Record<string, string>;
        const signed = verifyWebhookSignature({
          provider: deps.config.messageProvider,
          url: webhookUrl(request, deps.config),
          params,
          headers: request.headers,
          config: deps.config,
        });
        if (!signed) {
          throw forbidden(
            `${deps.config.messageProvider === 'twilio' ? 'X-Twilio-Signature' : 'X-BlockCatch-Signature'} is missing or does not match this request.`,
          );
        }
        const inbound = parseInput(inboundSchema, params, 'form');
        const from = normalizePhone(inbound.From.replace(/^whatsapp:/, ''));
        const intent = replyIntent(inbound.Body);
        if (from && intent === 'opt-out') await optOut(db, from);
        if (from && intent === 'opt-in') await optIn(db, from);
        if (!from && intent) {
          request.log.warn('inbound opt-out/in from a number outside the US plan was ignored');
        }
        return reply.type('text/xml').send(TWIML_EMPTY);
      },
    );
  });

  /** The stored answer to an earlier request under this key, or null; a different request is a 409. */
  async function findReplay(userId: string, key: string, fingerprint: string) {
    const previous = await findJobByIdempotencyKey(db, userId, key);
    return previous ? replayOf(previous, fingerprint) : null;
  }

  async function queueSend(send: {
    principal: Principal;
    key: string;
    channel: Channel;
    fingerprint: string;
    recipients: string[];
    body: string;
    template: unknown;
  }): Promise<SendAnswer> {
    const earlier = await findReplay(send.principal.user.id, send.key, send.fingerprint);
    if (earlier) return earlier;
    authorizeRecipients(
      send.principal,
      send.recipients,
      isOwner(send.principal) ? new Set() : await findPendingInvitees(db, send.recipients),
    );
    const jobId = randomUUID();
    const result = await createSendJob(
      db,
      {
        id: jobId,
        createdBy: send.principal.user.id,
        idempotencyKey: send.key,
        requestHash: send.fingerprint,
        channel: send.channel,
        body: send.body,
        template: send.template,
        createdTs: Date.now(),
      },
      send.recipients,
      (optedOut) => ({
        status: 202,
        body: sendAnswer(
          jobId,
          send.recipients.length - optedOut.length,
          optedOut.map((number) => ({ number, reason: 'opted-out' as const })),
        ),
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
