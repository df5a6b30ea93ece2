// The refresher: one refresh shared by every caller, and a timer ten minutes before expiry.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createTokenRefresher,
  MIN_REFRESH_INTERVAL_MS,
  REFRESH_LEAD_MS,
} from './token-refresher.js';

interface FakeSession {
  expiresAt: number;
  generation: number;
}

const HOUR = 3_600_000;

describe('createTokenRefresher', () => {
  let clock = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 1_000_000;
  });
  afterEach(() => vi.useRealTimers());

  function setup(refresh?: (s: FakeSession) => Promise<FakeSession>) {
    const calls: FakeSession[] = [];
    const background: unknown[] = [];
    const refresher = createTokenRefresher<FakeSession>({
      now: () => clock,
      refresh:
        refresh ??
        (async (s) => {
          calls.push(s);
          await Promise.resolve();
          return { expiresAt: clock + HOUR, generation: s.generation + 1 };
        }),
      onBackgroundFailure: (error) => background.push(error),
    });
    return { refresher, calls, background };
  }

  it('shares one refresh among 100 concurrent callers', async () => {
    const { refresher, calls } = setup();
    const expired = { expiresAt: clock - 1, generation: 0 };
    const results = await Promise.all(
      Array.from({ length: 100 }, () => refresher.refresh(expired)),
    );
    expect(calls).toHaveLength(1);
    expect(new Set(results.map((r) => r.generation))).toEqual(new Set([1]));
    refresher.dispose();
  });

  it('starts a new refresh once the previous one has settled', async () => {
    const { refresher, calls } = setup();
    const s = { expiresAt: clock - 1, generation: 0 };
    await refresher.refresh(s);
    await refresher.refresh(s);
    expect(calls).toHaveLength(2);
    refresher.dispose();
  });

  it('refreshes ten minutes before the id token expires', async () => {
    const { refresher, calls } = setup();
    refresher.schedule({ expiresAt: clock + HOUR, generation: 0 });
    clock += HOUR - REFRESH_LEAD_MS - 1;
    await vi.advanceTimersByTimeAsync(HOUR - REFRESH_LEAD_MS - 1);
    expect(calls).toHaveLength(0);
    clock += 1;
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    refresher.dispose();
  });

  it('refreshes at once when the moment to refresh has already passed', async () => {
    const { refresher, calls } = setup();
    refresher.schedule({ expiresAt: clock + REFRESH_LEAD_MS - 5, generation: 0 });
    expect(calls).toHaveLength(1);
    refresher.dispose();
  });

  it('arms the next timer from the refreshed token, and not twice for one token', async () => {
    const { refresher, calls } = setup();
    const s = { expiresAt: clock + HOUR, generation: 0 };
    refresher.schedule(s);
    refresher.schedule(s);
    clock += HOUR - REFRESH_LEAD_MS;
    await vi.advanceTimersByTimeAsync(HOUR - REFRESH_LEAD_MS);
    expect(calls).toHaveLength(1);
    clock += HOUR - REFRESH_LEAD_MS;
    await vi.advanceTimersByTimeAsync(HOUR - REFRESH_LEAD_MS);
    expect(calls).toHaveLength(2);
    refresher.dispose();
  });

  it('does not loop when a fresh token is already due (clock skew): waits a minute instead', async () => {
    const { refresher, calls } = setup(async (s) => {
      calls.push(s);
      return { expiresAt: clock - 1 - calls.length, generation: s.generation + 1 };
    });
    refresher.schedule({ expiresAt: clock - 1, generation: 0 });
    await vi.advanceTimersByTimeAsync(MIN_REFRESH_INTERVAL_MS - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    refresher.dispose();
  });

  it('reports a failed background refresh and stays usable', async () => {
    const { refresher, background } = setup(async () => {
      throw new Error('offline');
    });
    refresher.schedule({ expiresAt: clock, generation: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(background).toHaveLength(1);
    await expect(refresher.refresh({ expiresAt: clock, generation: 0 })).rejects.toThrow('offline');
    refresher.dispose();
  });

  it('dispose cancels the timer so nothing runs afterwards', async () => {
    const { refresher, calls } = setup();
    refresher.schedule({ expiresAt: clock + HOUR, generation: 0 });
    refresher.dispose();
    expect(vi.getTimerCount()).toBe(0);
    refresher.schedule({ expiresAt: clock + 2 * HOUR, generation: 0 });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(3 * HOUR);
    expect(calls).toHaveLength(0);
  });

  it('reads expiry from the injected clock', () => {
    const { refresher } = setup();
    expect(refresher.isExpired({ expiresAt: clock, generation: 0 })).toBe(true);
    expect(refresher.isExpired({ expiresAt: clock + 1, generation: 0 })).toBe(false);
  });
});
