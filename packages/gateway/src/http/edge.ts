// The edge every request crosses before its route: security headers (@fastify/helmet, a strict
// Content-Security-Policy), CORS for the configured origins only (@fastify/cors), and rate limits
// (@fastify/rate-limit) counted where every process of a deployment sees them: Redis when
// REDIS_URL is set, PostgreSQL when the gateway runs on it, memory for the embedded PGlite (one
// process). A route declares its own limit with `config: { rateLimit: { max, timeWindow } }`.
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { GatewayConfig } from '../config.js';
import type { Queryable } from '../storage/db.js';
import { hitCounter } from '../storage/security-counters.js';
import { isWebAppRequest } from '../web.js';
import { ApiError } from './errors.js';

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
  deps: { db: Queryable; config: GatewayConfig },
): Promise<{ close(): Promise<void> }> {
  const { db, config } = deps;

  // @fastify/cors answers preflights on its own `OPTIONS *` route: open to anyone by design.
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' && route.url === '*') {
      route.config = { ...route.config, auth: route.config?.auth ?? 'public' };
    }
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        // React sets style attributes; no script can run from them.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...config.corsOrigins],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // HSTS only where the deployment is reached over HTTPS; on plain http it would mean nothing.
    strictTransportSecurity: config.publicUrl?.startsWith('https://')
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
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

  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1 })
    : null;
  await app.register(rateLimit, {
    global: true,
    // The web app's files cost no query; counting them would cost one each on PostgreSQL.
    allowList: (request) => isWebAppRequest(request),
    max: config.rateLimit.perMinute,
    timeWindow: 60_000,
    ...(redis
      ? { redis, nameSpace: 'blockcatch-rate-limit:' }
      : config.databaseUrl
        ? { store: databaseStore(db) }
        : {}),
    errorResponseBuilder: (_request, context) =>
      new ApiError(
        429,
        'rate_limited',
        `Too many requests; try again in ${Math.ceil(context.ttl / 1000)} s.`,
      ),
  });

  return {
    async close() {
      if (redis) await redis.quit();
    },
  };
}

/** @fastify/rate-limit's store over the shared `security_counters` table (PostgreSQL). */
function databaseStore(db: Queryable) {
  return class DatabaseStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    // The plugin constructs the store with its options; a route's child passes its own prefix.
    constructor(_options?: unknown, prefix = 'http:') {
      this.prefix = prefix;
    }
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = Date.now();
      hitCounter(db, `${this.prefix}${key}`, timeWindow, now).then(
        ({ count, windowEnd }) => callback(null, { current: count, ttl: windowEnd - now }),
        (error: Error) => callback(error),
      );
    }
    child(routeOptions: { path: string; method: string | string[] }): FastifyRateLimitStore {
      return new DatabaseStore(
        undefined,
        `http:${[routeOptions.method].flat().join(',')}:${routeOptions.path}:`,
      );
    }
  };
}
