// When and how long to wait before repeating a request: exponential backoff with full jitter,
// `Retry-After` honoured, every wait capped, all within a total time budget. Pure: no clock, no timers.

/** The most any single wait may last: the identity service's back-off cap, 5 minutes. */
export const MAX_RETRY_WAIT_MS = 300_000;

export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  maxRetries: number;
  /** The ceiling of the first wait; it doubles on each retry. */
  baseDelayMs: number;
  /** No single wait lasts longer than this (never more than MAX_RETRY_WAIT_MS). */
  maxDelayMs: number;
  /** No retry starts once this much time has passed since the first attempt. */
  maxElapsedMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxElapsedMs: 120_000,
};

export function resolveRetryPolicy(input: Partial<RetryPolicy> | false | undefined): RetryPolicy {
  if (input === false) return { ...DEFAULT_RETRY_POLICY, maxRetries: 0 };
  const policy = { ...DEFAULT_RETRY_POLICY, ...input };
  return { ...policy, maxDelayMs: Math.min(policy.maxDelayMs, MAX_RETRY_WAIT_MS) };
}

/**
 * Full jitter: a uniform wait between 0 and min(cap, base · 2^attempt), so that many clients
 * failing together do not retry together. `attempt` counts retries from 0; `random` is in [0, 1).
 */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: number,
): number {
  const cap = Math.min(policy.maxDelayMs, MAX_RETRY_WAIT_MS);
  // 2^attempt overflows to Infinity for large attempts; Math.min keeps the ceiling finite.
  const ceiling = Math.min(cap, policy.baseDelayMs * 2 ** Math.max(0, attempt));
  return Math.floor(Math.max(0, Math.min(random, 1)) * ceiling);
}

/**
 * Reads a `Retry-After` header: delay-seconds or an HTTP date. Answers milliseconds from `nowMs`
 * (0 for a date in the past), or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) {
    const ms = Math.ceil(Number(text) * 1000);
    return Number.isFinite(ms) ? ms : undefined;
  }
  // Only the HTTP-date forms: a bare number like '1e3' or '-5' must not be read as a date.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * How long to wait before retry number `attempt` (0-based), or null to give up: out of retries,
 * or the wait would end past the budget. A server's `Retry-After` replaces the jittered backoff.
 */
export function nextRetryDelay(input: {
  attempt: number;
  policy: RetryPolicy;
  elapsedMs: number;
  retryAfterMs?: number | undefined;
  random: number;
}): number | null {
  const { attempt, policy, elapsedMs, retryAfterMs, random } = input;
  if (attempt >= policy.maxRetries) return null;
  const cap = Math.min(policy.maxDelayMs, MAX_RETRY_WAIT_MS);
  const wait =
    retryAfterMs !== undefined
      ? Math.min(retryAfterMs, cap)
      : backoffDelay(attempt, policy, random);
  if (elapsedMs + wait > policy.maxElapsedMs) return null;
  return wait;
}

/** The verbs the gateway client sends. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Whether a failed request may be sent again: only when a repeat cannot do the work twice.
 * GET reads. PUT and DELETE are idempotent by HTTP's definition (RFC 9110, section 9.2.2), and
 * the gateway's own keep to it: `PUT /settings` replaces the filters, `PUT /status` sets the
 * switch, `DELETE /platform` forgets the link, so a repeat ends in the state the first one made.
 * A POST adds something (a payment, an invitation, a send) and is repeated only under an
 * idempotency key, which the gateway answers with the first result.
 */
export function isRepeatable(method: HttpMethod, idempotencyKey: string | undefined): boolean {
  return method !== 'POST' || idempotencyKey !== undefined;
}

/** Statuses worth repeating: rate limits and server-side failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}
