// Twilio's MessageStatus callbacks: each updates the recipient the message was sent to (queued,
// sent, delivered, undelivered, failed) with the provider's error code, only ever forward: a final
// state stays, and a replayed callback changes nothing (storage/send-jobs.ts). Signed like every
// provider webhook (webhook-signature.ts): an unsigned or forged callback gets 403, changes nothing.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GatewayConfig } from '../config.js';
import { forbidden, invalid } from '../http/errors.js';
import type { Db } from '../storage/db.js';
import { applyDeliveryStatus } from '../storage/send-jobs.js';
import type { MessagingMetrics } from './metrics.js';
import { verifyWebhookSignature, webhookUrl } from './webhook-signature.js';

const statusSchema = z.looseObject({
  MessageSid: z
    .string()
    .max(64, { abort: true })
    .regex(/^(SM|MM)[0-9A-Za-z]{1,62}$/),
  MessageStatus: z.string().min(1).max(40),
  ErrorCode: z
    .string()
    .max(6, { abort: true })
    .regex(/^\d{1,6}$/)
    .optional(),
});

/** Twilio's statuses that a recipient row records; accepted, scheduled and the like are ignored. */
const RECORDED = new Set(['queued', 'sent', 'delivered', 'undelivered', 'failed']);

/** The form parameters of a webhook its provider signed; 403 when the signature is missing or wrong. */
export function requireSignedWebhook(
  request: FastifyRequest,
  config: GatewayConfig,
): Record<string, string> {
  const params = (request.body ?? {}) as Record<string, string>;
  const signed = verifyWebhookSignature({
    provider: config.messageProvider,
    url: webhookUrl(request, config),
    params,
    headers: request.headers,
    config,
  });
  if (!signed) {
    throw forbidden(
      `${config.messageProvider === 'twilio' ? 'X-Twilio-Signature' : 'X-BlockCatch-Signature'} is missing or does not match this request.`,
    );
  }
  return params;
}

export function registerStatusCallback(
  scope: FastifyInstance,
  deps: { db: Db; config: GatewayConfig; metrics: MessagingMetrics },
): void {
  // Public: the provider signs its requests, checked first.
  scope.post(
    '/api/webhooks/twilio/status',
    { config: { auth: 'public' } },
    async (request, reply) => {
      const params = requireSignedWebhook(request, deps.config);
      const parsed = statusSchema.safeParse(params);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw invalid(issue.path.join('.') || 'form', issue.message);
      }
      const status = parsed.data.MessageStatus.toLowerCase();
      if (RECORDED.has(status)) {
        const found = await applyDeliveryStatus(deps.db, {
          providerSid: parsed.data.MessageSid,
          status: status as 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed',
          errorCode: parsed.data.ErrorCode === undefined ? null : Number(parsed.data.ErrorCode),
          now: Date.now(),
        });
        if (!found) request.log.info('a status callback named a message no recipient was sent as');
        else if (status === 'delivered' || status === 'undelivered' || status === 'failed') {
          deps.metrics.outcome(status);
        }
      }
      // Twilio retries only on errors; an unknown message is acknowledged so it stops.
      return reply.status(204).send();
    },
  );
}
