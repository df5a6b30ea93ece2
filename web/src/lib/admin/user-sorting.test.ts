import type { FlexUser, SparkUser } from '@blockcatch/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { regionOf, regionsOf, sortUsers } from './user-sorting.js';

const flex = (name: string, extra: Partial<FlexUser> = {}): FlexUser => ({
  name,
  phoneNumber: '+13055550101',
  referral: null,
  goodStanding: true,
  proxyInstalled: true,
  setupComplete: true,
  createDateTimestamp: 0,
  expirationDate: null,
  expirationDateTimestamp: null,
  stripeExpressId: null,
  status: 'start',
  humanRegion: null,
  ...extra,
});

describe('sortUsers', () => {
  it('sorts by name either way without touching the input', () => {
    const rows = [flex('bea'), flex('Ana'), flex('carl')];
    expect(sortUsers(rows, 'name', 'asc').map((r) => r.name)).toEqual(['Ana', 'bea', 'carl']);
    expect(sortUsers(rows, 'name', 'desc').map((r) => r.name)).toEqual(['carl', 'bea', 'Ana']);
    expect(rows.map((r) => r.name)).toEqual(['bea', 'Ana', 'carl']);
  });

  it('keeps rows without a value last in both directions', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 1e12 }), { nil: null })),
        fc.constantFrom('asc' as const, 'desc' as const),
        (stamps, direction) => {
          const rows = stamps.map((s, i) => flex(`u${i}`, { expirationDateTimestamp: s }));
          const sorted = sortUsers(rows, 'expirationDateTimestamp', direction);
          const firstNull = sorted.findIndex((r) => r.expirationDateTimestamp === null);
          if (firstNull >= 0) {
            expect(sorted.slice(firstNull).every((r) => r.expirationDateTimestamp === null)).toBe(
              true,
            );
          }
          const values = sorted.map((r) => r.expirationDateTimestamp).filter((v) => v !== null);
          const expected = [...values].sort((a, b) => (direction === 'asc' ? a - b : b - a));
          expect(values).toEqual(expected);
        },
      ),
    );
  });

  it('reads the region of Flex and Spark rows', () => {
    const spark = {
      ...flex('s'),
      humanRegion: undefined,
      driverOptions: { deliveryArea: 'Chicago' },
    } as unknown as SparkUser;
    delete (spark as { humanRegion?: unknown }).humanRegion;
    expect(regionOf(spark)).toBe('Chicago');
    expect(regionsOf([flex('a', { humanRegion: 'Miami' }), flex('b'), spark])).toEqual([
      'Chicago',
      'Miami',
    ]);
  });
});
