import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previewFilters, type SeenOffer } from './filter-preview.js';
import { compareForTaking, createOfferMatcher, type MatchContext, matchOffer } from './offers.js';
import {
  type Block,
  type DriverFilters,
  driverFiltersSchema,
  type Offer,
  WEEKDAYS,
  type WeeklySchedule,
} from './schemas/driver.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ZONES = ['UTC', 'America/New_York', 'Australia/Lord_Howe'] as const;

const allWeek = Object.fromEntries(
  WEEKDAYS.map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
) as WeeklySchedule;

function filtersWith(overrides: Partial<DriverFilters> = {}): DriverFilters {
  return {
    warehouses: ['A', 'B'],
    minHourlyPay: 0,
    minBlockPay: 0,
    timeBufferMinutes: 0,
    weeklySchedule: allWeek,
    timeZone: 'America/New_York',
    ...overrides,
  };
}

function offer(start: string, hours: number, overrides: Partial<Offer> = {}): Offer {
  const startTime = Date.parse(start);
  return {
    offerId: start,
    serviceAreaId: 'A',
    startTime,
    endTime: startTime + hours * HOUR,
    pay: 100,
    ...overrides,
  };
}

const won = (o: Offer): Block => ({ startTime: o.startTime, endTime: o.endTime });

const dateReaders = new Map<string, Intl.DateTimeFormat>();
/** The date the driver's clock shows at `ts`, read with Intl. */
function localDate(ts: number, timeZone: string): string {
  let reader = dateReaders.get(timeZone);
  if (!reader) {
    reader = new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' });
    dateReaders.set(timeZone, reader);
  }
  return reader.format(ts);
}

/** The Monday of the week (Monday to Sunday) holding an ISO date. */
function mondayOf(date: string): string {
  const at = Date.parse(`${date}T00:00:00Z`);
  const weekday = (new Date(at).getUTCDay() + 6) % 7;
  return new Date(at - weekday * DAY).toISOString().slice(0, 10);
}

/** The caps read straight from the rule table: hours of won blocks by the date they start on. */
function capRefusal(o: Offer, f: DriverFilters, wonBlocks: readonly Block[]) {
  const date = localDate(o.startTime, f.timeZone);
  const hours = (b: Block) => (b.endTime - b.startTime) / HOUR;
  let day = hours(o);
  let week = hours(o);
  for (const b of wonBlocks) {
    const d = localDate(b.startTime, f.timeZone);
    if (d === date) day += hours(b);
    if (mondayOf(d) === mondayOf(date)) week += hours(b);
  }
  if (f.maxHoursPerDay !== undefined && day > f.maxHoursPerDay + 1e-9) return 'hours-per-day';
  if (f.maxHoursPerWeek !== undefined && week > f.maxHoursPerWeek + 1e-9) return 'hours-per-week';
  return null;
}

