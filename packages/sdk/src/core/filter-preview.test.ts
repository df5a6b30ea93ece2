import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PREVIEW_DAYS, previewFilters, type SeenOffer } from './filter-preview.js';
import { matchOffer } from './offers.js';
import type { Block, DriverFilters, SavedDriverFilters } from './schemas/driver.js';
import { WEEKDAYS, type WeeklySchedule } from './schemas/driver.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// A Tuesday noon in UTC; the look-back is the 7 days before it.
const NOW = Date.parse('2026-06-16T12:00:00Z');

function allWeek(start = '00:00', end = '24:00'): WeeklySchedule {
  return Object.fromEntries(WEEKDAYS.map((d) => [d, [{ start, end }]])) as WeeklySchedule;
}

function filters(overrides: Partial<DriverFilters> = {}): DriverFilters {
  return {
    warehouses: ['A', 'B'],
    minHourlyPay: 0,
    minBlockPay: 0,
    timeBufferMinutes: 0,
    weeklySchedule: allWeek(),
    timeZone: 'UTC',
    stationRules: {},
    minBlockHours: 0,
    maxBlockHours: null,
    ...overrides,
  };
}

const filtersArb: fc.Arbitrary<SavedDriverFilters> = fc
  .record({
    warehouses: fc.subarray(['A', 'B', 'C'], { minLength: 1 }),
    minHourlyPay: fc.integer({ min: 0, max: 60 }),
    minBlockPay: fc.integer({ min: 0, max: 200 }),
    timeBufferMinutes: fc.integer({ min: 0, max: 240 }),
    weeklySchedule: fc.constantFrom(
      allWeek(),
      allWeek('06:00', '18:00'),
      allWeek('20:00', '04:00'),
    ),
    timeZone: fc.constantFrom('UTC', 'America/New_York'),
    bRule: fc.option(fc.record({ minHourlyPay: fc.integer({ min: 0, max: 60 }) }), {
      nil: undefined,
    }),
    minBlockHours: fc.integer({ min: 0, max: 4 }),
    maxBlockHours: fc.option(fc.integer({ min: 4, max: 8 }), { nil: null }),
  })
  .map(({ bRule, ...f }) => ({
    ...f,
    stationRules: (bRule && f.warehouses.includes('B')
      ? { B: bRule }
      : {}) as SavedDriverFilters['stationRules'],
  }));

/** Offers seen over the 9 days before NOW (some outside the look-back), starting after they are seen. */
const offerArb = fc
  .record({
    offerId: fc.string({ minLength: 1, maxLength: 4 }),
    serviceAreaId: fc.constantFrom('A', 'B', 'C'),
    seenAt: fc.integer({ min: NOW - 9 * DAY, max: NOW }),
    lead: fc.integer({ min: 0, max: 48 * 4 }).map((q) => q * 15 * MINUTE),
    hours: fc.integer({ min: 1, max: 6 * 4 }).map((q) => (q * 15 * MINUTE) / HOUR),
    pay: fc.integer({ min: 1000, max: 30000 }).map((c) => c / 100),
  })
  .map(({ lead, hours, ...o }): SeenOffer => {
    const startTime = o.seenAt + lead;
    return { ...o, startTime, endTime: startTime + hours * HOUR };
  });

const offersArb = fc.array(offerArb, { maxLength: 60 });

/** Offers laid end to end, so none overlaps another and the overlap rule never decides. */
const disjointOffersArb = offersArb.map((offers) => {
  let at = NOW + HOUR;
  return offers.map((o) => {
    const length = o.endTime - o.startTime;
    const startTime = at;
    at += length;
    return { ...o, startTime, endTime: startTime + length };
  });
});

/** The rules read one offer at a time, in the order seen, with a plain list of what was taken. */
function bruteForce(offers: readonly SeenOffer[], f: DriverFilters, now = NOW, days = 7) {
  const ordered = offers
    .filter((o) => o.seenAt >= now - days * DAY && o.seenAt < now)
    // Offers seen at one instant came in one poll: the best-paying first.
    .sort(
      (a, b) =>
        a.seenAt - b.seenAt ||
        b.pay - a.pay ||
        a.startTime - b.startTime ||
        (a.offerId < b.offerId ? -1 : a.offerId > b.offerId ? 1 : 0),
    );
  const taken: Block[] = [];
  let pay = 0;
  for (const o of ordered) {
    if (!matchOffer(o, f, { now: o.seenAt, wonBlocks: taken }).accept) continue;
    taken.push({ startTime: o.startTime, endTime: o.endTime });
    pay += o.pay;
  }
  return { blocks: taken.length, pay: Math.round(pay * 100) / 100 };
}

