import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './pacing.js';

describe('retry delays', () => {
  it('double with each attempt, jittered between half and all of it, and are capped', () => {
    expect(retryDelayMs(1, 1000, () => 1)).toBe(1000);
    expect(retryDelayMs(3, 1000, () => 1)).toBe(4000);
    expect(retryDelayMs(3, 1000, () => 0)).toBe(0);
    expect(retryDelayMs(40, 1000, () => 1)).toBe(300_000);
  });
});
