import { type DriverFilters, everyDay, startOfDay } from '@blockcatch/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoWeekOf, suggestFilterChange } from './digest.js';

const HOUR = 3_600_000;
const ZONE = 'America/Chicago';
const allDay = [{ start: '00:00', end: '24:00' }];
const filters: DriverFilters = {
  warehouses: ['DAU1'],
  minHourlyPay: 25,
  minBlockPay: 40,
  timeBufferMinutes: 30,
  weeklySchedule: everyDay(allDay),
  timeZone: ZONE,
};
// Monday 2026-11-30, noon in Chicago.
const NOW = startOfDay('2026-11-30', ZONE) + 12 * HOUR;

/** A 4-hour block seen `daysAgo` before NOW, starting 3 hours later, at `rate` an hour. */
const offer = (i: number, daysAgo: number, rate: number) => {
  const seenAt = NOW - daysAgo * 24 * HOUR;
  return {
    offerId: `o${i}`,
    serviceAreaId: 'DAU1',
    startTime: seenAt + 3 * HOUR,
    endTime: seenAt + 7 * HOUR,
    pay: 4 * rate,
    seenAt,
  };
};

describe('suggestFilterChange', () => {
  it('names the lowered hourly minimum that would have caught the most, with its blocks and pay', () => {
    const offers = [offer(1, 1, 22), offer(2, 2, 22), offer(3, 3, 23), offer(4, 4, 30)];
    expect(suggestFilterChange(offers, filters, NOW)).toEqual({
      change: { field: 'minHourlyPay', value: 22 },
      count: 3,
      pay: 4 * 22 + 4 * 22 + 4 * 23,
    });
  });

  it('suggests nothing when no small change would have caught more', () => {
    expect(suggestFilterChange([offer(1, 1, 10), offer(2, 2, 30)], filters, NOW)).toBeNull();
    expect(suggestFilterChange([], filters, NOW)).toBeNull();
  });

  it('only ever suggests a lower minimum, never below zero, that catches more', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 5, max: 40 })), {
          maxLength: 12,
        }),
        fc.integer({ min: 0, max: 40 }),
        (specs, minHourlyPay) => {
          const offers = specs.map(([days, rate], i) => offer(i, days + i / 100, rate));
          const suggestion = suggestFilterChange(offers, { ...filters, minHourlyPay }, NOW);
          if (suggestion === null) return;
          const current = suggestion.change.field === 'minHourlyPay' ? minHourlyPay : 40;
          expect(suggestion.change.value).toBeLessThan(current);
          expect(suggestion.change.value).toBeGreaterThanOrEqual(0);
          expect(suggestion.count).toBeGreaterThan(0);
          expect(suggestion.pay).toBeGreaterThan(0);
        },
      ),
    );
  });
});

describe('isoWeekOf', () => {
  it('reads the week and weekday on the driver clock', () => {
    expect(isoWeekOf(NOW, ZONE)).toEqual({ week: '2026-W49', weekday: 1 });
    // Sunday night in Chicago is already Monday in UTC.
    expect(isoWeekOf(startOfDay('2026-11-29', ZONE) + 23 * HOUR, ZONE)).toEqual({
      week: '2026-W48',
      weekday: 7,
    });
    expect(isoWeekOf(Date.UTC(2027, 0, 1, 18), ZONE)).toEqual({ week: '2026-W53', weekday: 5 });
  });
});
