// Counted limits for REST routes that text a code or check one (the delivery-platform sign-in):
// counted in the database, so every process shares them; past one, 429 `rate_limited` with
// Retry-After. Identity's Cognito routes count the same way (identity/limits.ts).
import type { FastifyReply } from 'fastify';
import type { Queryable } from '../storage/db.js';
import { hitCounter } from '../storage/security-counters.js';
import { ApiError } from './errors.js';

export interface CountedLimit {
  key: string;
  limit: number;
  windowMs: number;
}

/** Counts one use against every limit; past any, answers 429 with when to try again. */
export async function spendLimits(
  db: Queryable,
  reply: FastifyReply,
  limits: CountedLimit[],
  now: number,
): Promise<void> {
  for (const { key, limit, windowMs } of limits) {
    const { count, windowEnd } = await hitCounter(db, key, windowMs, now);
    if (count > limit) {
      reply.header('retry-after', String(Math.max(1, Math.ceil((windowEnd - now) / 1000))));
      throw new ApiError(429, 'rate_limited', 'Too many attempts; try again later.');
    }
  }
}

/** Gives back one use (a right code is not a wrong guess). */
export async function refundLimit(db: Queryable, key: string, windowMs: number, now: number) {
  await hitCounter(db, key, windowMs, now, -1);
}
