// The sandbox platform's per-account rate limit: a sliding one-second window of polls. Kept in
// memory: leases give each account to one gateway process, so its polls all pass through here.
export interface PollThrottle {
  /** Counts a poll; returns how long to wait (ms) when over the limit, else 0. */
  admit(accountId: string, now: number): number;
}

export function createPollThrottle(limit: {
  perSecond: number;
  retryAfterMs: number;
}): PollThrottle {
  const recent = new Map<string, number[]>();
  return {
    admit(accountId, now) {
      if (limit.perSecond <= 0) return 0;
      const times = (recent.get(accountId) ?? []).filter((t) => now - t < 1000);
      if (times.length >= limit.perSecond) {
        recent.set(accountId, times);
        return limit.retryAfterMs;
      }
      times.push(now);
      recent.set(accountId, times);
      return 0;
    },
  };
}
