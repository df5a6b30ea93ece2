// What an operator watches of the messages (docs/operations.md, "Metrics"): how many wait per class,
// how long a message waits between being queued and going to its provider, and what became of it.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Queryable } from '../storage/db.js';
import {
  countWaitingByClass,
  MESSAGE_CLASSES,
  type MessageClass,
  type RecipientStatus,
} from '../storage/send-jobs.js';

export interface MessagingMetrics {
  /** A message went to its provider `waitedMs` after its job was queued. */
  handed(messageClass: MessageClass, waitedMs: number): void;
  /** A message's state after its provider answered, or after it was skipped or expired. */
  outcome(status: RecipientStatus | 'delivered' | 'undelivered'): void;
}

export function createMessagingMetrics(registry: Registry, db: Queryable): MessagingMetrics {
  new Gauge({
    name: 'blockcatch_messages_waiting',
    help: 'Messages queued or sent and not yet answered by the provider, by class.',
    labelNames: ['class'],
    registers: [registry],
    // Counted when scraped: one grouped read, so every process reports the whole queue.
    async collect() {
      const waiting = await countWaitingByClass(db);
      for (const messageClass of MESSAGE_CLASSES) {
        this.set({ class: messageClass }, waiting.get(messageClass) ?? 0);
      }
    },
  });
  const queuedToProvider = new Histogram({
    name: 'blockcatch_message_queued_to_provider_seconds',
    help: 'Time from a job being queued to each of its messages going to the provider, by class.',
    labelNames: ['class'],
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 12 * 3600],
    registers: [registry],
  });
  const outcomes = new Counter({
    name: 'blockcatch_message_outcomes_total',
    help: "Messages by what became of them: the provider's answer (sent, failed, skipped-…), a later delivery report (delivered, undelivered) or expired.",
    labelNames: ['outcome'],
    registers: [registry],
  });
  return {
    handed(messageClass, waitedMs) {
      queuedToProvider.observe({ class: messageClass }, Math.max(0, waitedMs) / 1000);
    },
    outcome(status) {
      outcomes.inc({ outcome: status });
    },
  };
}

/** For a gateway whose metrics are not kept. */
export const NO_MESSAGING_METRICS: MessagingMetrics = { handed() {}, outcome() {} };