describe('hours caps', () => {
  const capped = filtersWith({ maxHoursPerDay: 8, maxHoursPerWeek: 20 });

  it('takes blocks up to the hours of a day and refuses the one that would pass them', () => {
    const morning = offer('2026-06-16T06:00:00-04:00', 5);
    const fits = offer('2026-06-16T12:00:00-04:00', 3);
    const tooMuch = offer('2026-06-16T12:00:00-04:00', 3.25);
    const ctx: MatchContext = { now: 0, wonBlocks: [won(morning)] };
    expect(matchOffer(fits, capped, ctx)).toEqual({ accept: true, reason: null });
    expect(matchOffer(tooMuch, capped, ctx)).toEqual({ accept: false, reason: 'hours-per-day' });
  });

  it("counts a block on the day it starts on the driver's clock, even when it runs past midnight", () => {
    const lateMonday = offer('2026-06-15T20:00:00-04:00', 6);
    const tuesday = offer('2026-06-16T08:00:00-04:00', 8);
    expect(matchOffer(tuesday, capped, { now: 0, wonBlocks: [won(lateMonday)] }).accept).toBe(true);
    // 23:00 in New York on Monday is already Tuesday in UTC: the zone decides the day.
    const utc = { ...capped, timeZone: 'UTC' };
    expect(matchOffer(tuesday, utc, { now: 0, wonBlocks: [won(lateMonday)] }).reason).toBe(
      'hours-per-day',
    );
  });

  it('counts the week from Monday to Sunday', () => {
    // 4 × 5 hours Monday to Thursday fill the 20-hour week; Friday is refused, next Monday not.
    const days = ['15', '16', '17', '18'].map((d) => won(offer(`2026-06-${d}T09:00:00-04:00`, 5)));
    const friday = offer('2026-06-19T09:00:00-04:00', 1);
    const sunday = offer('2026-06-21T09:00:00-04:00', 1);
    const nextMonday = offer('2026-06-22T09:00:00-04:00', 8);
    for (const o of [friday, sunday]) {
      expect(matchOffer(o, capped, { now: 0, wonBlocks: days }).reason).toBe('hours-per-week');
    }
    expect(matchOffer(nextMonday, capped, { now: 0, wonBlocks: days }).accept).toBe(true);
  });

  it('counts real hours on a clock-change day: the spring night has one hour less', () => {
    // 00:00–06:00 on 2026-03-08 in New York is 5 real hours.
    const night = offer('2026-03-08T00:00:00-05:00', 5);
    const f = filtersWith({ maxHoursPerDay: 8 });
    const afternoon = offer('2026-03-08T14:00:00-04:00', 3);
    expect(matchOffer(afternoon, f, { now: 0, wonBlocks: [won(night)] }).accept).toBe(true);
    const longer = offer('2026-03-08T14:00:00-04:00', 3.5);
    expect(matchOffer(longer, f, { now: 0, wonBlocks: [won(night)] }).reason).toBe('hours-per-day');
  });

  it('refuses caps of zero or past a day and a week, naming the field', () => {
    for (const [field, value] of [
      ['maxHoursPerDay', 0],
      ['maxHoursPerDay', 24.5],
      ['maxHoursPerWeek', 169],
      ['anyBlockPay', 0],
      ['anyBlockPay', -5],
    ] as const) {
      const parsed = driverFiltersSchema.safeParse(filtersWith({ [field]: value }));
      expect(parsed.success, `${field} ${value}`).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual([field]);
    }
  });
});

describe('any block paying at least', () => {
  it('takes a block whatever its pay per hour once it pays the amount, and no other rule changes', () => {
    // $120 for 8 hours is $15 an hour, under the $25 minimum.
    const long = offer('2026-06-16T06:00:00-04:00', 8, { pay: 120 });
    const f = filtersWith({ minHourlyPay: 25 });
    expect(matchOffer(long, f, { now: 0, wonBlocks: [] }).reason).toBe('hourly-pay');
    expect(matchOffer(long, { ...f, anyBlockPay: 120 }, { now: 0, wonBlocks: [] }).accept).toBe(
      true,
    );
    expect(matchOffer(long, { ...f, anyBlockPay: 120.01 }, { now: 0, wonBlocks: [] }).reason).toBe(
      'hourly-pay',
    );
    // The block minimum still holds.
    const strict = { ...f, anyBlockPay: 100, minBlockPay: 150 };
    expect(matchOffer(long, strict, { now: 0, wonBlocks: [] }).reason).toBe('block-pay');
  });
});

// Random offers over two weeks around a clock change, and filters with caps.
const NOW = Date.parse('2026-11-04T12:00:00Z');

const seenOfferArb = fc
  .record({
    offerId: fc.string({ minLength: 1, maxLength: 4 }),
    serviceAreaId: fc.constantFrom('A', 'B', 'C'),
    // Few distinct instants, so that several offers often arrive in one poll.
    seenAt: fc.integer({ min: 0, max: 40 }).map((k) => NOW - 8 * DAY + k * 4 * HOUR),
    lead: fc.integer({ min: 0, max: 40 * 4 }).map((q) => q * 15 * MINUTE),
    quarters: fc.integer({ min: 1, max: 10 * 4 }),
    pay: fc.integer({ min: 1000, max: 40000 }).map((c) => c / 100),
  })
  .map(
    ({ lead, quarters, ...o }): SeenOffer => ({
      ...o,
      startTime: o.seenAt + lead,
      endTime: o.seenAt + lead + quarters * 15 * MINUTE,
    }),
  );

