import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reactionTime } from './LatencyLine.js';

describe('reactionTime', () => {
  it('says under 1 ms for any median below a millisecond, never 0 ms', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 0.999, noNaN: true }), (ms) => {
        expect(reactionTime(ms, 'en').key).toBe('flex.dashboard.reactionUnderMs');
      }),
    );
  });

  it('gives whole milliseconds below a second and never rounds to 0 or 1000', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 999.4, noNaN: true }), (ms) => {
        const { key, values } = reactionTime(ms, 'en');
        expect(key).toBe('flex.dashboard.reactionMs');
        const shown = Number(values.ms!.replace(/,/g, ''));
        expect(shown).toBeGreaterThanOrEqual(1);
        expect(shown).toBeLessThan(1000);
        expect(Math.abs(shown - ms)).toBeLessThanOrEqual(0.5);
      }),
    );
  });

  it('gives seconds from a second on, in the language’s digits', () => {
    expect(reactionTime(1530, 'en')).toEqual({
      key: 'flex.dashboard.reactionSeconds',
      values: { seconds: '1.5' },
    });
    expect(reactionTime(1530, 'es').values.seconds).toBe('1,5');
  });
});
