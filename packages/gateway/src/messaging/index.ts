// Send jobs, the worker and message providers: placeholder until the messaging module lands.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Authenticate } from '../api/authenticate.js';
import type { GatewayConfig } from '../config.js';
import type { Db } from '../storage/db.js';

export interface Messaging {
  /** The send endpoints, the template list, the sandbox outbox and the inbound (STOP) webhook. */
  registerRoutes(app: FastifyInstance, authenticate: Authenticate): void;
  /** Delivers one message at once through the configured provider (confirmation codes). */
  deliverNow(message: { channel: 'sms' | 'whatsapp'; to: string; body: string }): Promise<void>;
  /** Starts the worker that delivers queued recipients. */
  start(): void;
  /** Stops the worker after the message in flight. */
  stop(): Promise<void>;
}

export function createMessaging(_deps: {
  db: Db;
  config: GatewayConfig;
  log: FastifyBaseLogger;
}): Messaging {
  throw new Error('messaging: not built yet');
}
