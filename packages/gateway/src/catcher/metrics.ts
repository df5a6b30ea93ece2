// What an operator watches of the catcher (docs/operations.md, "Metrics"): how fast an accept
// leaves after an offer shows up, what became of the offers, and how many drivers this process polls.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { OfferRecord } from '../storage/driver-offers.js';

export interface CatcherMetrics {
  /** An offer was decided (and, when accepted, answered). */
  offer(record: OfferRecord): void;
}

export function createCatcherMetrics(
  registry: Registry,
  heldDrivers: () => number,
): CatcherMetrics {
  new Gauge({
    name: 'blockcatch_catcher_drivers',
    help: 'Drivers this process polls for offers now.',
    registers: [registry],
    collect() {
      this.set(heldDrivers());
    },
  });
  const reaction = new Histogram({
    name: 'blockcatch_catcher_reaction_seconds',
    help: 'Time from an offer (first seen in a poll answer, or published by the platform when it says) to its accept request leaving.',
    labelNames: ['from'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const offers = new Counter({
    name: 'blockcatch_catcher_offers_total',
    help: 'Offers decided, by outcome: won, gone (another driver took it first) or disliked.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return {
    offer(record) {
      offers.inc({ outcome: record.kind });
      if (record.acceptSentAt == null) return;
      reaction.observe({ from: 'seen' }, Math.max(0, record.acceptSentAt - record.seenAt) / 1000);
      if (record.publishedAt != null) {
        reaction.observe(
          { from: 'published' },
          Math.max(0, record.acceptSentAt - record.publishedAt) / 1000,
        );
      }
    },
  };
}
