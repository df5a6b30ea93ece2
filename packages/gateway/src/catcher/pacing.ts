// How long a driver's poller waits before its next poll: its interval after an answer, at least
// the platform's Retry-After after a 429, and an exponential back-off after 5xx answers.
import { backoffDelay } from '@blockcatch/sdk';

export interface PaceOptions {
  pollIntervalMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export type PollOutcome =
  | { kind: 'ok' }
  | { kind: 'throttled'; retryAfterMs: number }
  | { kind: 'failed'; consecutiveFailures: number };

export function delayAfter(
  outcome: PollOutcome,
  options: PaceOptions,
  random: () => number = Math.random,
): number {
  switch (outcome.kind) {
    case 'ok':
      return options.pollIntervalMs;
    case 'throttled':
      return Math.max(outcome.retryAfterMs, options.pollIntervalMs);
    case 'failed':
      // Full jitter under a doubling cap: drivers failing together do not retry together.
      return backoffDelay(
        outcome.consecutiveFailures - 1,
        { baseDelayMs: options.backoffBaseMs, maxDelayMs: options.backoffMaxMs },
        random(),
      );
  }
}