describe('previewFilters', () => {
  it('says how many more blocks and how much more pay a lower minimum per hour would have caught', () => {
    // Seven 3-hour blocks at $60 ($20 an hour), one a day, and one at $90 ($30 an hour).
    const offers: SeenOffer[] = Array.from({ length: 7 }, (_, i) => ({
      offerId: `low-${i}`,
      serviceAreaId: 'A',
      seenAt: NOW - (i + 1) * DAY,
      startTime: NOW - (i + 1) * DAY + 2 * HOUR,
      endTime: NOW - (i + 1) * DAY + 5 * HOUR,
      pay: 60,
    }));
    offers.push({
      offerId: 'high',
      serviceAreaId: 'A',
      seenAt: NOW - HOUR,
      startTime: NOW + HOUR,
      endTime: NOW + 4 * HOUR,
      pay: 90,
    });
    const preview = previewFilters(
      offers,
      filters({ minHourlyPay: 22 }),
      filters({ minHourlyPay: 20 }),
      {
        now: NOW,
      },
    );
    expect(preview).toMatchObject({
      current: { blocks: 1, pay: 90 },
      proposed: { blocks: 8, pay: 510 },
      deltaBlocks: 7,
      deltaPay: 420,
      offersConsidered: 8,
      estimate: true,
    });
  });

  it('counts two overlapping offers once, the one seen first', () => {
    const first: SeenOffer = {
      offerId: 'b',
      serviceAreaId: 'A',
      seenAt: NOW - 2 * HOUR,
      startTime: NOW,
      endTime: NOW + 3 * HOUR,
      pay: 50,
    };
    const second = { ...first, offerId: 'a', seenAt: NOW - HOUR, pay: 80 };
    const preview = previewFilters([second, first], filters(), filters(), { now: NOW });
    expect(preview.current).toEqual({ blocks: 1, pay: 50 });
  });

  it('looks back over 7 days by default, and over `days` when given', () => {
    const old: SeenOffer = {
      offerId: 'old',
      serviceAreaId: 'A',
      seenAt: NOW - PREVIEW_DAYS * DAY - 1,
      startTime: NOW - 6 * DAY,
      endTime: NOW - 6 * DAY + HOUR,
      pay: 40,
    };
    expect(previewFilters([old], filters(), filters(), { now: NOW }).current.blocks).toBe(0);
    expect(previewFilters([old], filters(), filters(), { now: NOW, days: 8 }).current.blocks).toBe(
      1,
    );
  });

  it('finds no difference between a set of filters and itself', () => {
    fc.assert(
      fc.property(offersArb, filtersArb, (offers, f) => {
        const preview = previewFilters(offers, f, structuredClone(f), { now: NOW });
        expect(preview.deltaBlocks).toBe(0);
        expect(preview.deltaPay).toBe(0);
        expect(preview.proposed).toEqual(preview.current);
      }),
    );
  });

  it('counts what the rules, read one offer at a time, would have taken', () => {
    fc.assert(
      fc.property(offersArb, filtersArb, filtersArb, (offers, current, proposed) => {
        const preview = previewFilters(offers, current, proposed, { now: NOW });
        expect(preview.current).toEqual(bruteForce(offers, current));
        expect(preview.proposed).toEqual(bruteForce(offers, proposed));
        expect(preview.deltaBlocks).toBe(preview.proposed.blocks - preview.current.blocks);
        expect(preview.deltaPay).toBeCloseTo(preview.proposed.pay - preview.current.pay, 6);
      }),
    );
  });

  it('never counts fewer blocks or less pay when a minimum or the buffer is lowered (offers apart)', () => {
    fc.assert(
      fc.property(
        disjointOffersArb,
        filtersArb,
        fc.constantFrom('minHourlyPay', 'minBlockPay', 'timeBufferMinutes', 'minBlockHours'),
        fc.integer({ min: 0, max: 240 }),
        (offers, current, field, by) => {
          const looser = { ...current, [field]: Math.max(0, (current[field] ?? 0) - by) };
          const preview = previewFilters(offers, current, looser, { now: NOW });
          expect(preview.deltaBlocks).toBeGreaterThanOrEqual(0);
          expect(preview.deltaPay).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it('ignores offers seen outside the look-back', () => {
    fc.assert(
      fc.property(offersArb, offersArb, filtersArb, filtersArb, (inside, outside, a, b) => {
        const before = outside.map((o) => ({
          ...o,
          seenAt: NOW - PREVIEW_DAYS * DAY - 1 - (NOW - o.seenAt),
        }));
        const after = outside.map((o) => ({ ...o, seenAt: NOW + (NOW - o.seenAt) }));
        expect(previewFilters([...before, ...inside, ...after], a, b, { now: NOW })).toEqual(
          previewFilters(inside, a, b, { now: NOW }),
        );
      }),
    );
  });
});
