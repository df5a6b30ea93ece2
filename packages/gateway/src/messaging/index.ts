// Messaging: send jobs and their HTTP endpoints, the worker that delivers them and the provider it
// delivers through (the outbox by default, or Twilio).
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { type GatewayConfig, linkBaseUrl } from '../config.js';
import type { Db } from '../storage/db.js';
import { registerApprovalRoutes } from './approval-routes.js';
import { createEnqueue, type Enqueue } from './enqueue.js';
import { registerLinkRoute } from './link-routes.js';
import { createMessagingMetrics, NO_MESSAGING_METRICS } from './metrics.js';
import { alertOwners } from './owner-alerts.js';
import { createProvider, senderFor, senderRate, sendersOf } from './providers/index.js';
import type { OutgoingMessage } from './providers/types.js';
import { registerMessagingRoutes } from './routes.js';
import { registerSendResultsRoute } from './send-results-routes.js';
import { registerTestSendRoute } from './test-send-routes.js';
import { createSendWorker } from './worker.js';

export interface Messaging {
  /** The send endpoints, the template list, the sandbox outbox and the inbound (STOP) webhook. */
  registerRoutes(app: FastifyInstance): void;
  /**
   * Queues a message from gateway code (an invitation, an alert) through the send pipeline: paced,
   * held for quiet hours, skipped for opt-outs, reported like any job; once per (createdBy, key).
   */
  enqueue: Enqueue;
  /** Delivers one message at once through the configured provider (confirmation codes). */
  deliverNow(message: {
    channel: 'sms' | 'whatsapp';
    to: string;
    body: string;
    from?: string;
  }): Promise<void>;
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
  /** The clock quiet hours are judged by; tests move it. */
  now?: () => number;
  /** How often a sender paused for refused credentials tries again (default 30 s); tests shorten it. */
  pauseProbeMs?: number;
  /** Where the queue's and the deliveries' metrics go; unset, none are kept. */
  metrics?: Registry;
}): Messaging {
  const { db, config, log } = deps;
  const metrics = deps.metrics ? createMessagingMetrics(deps.metrics, db) : NO_MESSAGING_METRICS;
  const now = deps.now ?? Date.now;
  const provider = createProvider(config);
  const rateFor = (sender: string) => senderRate(config, sender);
  // About 200 ms of the fastest sender's pace per batch, so reserved slots stay near each other.
  const rates = (['sms', 'whatsapp'] as const).map((c) => rateFor(senderFor(config, c)));
  const batchLimit = rates.includes(0)
    ? undefined
    : Math.max(1, Math.floor(Math.max(...rates) / 5));
  const worker = createSendWorker({
    db,
    provider,
    log,
    rateFor,
    productTimeZone: config.productTimeZone,
    marketingShare: config.marketingPacePercent / 100,
    marketingSender: sendersOf(config).marketing,
    marketingRules: { consent: config.marketingConsent, weeklyCap: config.marketingWeeklyCap },
    linkBase: linkBaseUrl(config),
    ...(deps.pauseProbeMs === undefined ? {} : { pauseProbeMs: deps.pauseProbeMs }),
    // The owners are texted (owner-alerts.ts) and the operator gets a log line.
    onSenderPaused: (sender, reason) => {
      log.error(
        { sender, reason, alert: 'owner' },
        `${provider.name} refused our credentials: sends from ${sender} are paused, nothing is lost; they resume once a message goes through. Check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN.`,
      );
      tellOwners('senderPaused', sender);
    },
    onSenderResumed: (sender) => {
      log.warn(
        { sender, alert: 'owner' },
        `${provider.name} accepts our credentials again: sends from ${sender} resumed`,
      );
      tellOwners('senderResumed', sender);
    },
    now,
    metrics,
    ...(batchLimit === undefined ? {} : { batchLimit }),
    ...(deps.retryBaseMs === undefined ? {} : { retryBaseMs: deps.retryBaseMs }),
  });

  const enqueue = createEnqueue({ db, config, now, onQueued: () => worker.wake() });

  function tellOwners(event: 'senderPaused' | 'senderResumed', sender: string): void {
    alertOwners(db, enqueue, event, sender, Date.now()).catch((error: unknown) =>
      log.error({ err: error, sender }, 'the owners could not be alerted about a sender'),
    );
  }

  async function deliverNow(message: OutgoingMessage): Promise<void> {
    if (provider.kind === 'database') {
      await provider.deliverBatch(db, [message]);
      return;
    }
    const outcome = await provider.send(message);
    if (outcome.kind !== 'sent') {
      throw new Error(`Could not deliver the message through ${provider.name}: ${outcome.error}`);
    }
  }

  return {
    registerRoutes(app) {
      registerApprovalRoutes(app, { db, config, now, onApproved: () => worker.wake() });
      registerTestSendRoute(app, { db, config, deliver: deliverNow });
      registerSendResultsRoute(app, { db, config, now });
      registerLinkRoute(app, { db, now });
      registerMessagingRoutes(app, {
        db,
        config,
        now,
        onQueued: () => worker.wake(),
        metrics,
        enqueue,
        reply: async (to, body, from) => {
          try {
            const sender = from === undefined || from === senderFor(config, 'sms') ? {} : { from };
            await deliverNow({ channel: 'sms', to, body, ...sender });
          } catch (error) {
            log.warn({ err: error }, 'a keyword answer could not be sent');
          }
        },
      });
    },
    enqueue,
    async deliverNow(message) {
      await deliverNow(message);
    },
    start: () => worker.start(),
    stop: () => worker.stop(),
  };
}
