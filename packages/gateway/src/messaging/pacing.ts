// How long the worker waits before retrying a failure (the pace itself is storage/sender-pace.ts).
import { backoffDelay } from '@blockcatch/sdk';

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