const cappedFiltersArb = fc.record({
  timeZone: fc.constantFrom(...ZONES),
  minHourlyPay: fc.integer({ min: 0, max: 40 }),
  minBlockPay: fc.integer({ min: 0, max: 100 }),
  maxHoursPerDay: fc.option(
    fc.integer({ min: 1, max: 48 }).map((q) => q / 2),
    {
      nil: undefined,
    },
  ),
  maxHoursPerWeek: fc.option(
    fc.integer({ min: 1, max: 120 }).map((q) => q / 2),
    {
      nil: undefined,
    },
  ),
  anyBlockPay: fc.option(fc.integer({ min: 50, max: 300 }), { nil: undefined }),
});

type CappedFilters = typeof cappedFiltersArb extends fc.Arbitrary<infer T> ? T : never;

const toFilters = (c: CappedFilters): DriverFilters => {
  const f = filtersWith({ timeZone: c.timeZone, minHourlyPay: c.minHourlyPay });
  f.minBlockPay = c.minBlockPay;
  if (c.maxHoursPerDay !== undefined) f.maxHoursPerDay = c.maxHoursPerDay;
  if (c.maxHoursPerWeek !== undefined) f.maxHoursPerWeek = c.maxHoursPerWeek;
  if (c.anyBlockPay !== undefined) f.anyBlockPay = c.anyBlockPay;
  return f;
};

/**
 * The catcher's order read from the docs: offers by the poll they came in (the instant they were
 * seen), and within one poll the best pay first, then the earliest start, then the id.
 */
function takenByPolls(offers: readonly SeenOffer[], f: DriverFilters): SeenOffer[] {
  const polls = new Map<number, SeenOffer[]>();
  for (const o of offers) polls.set(o.seenAt, [...(polls.get(o.seenAt) ?? []), o]);
  const taken: SeenOffer[] = [];
  for (const seenAt of [...polls.keys()].sort((a, b) => a - b)) {
    const poll = polls
      .get(seenAt)!
      .sort(
        (a, b) =>
          b.pay - a.pay ||
          a.startTime - b.startTime ||
          (a.offerId < b.offerId ? -1 : a.offerId > b.offerId ? 1 : 0),
      );
    for (const o of poll) {
      if (matchOffer(o, f, { now: seenAt, wonBlocks: taken }).accept) taken.push(o);
    }
  }
  return taken;
}

