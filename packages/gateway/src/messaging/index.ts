// Messaging: send jobs and their HTTP endpoints, the worker that delivers them and the provider it
// delivers through (the outbox by default, or Twilio).
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config.js';
import type { Db } from '../storage/db.js';
import { createProvider } from './providers/index.js';
import type { OutgoingMessage } from './providers/types.js';
import { registerMessagingRoutes } from './routes.js';
import { createSendWorker } from './worker.js';

export interface Messaging {
  /** The send endpoints, the template list, the sandbox outbox and the inbound (STOP) webhook. */
  registerRoutes(app: FastifyInstance): void;
  /** Delivers one message at once through the configured provider (confirmation codes). */
  deliverNow(message: { channel: 'sms' | 'whatsapp'; to: string; body: string }): Promise<void>;
  /** Starts the worker that delivers queued recipients. */
  start(): void;
  /** Stops the worker after the batch in flight. */
  stop(): Promise<void>;
}

export function createMessaging(deps: {
  db: Db;
  config: GatewayConfig;
  log: FastifyBaseLogger;
  /** First retry delay after a provider error (default 1 s); tests shorten it. */
  retryBaseMs?: number;
}): Messaging {
  const { db, config, log } = deps;
  const provider = createProvider(config);
  const worker = createSendWorker({
    db,
    provider,
    log,
    rate: config.sendRate,
    ...(deps.retryBaseMs === undefined ? {} : { retryBaseMs: deps.retryBaseMs }),
  });

  return {
    registerRoutes(app) {
      registerMessagingRoutes(app, { db, config, onQueued: () => worker.wake() });
    },
    async deliverNow(message) {
      const outgoing: OutgoingMessage = message;
      if (provider.kind === 'database') {
        await provider.deliverBatch(db, [outgoing]);
        return;
      }
      const outcome = await provider.send(outgoing);
      if (outcome.kind !== 'sent') {
        throw new Error(`Could not deliver the message through ${provider.name}: ${outcome.error}`);
      }
    },
    start: () => worker.start(),
    stop: () => worker.stop(),
  };
}
