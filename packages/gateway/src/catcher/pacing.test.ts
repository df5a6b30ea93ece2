import { describe, expect, it } from 'vitest';
import { delayAfter } from './pacing.js';

const options = { pollIntervalMs: 1000, backoffBaseMs: 500, backoffMaxMs: 8000 };

describe('delayAfter', () => {
  it('polls again after the interval when the platform answered', () => {
    expect(delayAfter({ kind: 'ok' }, options)).toBe(1000);
  });

  it('waits at least the Retry-After the platform asked for', () => {
    expect(delayAfter({ kind: 'throttled', retryAfterMs: 3000 }, options)).toBe(3000);
    expect(delayAfter({ kind: 'throttled', retryAfterMs: 10 }, options)).toBe(1000);
  });

  it('doubles the wait with each failure in a row, up to the cap', () => {
    const top = () => 1;
    const waits = [1, 2, 3, 4, 5, 6].map((n) =>
      delayAfter({ kind: 'failed', consecutiveFailures: n }, options, top),
    );
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect(delayAfter({ kind: 'failed', consecutiveFailures: 3 }, options, () => 0)).toBe(0);
  });
});
