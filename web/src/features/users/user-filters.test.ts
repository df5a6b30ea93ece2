import type { FlexUser, TriState } from '@blockcatch/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expiringDays, filterUserRows, NO_USER_FILTERS, regionsOf } from './user-filters.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const DAY = 86_400_000;

const user = fc
  .record({
    goodStanding: fc.boolean(),
    proxyInstalled: fc.boolean(),
    setupComplete: fc.boolean(),
    humanRegion: fc.constantFrom(null, 'Miami', 'Austin'),
    expirationDateTimestamp: fc.option(fc.integer({ min: NOW - 30 * DAY, max: NOW + 60 * DAY }), {
      nil: null,
    }),
  })
  .map(
    (u, i = 0): FlexUser => ({
      ...u,
      name: `User ${i}`,
      phoneNumber: '+13055550100',
      referral: null,
      createDateTimestamp: NOW - 100 * DAY,
      expirationDate: null,
      stripeExpressId: null,
      status: 'start',
    }),
  );
const tri = fc.constantFrom<TriState>('all', 'yes', 'no');

describe('the Users filters', () => {
  it('keep exactly the rows every filter agrees with', () => {
    fc.assert(
      fc.property(
        fc.array(user, { maxLength: 40 }),
        tri,
        tri,
        tri,
        fc.constantFrom('', 'Miami', 'Austin'),
        fc.option(fc.integer({ min: 0, max: 90 }), { nil: null }),
        (rows, goodStanding, proxyInstalled, setupComplete, region, days) => {
          const filters = {
            goodStanding,
            proxyInstalled,
            setupComplete,
            region,
            expiringWithinDays: days === null ? '' : String(days),
          };
          const kept = new Set(filterUserRows(rows, filters, NOW));
          const agrees = (f: TriState, v: boolean) => f === 'all' || (f === 'yes') === v;
          for (const row of rows) {
            const ends = row.expirationDateTimestamp;
            const expected =
              agrees(goodStanding, row.goodStanding) &&
              agrees(proxyInstalled, row.proxyInstalled) &&
              agrees(setupComplete, row.setupComplete) &&
              (region === '' || row.humanRegion === region) &&
              (days === null || (ends !== null && ends > NOW && ends <= NOW + days * DAY));
            expect(kept.has(row)).toBe(expected);
          }
        },
      ),
    );
  });

  it('keep every row with no filter set, and list each region once, sorted', () => {
    fc.assert(
      fc.property(fc.array(user, { maxLength: 40 }), (rows) => {
        expect(filterUserRows(rows, NO_USER_FILTERS, NOW)).toEqual(rows);
        const regions = regionsOf(rows);
        expect(regions).toEqual([...new Set(regions)].sort());
      }),
    );
  });

  it('read whole days up to a year and nothing else', () => {
    expect(expiringDays('7')).toBe(7);
    expect(expiringDays(' 30 ')).toBe(30);
    expect(expiringDays('')).toBeNull();
    expect(expiringDays('1.5')).toBeNull();
    expect(expiringDays('-3')).toBeNull();
    expect(expiringDays('367')).toBeNull();
    expect(expiringDays('9'.repeat(10_000))).toBeNull();
  });
});
