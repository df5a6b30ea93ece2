// The request limit's counts (@fastify/rate-limit's store): kept in the process and shared with
// the other processes in batches, so a request costs no write. Each process sends the hits it
// admitted every `shareMs` (or at once when a key holds its batch) and reads back the shared total.
//
// Overshoot: a process never holds more than `batchOf(max)` admitted hits the shared store has not
// seen (the next request on that key waits for a share), so across N processes a limit admits at
// most N × batchOf(max) − 1 requests past `max` in a window (docs/operations.md, "The edge").
// A hit past the limit is refused without being counted, so an over-limit client costs nothing.
//
// When the shared store fails (Redis or the database unreachable) the request limit fails open
// to counting in this process alone: one warning a minute at most, a metric, and the hits kept
// to be shared when it answers again. A request is never refused because the store failed.
import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge } from 'prom-client';
import type { Metrics } from './metrics.js';

export interface SharedHits {
  key: string;
  by: number;
  windowMs: number;
}

/** Where the processes of a deployment add up their counts: Redis or the database. */
export interface SharedCounters {
  readonly name: 'redis' | 'postgres';
  /** Adds each key's hits to its current window, answering its total and end (epoch ms), in order. */
  add(hits: SharedHits[], now: number): Promise<{ count: number; windowEnd: number }[]>;
}

/** Hits a process may admit on a key before the shared store has seen them: 1% of the limit. */
function batchOf(max: number): number {
  return Math.max(1, Math.floor(max / 100));
}

/** How often a failing shared store is reported in the log. */
const WARN_EVERY_MS = 60_000;
/** Keys counted at most; ended windows go first, then the oldest. */
const MAX_KEYS = 100_000;

interface Count {
  key: string;
  windowMs: number;
  windowEnd: number;
  /** The shared total as last read, this process's shared hits included. */
  shared: number;
  /** Admitted here and not sent yet. */
  pending: number;
  /** In the share under way. */
  sending: number;
}

export interface RequestCountsOptions {
  /** Null: one process (embedded PGlite), counted here only and exactly. */
  shared: SharedCounters | null;
  /** How often admitted hits are sent to the shared store (setting `rateLimit.shareMs`). */
  shareMs: number;
  log: FastifyBaseLogger;
  metrics: Metrics;
  now?: () => number;
}

export interface RequestCounts {
  /** Counts one request on `key`; `current` past `max` means refuse it, `ttl` ms until the window ends. */
  hit(key: string, windowMs: number, max: number): Promise<{ current: number; ttl: number }>;
  /** Sends what is pending now and waits for it; later shares stop. */
  close(): Promise<void>;
}

export function createRequestCounts(options: RequestCountsOptions): RequestCounts {
  const { shared, shareMs, log } = options;
  const now = options.now ?? Date.now;
  const counts = new Map<string, Count>();
  const dirty = new Set<Count>();
  let timer: NodeJS.Timeout | null = null;
  let underway: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  let failing = false;
  let warnedAt = Number.NEGATIVE_INFINITY;
  let closed = false;

  const storeLabel = { store: shared?.name ?? 'process' };
  const failures = new Counter({
    name: 'blockcatch_rate_limit_share_failures_total',
    help: 'Shares of request counts the shared store (Redis or PostgreSQL) refused or did not answer.',
    labelNames: ['store'],
    registers: [options.metrics],
  });
  const sharedGauge = new Gauge({
    name: 'blockcatch_rate_limit_shared',
    help: '1 while request counts are shared through the store, 0 while counted in this process only.',
    labelNames: ['store'],
    registers: [options.metrics],
  });
  failures.inc(storeLabel, 0);
  sharedGauge.set(storeLabel, shared ? 1 : 0);

  function countFor(key: string, windowMs: number, at: number): Count {
    const found = counts.get(key);
    if (found && found.windowEnd > at) return found;
    if (found) counts.delete(key);
    else if (counts.size >= MAX_KEYS) makeRoom(at);
    const fresh = { key, windowMs, windowEnd: at + windowMs, shared: 0, pending: 0, sending: 0 };
    counts.set(key, fresh);
    return fresh;
  }

  function makeRoom(at: number): void {
    for (const count of counts.values()) {
      if (count.windowEnd <= at) counts.delete(count.key);
    }
    if (counts.size < MAX_KEYS) return;
    const oldest = counts.keys().next().value;
    if (oldest !== undefined) counts.delete(oldest);
  }

  function scheduleShare(): void {
    if (timer || closed || !shared) return;
    timer = setTimeout(() => {
      timer = null;
      void share();
    }, shareMs);
    timer.unref();
  }

  /** Resolves once a share that started after this call has ended. */
  function share(): Promise<void> {
    if (!underway) {
      underway = sendPending().finally(() => {
        underway = null;
        if (dirty.size > 0) scheduleShare();
      });
      return underway;
    }
    next ??= underway.then(() => {
      next = null;
      return share();
    });
    return next;
  }

  async function sendPending(): Promise<void> {
    if (!shared) return;
    const at = now();
    const batch: Count[] = [];
    for (const count of dirty) {
      dirty.delete(count);
      // A window that ended keeps no hits worth sending.
      if (count.windowEnd <= at) count.pending = 0;
      if (count.pending === 0) continue;
      count.sending = count.pending;
      count.pending = 0;
      batch.push(count);
    }
    if (batch.length === 0) return;
    try {
      const totals = await shared.add(
        batch.map(({ key, sending, windowMs }) => ({ key, by: sending, windowMs })),
        at,
      );
      batch.forEach((count, i) => {
        const total = totals[i]!;
        count.sending = 0;
        count.shared = total.count;
        count.windowEnd = total.windowEnd;
      });
      if (failing) {
        failing = false;
        sharedGauge.set(storeLabel, 1);
        log.info({ store: shared.name }, 'request limit counted through the shared store again');
      }
    } catch (error) {
      for (const count of batch) {
        count.pending += count.sending;
        count.sending = 0;
        dirty.add(count);
      }
      failures.inc(storeLabel);
      if (!failing) {
        failing = true;
        sharedGauge.set(storeLabel, 0);
      }
      if (at - warnedAt >= WARN_EVERY_MS) {
        warnedAt = at;
        log.warn(
          { store: shared.name, reason: (error as Error).message.slice(0, 200) },
          'request limit store unreachable: counting in this process until it answers',
        );
      }
    }
  }

  async function hit(
    key: string,
    windowMs: number,
    max: number,
  ): Promise<{ current: number; ttl: number }> {
    for (;;) {
      const at = now();
      const count = countFor(key, windowMs, at);
      const known = count.shared + count.pending + count.sending;
      if (known >= max) return { current: known + 1, ttl: count.windowEnd - at };
      if (shared && !failing && !closed && count.pending + count.sending >= batchOf(max)) {
        await share();
        continue;
      }
      count.pending++;
      if (shared) {
        dirty.add(count);
        scheduleShare();
      }
      return { current: known + 1, ttl: count.windowEnd - at };
    }
  }

  return {
    hit,
    async close() {
      if (timer) clearTimeout(timer);
      timer = null;
      await share();
      closed = true;
    },
  };
}
