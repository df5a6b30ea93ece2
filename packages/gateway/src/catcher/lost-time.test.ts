import fc from 'fast-check';
import { expect, it } from 'vitest';
import { lostStretchOf } from './lost-time.js';

const rules = { failuresToCount: 3, throttleMinMs: 900_000 };

it('counts a platform outage from the third failure in a row on, from its first failure', () => {
  const trouble = { kind: 'failing' as const, start: 1000, end: 61_000, failures: 3 };
  expect(lostStretchOf(trouble, rules)).toEqual({
    start: 1000,
    end: 61_000,
    reason: 'platform-outage',
  });
  expect(lostStretchOf({ ...trouble, failures: 2 }, rules)).toBeNull();
});

it('counts throttling only when it lasts at least the setting, and then all of it', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 3_600_000 }), (length) => {
      const stretch = lostStretchOf(
        { kind: 'throttled', start: 5000, end: 5000 + length, failures: 0 },
        rules,
      );
      if (length >= rules.throttleMinMs) {
        expect(stretch).toEqual({ start: 5000, end: 5000 + length, reason: 'throttled' });
      } else {
        expect(stretch).toBeNull();
      }
    }),
  );
});
