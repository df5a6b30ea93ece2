// How fast the worker may send (a token bucket) and how long it waits before retrying a failure.
import { backoffDelay } from '@blockcatch/sdk';

/** Tokens refill at `rate` per second up to about 200 ms worth, so sends stay evenly spaced. */
export class SendPacer {
  private tokens: number;
  private last: number;
  readonly burst: number;

  constructor(
    private readonly rate: number,
    maxBatch: number,
    now: number,
  ) {
    this.burst = rate === 0 ? maxBatch : Math.max(1, Math.min(maxBatch, Math.floor(rate / 5)));
    this.tokens = this.burst;
    this.last = now;
  }

  /** How many messages may go now (0 to `burst`); with no limit, always a full batch. */
  available(now: number): number {
    if (this.rate === 0) return this.burst;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    return Math.floor(this.tokens);
  }

  spend(count: number): void {
    if (this.rate > 0) this.tokens -= count;
  }

  /** Milliseconds until at least one more message may go. */
  waitMs(): number {
    if (this.rate === 0 || this.tokens >= 1) return 0;
    return Math.ceil(((1 - this.tokens) / this.rate) * 1000);
  }
}

export const MAX_ATTEMPTS = 5;
const MAX_RETRY_DELAY_MS = 5 * 60_000;

/**
 * Delay before attempt `attempts + 1`: the SDK's full-jitter backoff under a cap doubling from
 * `baseMs`, so recipients that failed together do not all retry in the same instant.
 */
export function retryDelayMs(attempts: number, baseMs: number, random = Math.random): number {
  return backoffDelay(
    attempts - 1,
    { baseDelayMs: baseMs, maxDelayMs: MAX_RETRY_DELAY_MS },
    random(),
  );
}
