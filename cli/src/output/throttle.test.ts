import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { throttledLines } from './throttle.js';

describe('throttledLines', () => {
  it('writes at most one line per interval, and the forced one always', () => {
    let clock = 0;
    const lines: string[] = [];
    const progress = throttledLines((l) => lines.push(l), { everyMs: 3000, now: () => clock });
    for (let batch = 1; batch <= 100; batch++) {
      clock += 100; // a batch every 100 ms: 10 s in all
      progress(() => `batch ${batch}`, batch === 100);
    }
    expect(lines).toEqual(['batch 30', 'batch 60', 'batch 90', 'batch 100']);
  });

  it('never writes two unforced lines closer than the interval', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 200 }), (steps) => {
        let clock = 0;
        const at: number[] = [];
        const progress = throttledLines(() => at.push(clock), { everyMs: 3000, now: () => clock });
        for (const step of steps) {
          clock += step;
          progress(() => '');
        }
        const gaps = at.map((t, i) => t - (i === 0 ? 0 : at[i - 1]!));
        expect(gaps.every((gap) => gap >= 3000)).toBe(true);
        // A call 3 s or more after the last line always writes.
        if (steps.every((s) => s >= 3000)) expect(at).toHaveLength(steps.length);
      }),
    );
  });
});
