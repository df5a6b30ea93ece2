// The gateway's Prometheus metrics: one registry per gateway that any part registers its counters
// and gauges into, served at `GET /metrics` only to a caller holding BLOCKCATCH_METRICS_TOKEN
// (docs/operations.md, "Metrics"); without the setting the route answers 404 like any unknown path.
import { timingSafeEqual } from 'node:crypto';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../storage/db.js';
import { notFound } from './errors.js';

export type Metrics = Registry;

export function createMetrics(): Metrics {
  return new Registry();
}

/**
 * The process's own figures and the requests it answers: every answer counted by route pattern
 * (never the raw path, so no caller can make up series) and status, and timed; the requests
 * waiting for the database and the connections they wait for; the event loop's delay; memory.
 * Install before the routes, so the hook applies to all of them.
 */
export function instrumentGateway(
  app: FastifyInstance,
  metrics: Metrics,
  db: Db & { queueDepth(): number },
): void {
  const registers = [metrics];
  const requests = new Counter({
    name: 'blockcatch_http_requests_total',
    help: 'Answers by method, route pattern (unmatched for paths with no route) and status.',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  const duration = new Histogram({
    name: 'blockcatch_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route pattern.',
    labelNames: ['route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.4, 1, 2.5, 5, 10],
    registers,
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: reply.statusCode });
    duration.observe({ route }, reply.elapsedTime / 1000);
    done();
  });
  new Gauge({
    name: 'blockcatch_db_requests_waiting',
    help: 'Requests waiting for or using the database now: past BLOCKCATCH_DB_QUEUE_LIMIT new ones get 503.',
    registers,
    collect() {
      this.set(db.queueDepth());
    },
  });
  new Gauge({
    name: 'blockcatch_db_pool_connections',
    help: "The database pool's connections by state (PGlite has one), and calls waiting for one.",
    labelNames: ['state'],
    registers,
    collect() {
      const stats = db.poolStats?.();
      if (!stats) return;
      this.set({ state: 'busy' }, stats.total - stats.idle);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'blockcatch_event_loop_delay_seconds',
    help: "The event loop's delay since the last scrape: p50, p99 and max.",
    labelNames: ['stat'],
    registers,
    collect() {
      const loop = eventLoopDelay();
      // Nothing measured yet (the first scrape starts the measure).
      if (loop.count === 0) return;
      this.set({ stat: 'p50' }, loop.percentile(50) / 1e9);
      this.set({ stat: 'p99' }, loop.percentile(99) / 1e9);
      this.set({ stat: 'max' }, loop.max / 1e9);
      loop.reset();
    },
  });
  new Gauge({
    name: 'blockcatch_process_memory_bytes',
    help: 'Memory of the process: resident set (rss), JavaScript heap in use (heap), outside the heap (external).',
    labelNames: ['kind'],
    registers,
    collect() {
      const memory = process.memoryUsage();
      this.set({ kind: 'rss' }, memory.rss);
      this.set({ kind: 'heap' }, memory.heapUsed);
      this.set({ kind: 'external' }, memory.external);
    },
  });
}

/** One measure for the process, started by the first scrape: each one costs a timer. */
let loopDelay: IntervalHistogram | null = null;
function eventLoopDelay(): IntervalHistogram {
  if (!loopDelay) {
    loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
  }
  return loopDelay;
}

export function registerMetricsRoute(
  app: FastifyInstance,
  metrics: Metrics,
  token: string | undefined,
): void {
  const expected = token === undefined ? null : Buffer.from(`Bearer ${token}`);
  app.get(
    '/metrics',
    // The bearer token is checked here, not by the auth hook: it is not a user's id token.
    { config: { auth: 'public', rateLimit: false } },
    async (request, reply) => {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw notFound(`No route for GET /metrics`);
      }
      reply.type(metrics.contentType);
      return metrics.metrics();
    },
  );
}
