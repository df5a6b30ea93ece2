// The edge every request crosses before its route: CORS for the configured origins only
// (@fastify/cors), and rate limits (@fastify/rate-limit) counted in the process and shared in
// batches where every process of a deployment sees them: Redis when REDIS_URL is set, PostgreSQL
// when the gateway runs on it, nowhere for the embedded PGlite (one process). See
// http/shared-request-counts.ts for the overshoot. A route declares its own limit with
// `config: { rateLimit: { max, timeWindow } }`. The security headers come before it, in
// http/security-headers.ts.

import cors from '@fastify/cors';
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config.js';
import type { Queryable } from '../storage/db.js';
import { addToCounters } from '../storage/security-counters.js';
import { isWebAppRequest } from '../web.js';
import { ApiError } from './errors.js';
import type { Metrics } from './metrics.js';
import { redisCounters } from './redis-counters.js';
import {
  createRequestCounts,
  type RequestCounts,
  type SharedCounters,
} from './shared-request-counts.js';

/** Headers the clients read from answers: the health check's version and CDN ids. */
export const EXPOSED_HEADERS = ['x-amz-version-id', 'x-amz-cf-id'];

const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'idempotency-key',
  // amazon-cognito-identity-js sends these to the user-pool endpoint.
  'x-amz-target',
  'x-amz-user-agent',
  'cache-control',
];

export async function registerEdge(
  app: FastifyInstance,
  deps: { db: Queryable; config: GatewayConfig; metrics: Metrics },
): Promise<{ close(): Promise<void> }> {
  const { db, config } = deps;

  // @fastify/cors answers preflights on its own `OPTIONS *` route: open to anyone by design.
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' && route.url === '*') {
      route.config = { ...route.config, auth: route.config?.auth ?? 'public' };
    }
  });

  const allowed = new Set(config.corsOrigins.map((origin) => new URL(origin).origin));
  await app.register(cors, {
    // Exactly the listed origins: never a reflected origin, never `null`.
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });

  const redis = config.redisUrl ? redisCounters(config.redisUrl) : null;
  // Redis is optional at start too: without an answer within a second the limit starts counted
  // here and moves to Redis once it connects.
  await redis?.connected(1000);
  const shared = redis ?? (config.databaseUrl ? databaseCounters(db) : null);
  const counts = createRequestCounts({
    shared,
    shareMs: config.rateLimit.shareMs,
    log: app.log,
    metrics: deps.metrics,
  });
  await app.register(rateLimit, {
    global: true,
    // The web app's files are not counted: they are cheap and a page load asks for many.
    allowList: (request) => isWebAppRequest(request),
    max: config.rateLimit.perMinute,
    timeWindow: 60_000,
    store: countingStore(counts),
    errorResponseBuilder: (_request, context) =>
      new ApiError(
        429,
        'rate_limited',
        `Too many requests; try again in ${Math.ceil(context.ttl / 1000)} s.`,
      ),
  });

  return {
    async close() {
      await counts.close();
      await redis?.close();
    },
  };
}

/** The shared store over the `security_counters` table (PostgreSQL without Redis). */
function databaseCounters(db: Queryable): SharedCounters {
  return { name: 'postgres', add: (hits, now) => addToCounters(db, hits, now) };
}

/** @fastify/rate-limit's store over the process's counts; each route with its own limit apart. */
function countingStore(counts: RequestCounts) {
  return class CountingStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    // The plugin constructs the store with its options; a route's child passes its own prefix.
    constructor(_options?: unknown, prefix = 'http:') {
      this.prefix = prefix;
    }
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void {
      counts.hit(`${this.prefix}${key}`, timeWindow, max).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }
    child(options: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The plugin passes its merged options with the route under `routeInfo`, whatever its types say.
      const route =
        (options as unknown as { routeInfo?: { method?: string | string[]; url?: string } })
          .routeInfo ?? {};
      return new CountingStore(undefined, `http:${[route.method].flat().join(',')}:${route.url}:`);
    }
  };
}
