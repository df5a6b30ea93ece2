// The gateway's Prometheus metrics: one registry per gateway that any part registers its counters
// and gauges into, served at `GET /metrics` only to a caller holding BLOCKCATCH_METRICS_TOKEN
// (docs/operations.md, "Metrics"); without the setting the route answers 404 like any unknown path.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { notFound } from './errors.js';

export type Metrics = Registry;

export function createMetrics(): Metrics {
  return new Registry();
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