describe('caps and choices: properties', () => {
  it('the matcher refuses for a cap exactly when the hours of the day or week would pass it', () => {
    fc.assert(
      fc.property(
        cappedFiltersArb,
        seenOfferArb,
        fc.array(seenOfferArb, { maxLength: 12 }),
        (c, o, others) => {
          const f = { ...toFilters(c), minHourlyPay: 0, minBlockPay: 0 };
          // Won blocks that do not overlap the offer, so only the caps can refuse it.
          const wonBlocks = others
            .filter((b) => b.endTime <= o.startTime || b.startTime >= o.endTime)
            .map(won);
          const { maxHoursPerDay: _d, maxHoursPerWeek: _w, ...uncapped } = f;
          fc.pre(matchOffer(o, uncapped, { now: o.seenAt, wonBlocks }).accept);
          const result = matchOffer(o, f, { now: o.seenAt, wonBlocks });
          expect(result.reason).toBe(capRefusal(o, f, wonBlocks));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('whatever the offers, the blocks taken never pass the hours of a day or a week', () => {
    fc.assert(
      fc.property(cappedFiltersArb, fc.array(seenOfferArb, { maxLength: 60 }), (c, offers) => {
        const f = toFilters(c);
        const taken = takenByPolls(offers, f);
        const byDay = new Map<string, number>();
        const byWeek = new Map<string, number>();
        for (const b of taken) {
          const date = localDate(b.startTime, f.timeZone);
          const hours = (b.endTime - b.startTime) / HOUR;
          byDay.set(date, (byDay.get(date) ?? 0) + hours);
          byWeek.set(mondayOf(date), (byWeek.get(mondayOf(date)) ?? 0) + hours);
        }
        for (const h of byDay.values()) expect(h).toBeLessThanOrEqual(f.maxHoursPerDay ?? 24 * 9);
        for (const h of byWeek.values()) {
          expect(h).toBeLessThanOrEqual(f.maxHoursPerWeek ?? 24 * 9 * 7);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the preview takes what the catcher would: the same offers, poll by poll, best-paying first', () => {
    fc.assert(
      fc.property(
        cappedFiltersArb,
        cappedFiltersArb,
        fc.array(seenOfferArb, { maxLength: 60 }),
        (a, b, offers) => {
          const current = toFilters(a);
          const proposed = toFilters(b);
          const preview = previewFilters(offers, current, proposed, { now: NOW, days: 9 });
          for (const [filters, totals] of [
            [current, preview.current],
            [proposed, preview.proposed],
          ] as const) {
            const taken = takenByPolls(offers, filters);
            expect(totals.blocks).toBe(taken.length);
            expect(totals.pay).toBeCloseTo(
              taken.reduce((sum, o) => sum + o.pay, 0),
              6,
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('of wanted offers in one poll that all overlap, the best-paying one is taken', () => {
    const pollArb = fc.array(
      fc.record({
        offerId: fc.string({ minLength: 1, maxLength: 4 }),
        pay: fc.integer({ min: 1000, max: 40000 }).map((c) => c / 100),
        shift: fc.integer({ min: -3, max: 3 }).map((q) => q * 15 * MINUTE),
      }),
      { minLength: 1, maxLength: 8 },
    );
    fc.assert(
      fc.property(pollArb, (poll) => {
        const seenAt = NOW - DAY;
        // Every block holds seenAt + 2 h, so any two overlap.
        const offers: SeenOffer[] = poll.map((p) => ({
          offerId: p.offerId,
          serviceAreaId: 'A',
          seenAt,
          startTime: seenAt + HOUR + p.shift,
          endTime: seenAt + 3 * HOUR + p.shift,
          pay: p.pay,
        }));
        const f = filtersWith({ timeZone: 'UTC' });
        const preview = previewFilters(offers, f, f, { now: NOW });
        expect(preview.current).toEqual({
          blocks: 1,
          pay: Math.max(...poll.map((p) => p.pay)),
        });
        const best = [...offers].sort(compareForTaking)[0]!;
        const matcher = createOfferMatcher(f);
        for (const o of offers) {
          if (o === best) continue;
          expect(matcher(o, { now: seenAt, wonBlocks: [won(best)] }).reason).toBe('overlap');
        }
      }),
    );
  });

  it('an amount for any block never turns an accept into a refusal, and what it lets through pays it', () => {
    fc.assert(
      fc.property(cappedFiltersArb, seenOfferArb, (c, o) => {
        const f = toFilters(c);
        const { anyBlockPay: _off, ...without } = f;
        const ctx = { now: o.seenAt, wonBlocks: [] };
        const withIt = matchOffer(o, f, ctx);
        const withoutIt = matchOffer(o, without, ctx);
        if (withoutIt.accept) expect(withIt.accept).toBe(true);
        if (withIt.accept && !withoutIt.accept) {
          expect(withoutIt.reason).toBe('hourly-pay');
          expect(o.pay).toBeGreaterThanOrEqual(f.anyBlockPay!);
        }
        if (f.anyBlockPay !== undefined && o.pay >= f.anyBlockPay) {
          expect(withIt.reason).not.toBe('hourly-pay');
        }
      }),
    );
  });
});
