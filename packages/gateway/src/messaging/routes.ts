// The messaging endpoints: the two sends (sendsms, sendWhatsapp), the template list, job progress, the
// sandbox outbox and Twilio's inbound webhook for STOP replies.
import { randomUUID } from 'node:crypto';
import {
  type Channel,
  normalizePhone,
  smsSendPayloadSchema,
  whatsappSendPayloadSchema,
} from '@blockcatch/sdk';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { isOwner, type Principal } from '../api/authenticate.js';
import type { GatewayConfig } from '../config.js';
import { conflict, forbidden, invalid, notFound, quote } from '../http/errors.js';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from '../http/idempotency.js';
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
  to: z.string().min(1).optional(),
  after: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

const jobParamsSchema = z.object({ id: z.string().min(1).max(100) });

const inboundSchema = z.looseObject({ From: z.string().min(1), Body: z.string() });

const TWIML_EMPTY = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

export function registerMessagingRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { db } = deps;

  app.post('/api/flex/v1/admin/sendsms', { config: { auth: 'admin' } }, async (request, reply) => {
    const principal = request.principal;
    const key = parseIdempotencyKey(request.headers[IDEMPOTENCY_HEADER]);
    const payload = parseInput(smsSendPayloadSchema, request.body, 'body');
    authorizeSendKind(principal, { channel: 'sms', message: payload.message });
    const recipients = normaliseRecipients(payload.numbers);
    return queueSend(reply, {
      principal,
      key,
      channel: 'sms',
      fingerprint: fingerprintRequest('sms', payload),
      recipients,
      body: payload.message,
      template: null,
    });
  });

  app.post(
    '/api/flex/v1/admin/sendWhatsapp',
    { config: { auth: 'admin' } },
    async (request, reply) => {
      const principal = request.principal;
      authorizeSendKind(principal, { channel: 'whatsapp' });
      const key = parseIdempotencyKey(request.headers[IDEMPOTENCY_HEADER]);
      const payload = parseInput(whatsappSendPayloadSchema, request.body, 'body');
      const recipients = normaliseRecipients(payload.numbers);
      const fingerprint = fingerprintRequest('whatsapp', payload);
      const replayed = await replayIfSeen(reply, principal.user.id, key, fingerprint);
      if (replayed) return replayed;
      const { name, language } = payload.msgTemplate;
      const template = await findTemplate(db, name, language);
      if (!template) {
        throw invalid(
          'msgTemplate',
          `no WhatsApp template named ${quote(name)} in language ${quote(language)}; GET /api/flex/v1/admin/sendWhatsapp lists them.`,
        );
      }
      // The stored template is the one approved for sending; its text is what recipients read.
      return queueSend(reply, {
        principal,
        key,
        channel: 'whatsapp',
        fingerprint,
        recipients,
        body: renderTemplate(template.components),
        template,
      });
    },
  );

  app.get('/api/flex/v1/admin/sendWhatsapp', { config: { auth: 'billing' } }, async () => {
    return { Items: await listTemplates(db) };
  });

  app.get('/api/flex/v1/admin/send-jobs/:id', { config: { auth: 'admin' } }, async (request) => {
    const { id } = parseInput(jobParamsSchema, request.params, 'path');
    const progress = await readJobProgress(db, id);
    if (!progress) throw notFound(`No send job ${JSON.stringify(id)}.`);
    return progress;
  });

  app.get('/api/sandbox/outbox', { config: { auth: 'admin' } }, async (request) => {
    const query = parseInput(outboxQuerySchema, request.query, 'query');
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
  });

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

  async function replayIfSeen(
    reply: FastifyReply,
    userId: string,
    key: string,
    fingerprint: string,
  ): Promise<FastifyReply | null> {
    const previous = await findJobByIdempotencyKey(db, userId, key);
    return previous ? replay(reply, previous, fingerprint) : null;
  }

  async function queueSend(
    reply: FastifyReply,
    send: {
      principal: Principal;
      key: string;
      channel: Channel;
      fingerprint: string;
      recipients: string[];
      body: string;
      template: unknown;
    },
  ): Promise<FastifyReply> {
    const replayed = await replayIfSeen(reply, send.principal.user.id, send.key, send.fingerprint);
    if (replayed) return replayed;
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
    if (!result.created) return replay(reply, result.existing, send.fingerprint);
    deps.onQueued();
    return reply.status(result.status).send(result.body);
  }
}

function replay(reply: FastifyReply, previous: StoredAnswer, fingerprint: string): FastifyReply {
  if (previous.requestHash !== fingerprint) {
    throw conflict(
      'Idempotency-Key was already used for a different request; use a new key for a new send.',
      IDEMPOTENCY_HEADER,
    );
  }
  return reply.status(previous.responseStatus).send(previous.responseBody);
}

/** Hides the digits of a one-time code ("… code is 123456") and keeps the rest of the text. */
export function maskCodes(body: string): string {
  return body.replace(
    /(\bcode\b[^0-9]{0,20})(\d{4,8})\b/gi,
    (_m, lead: string, digits: string) => `${lead}${'•'.repeat(digits.length)}`,
  );
}
