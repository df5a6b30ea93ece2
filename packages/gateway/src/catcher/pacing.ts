// How long a driver's poller waits before its next poll: its interval after an answer, at least
// the platform's Retry-After after a 429, and an exponential back-off after 5xx answers.

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
    case 'failed': {
      const exponent = Math.min(30, Math.max(0, outcome.consecutiveFailures - 1));
      const cap = Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** exponent);
      // Equal jitter: at least half the step, so the back-off still grows, but drivers failing
      // together do not retry together.
      return cap / 2 + random() * (cap / 2);
    }
  }
}
