import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationSchema, formatDuration } from './duration.js';

const DAY = 86_400_000;

describe('durationSchema', () => {
  it('reads a whole number and one unit as milliseconds', () => {
    const schema = durationSchema(1000, 400 * DAY);
    expect(schema.parse('90s')).toBe(90_000);
    expect(schema.parse('10m')).toBe(600_000);
    expect(schema.parse('2h')).toBe(7_200_000);
    expect(schema.parse('90d')).toBe(90 * DAY);
  });

  it('refuses anything else, and values outside its bounds', () => {
    const schema = durationSchema(1000, DAY);
    for (const bad of ['', '10', 'm', '1.5h', '-1m', '10 m', '10mm', '2d', '0s', '1'.repeat(20)]) {
      expect(schema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('agrees with the number times its unit for every value it accepts', () => {
    const units = { s: 1000, m: 60_000, h: 3_600_000, d: DAY };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9_999_999 }),
        fc.constantFrom('s', 'm', 'h', 'd'),
        (n, u) => {
          const ms = n * units[u as keyof typeof units];
          const parsed = durationSchema(0, Number.MAX_SAFE_INTEGER).safeParse(`${n}${u}`);
          expect(parsed.success && parsed.data).toBe(ms);
        },
      ),
    );
  });
});

describe('formatDuration', () => {
  it('gives back what durationSchema read, in the largest whole unit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.constantFrom('s', 'm', 'h', 'd'),
        (n, u) => {
          const ms = durationSchema(0, Number.MAX_SAFE_INTEGER).parse(`${n}${u}`);
          expect(durationSchema(0, Number.MAX_SAFE_INTEGER).parse(formatDuration(ms))).toBe(ms);
        },
      ),
    );
    expect(formatDuration(600_000)).toBe('10m');
    expect(formatDuration(90_000)).toBe('90s');
  });
});
