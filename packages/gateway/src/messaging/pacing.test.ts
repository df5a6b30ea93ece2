import { describe, expect, it } from 'vitest';
import { retryDelayMs, SendPacer } from './pacing.js';

describe('the send pacer', () => {
  it('never lets more than the rate plus its small burst go in any stretch of time', () => {
    const pacer = new SendPacer(10, 100, 0);
    let sent = 0;
    for (let now = 0; now <= 3000; now += 7) {
      const allowed = pacer.available(now);
      pacer.spend(allowed);
      sent += allowed;
    }
    // 3 s at 10/s, plus the initial burst of 2.
    expect(sent).toBeLessThanOrEqual(32);
    expect(sent).toBeGreaterThanOrEqual(30);
  });

  it('says how long to wait for the next message', () => {
    const pacer = new SendPacer(10, 100, 0);
    pacer.spend(pacer.available(0));
    expect(pacer.waitMs()).toBe(100);
  });

  it('hands out a full batch at once when the rate is 0 (no limit)', () => {
    const pacer = new SendPacer(0, 500, 0);
    pacer.spend(500);
    expect(pacer.available(0)).toBe(500);
    expect(pacer.waitMs()).toBe(0);
  });
});

describe('retry delays', () => {
  it('double with each attempt, jittered between half and all of it, and are capped', () => {
    expect(retryDelayMs(1, 1000, () => 1)).toBe(1000);
    expect(retryDelayMs(3, 1000, () => 1)).toBe(4000);
    expect(retryDelayMs(3, 1000, () => 0)).toBe(0);
    expect(retryDelayMs(40, 1000, () => 1)).toBe(300_000);
  });
});
