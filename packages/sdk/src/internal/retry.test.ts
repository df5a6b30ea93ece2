// The retry rules: full-jitter backoff, Retry-After, the per-wait cap and the total budget.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  isRepeatable,
  isRetryableStatus,
  MAX_RETRY_WAIT_MS,
  nextRetryDelay,
  parseRetryAfter,
  type RetryPolicy,
  resolveRetryPolicy,
} from './retry.js';

const policyArb: fc.Arbitrary<RetryPolicy> = fc.record({
  maxRetries: fc.integer({ min: 0, max: 20 }),
  baseDelayMs: fc.integer({ min: 1, max: 100_000 }),
  maxDelayMs: fc.integer({ min: 1, max: 10_000_000 }),
  maxElapsedMs: fc.integer({ min: 0, max: 10_000_000 }),
});
const randomArb = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe('backoffDelay', () => {
  it('waits between 0 and min(cap, base · 2^attempt), never more than 300000 ms', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), policyArb, randomArb, (attempt, p, r) => {
        const delay = backoffDelay(attempt, p, r);
        const ceiling = Math.min(p.maxDelayMs, MAX_RETRY_WAIT_MS, p.baseDelayMs * 2 ** attempt);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(ceiling);
        expect(delay).toBeLessThanOrEqual(MAX_RETRY_WAIT_MS);
        expect(Number.isInteger(delay)).toBe(true);
      }),
    );
  });

  it('grows with the random draw: the jitter spreads waits over the whole window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        policyArb,
        randomArb,
        randomArb,
        (a, p, r1, r2) => {
          const [lo, hi] = r1 <= r2 ? [r1, r2] : [r2, r1];
          expect(backoffDelay(a, p, lo)).toBeLessThanOrEqual(backoffDelay(a, p, hi));
        },
      ),
    );
  });

  it('doubles the window with each attempt until the cap', () => {
    const p = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    const almostOne = 0.999_999;
    expect([0, 1, 2, 3, 4, 5].map((a) => backoffDelay(a, p, almostOne))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds as that many milliseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer(), (seconds, now) => {
        expect(parseRetryAfter(String(seconds), now)).toBe(seconds * 1000);
        expect(parseRetryAfter(` ${seconds} `, now)).toBe(seconds * 1000);
      }),
    );
  });

  it('reads an HTTP date as the time left until it, and 0 for a date already past', () => {
    const dateArb = fc.date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2100-01-01T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(dateArb, dateArb, (at, now) => {
        const whole = Math.floor(at.getTime() / 1000) * 1000; // HTTP dates carry whole seconds
        const expected = Math.max(0, whole - now.getTime());
        expect(parseRetryAfter(new Date(whole).toUTCString(), now.getTime())).toBe(expected);
      }),
    );
  });

  it('answers undefined for a missing, empty, negative or unreadable header', () => {
    for (const value of [undefined, '', '   ', '-5', '1e3', 'soon', 'Thursday']) {
      expect(parseRetryAfter(value, 0)).toBeUndefined();
    }
  });
});

describe('nextRetryDelay', () => {
  it('never waits past the budget, past the cap, or beyond the allowed retries', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        policyArb,
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.option(fc.integer({ min: 0, max: 100_000_000 }), { nil: undefined }),
        randomArb,
        (attempt, policy, elapsedMs, retryAfterMs, random) => {
          const delay = nextRetryDelay({ attempt, policy, elapsedMs, retryAfterMs, random });
          if (attempt >= policy.maxRetries) expect(delay).toBeNull();
          if (delay === null) return;
          expect(delay).toBeLessThanOrEqual(Math.min(policy.maxDelayMs, MAX_RETRY_WAIT_MS));
          expect(elapsedMs + delay).toBeLessThanOrEqual(policy.maxElapsedMs);
        },
      ),
    );
  });

  it("waits exactly the server's Retry-After when it fits under the cap and the budget", () => {
    const policy = { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 300_000, maxElapsedMs: 600_000 };
    expect(
      nextRetryDelay({ attempt: 0, policy, elapsedMs: 0, retryAfterMs: 120_000, random: 0.5 }),
    ).toBe(120_000);
  });

  it('caps a long Retry-After at 300000 ms', () => {
    const policy = resolveRetryPolicy({ maxDelayMs: 10_000_000, maxElapsedMs: 10_000_000 });
    expect(
      nextRetryDelay({ attempt: 0, policy, elapsedMs: 0, retryAfterMs: 3_600_000, random: 0 }),
    ).toBe(MAX_RETRY_WAIT_MS);
  });

  it('gives up rather than start a wait that would end past the budget', () => {
    const policy = { maxRetries: 10, baseDelayMs: 10, maxDelayMs: 300_000, maxElapsedMs: 5_000 };
    expect(
      nextRetryDelay({ attempt: 1, policy, elapsedMs: 4_000, retryAfterMs: 2_000, random: 0 }),
    ).toBeNull();
  });
});

describe('resolveRetryPolicy', () => {
  it('turns retries off with false and never raises the cap above 300000 ms', () => {
    expect(resolveRetryPolicy(false).maxRetries).toBe(0);
    expect(resolveRetryPolicy({ maxDelayMs: 1e9 }).maxDelayMs).toBe(MAX_RETRY_WAIT_MS);
  });
});

describe('isRetryableStatus', () => {
  it('retries 429 and every 5xx, and no other status', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), (status) => {
        expect(isRetryableStatus(status)).toBe(status === 429 || status >= 500);
      }),
    );
  });
});

describe('isRepeatable', () => {
  it('repeats GET, PUT and DELETE with or without a key: a repeat ends in the same state', () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      expect(isRepeatable(method, undefined)).toBe(true);
      expect(isRepeatable(method, 'k')).toBe(true);
    }
  });

  it('repeats a POST only under an idempotency key', () => {
    expect(isRepeatable('POST', undefined)).toBe(false);
    expect(isRepeatable('POST', 'pay-1')).toBe(true);
  });
});
