import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createOfferMatcher,
  everyDay,
  type MatchContext,
  matchOffer,
  type RefusalReason,
  scheduleSearch,
} from './offers.js';
import {
  type Block,
  blockSchema,
  type DriverFilters,
  driverFiltersSchema,
  NO_WAREHOUSE_MESSAGE,
  type Offer,
  offerSchema,
  type SavedDriverFilters,
  type ScheduleWindow,
  storedDriverFiltersSchema,
  WEEKDAYS,
  type Weekday,
  type WeeklySchedule,
} from './schemas/driver.js';

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;
const HOUR = 60 * MINUTE;

const ALL_DAY: ScheduleWindow = { start: '00:00', end: '24:00' };
const FREE: MatchContext = { now: 0, wonBlocks: [] };

function week(windows: ScheduleWindow[] = [], days: readonly Weekday[] = WEEKDAYS): WeeklySchedule {
  return Object.fromEntries(
    WEEKDAYS.map((day) => [day, days.includes(day) ? windows : []]),
  ) as WeeklySchedule;
}

function filtersWith(overrides: Partial<DriverFilters> = {}): DriverFilters {
  return {
    warehouses: ['DAU1'],
    minHourlyPay: 0,
    minBlockPay: 0,
    timeBufferMinutes: 0,
    weeklySchedule: week([ALL_DAY]),
    timeZone: 'America/New_York',
    stationRules: {},
    minBlockHours: 0,
    maxBlockHours: null,
    ...overrides,
  };
}

/** An offer between two ISO instants written with their offsets, so tests name real instants. */
function offer(start: string, end: string, overrides: Partial<Offer> = {}): Offer {
  return {
    offerId: 'offer-1',
    serviceAreaId: 'DAU1',
    startTime: Date.parse(start),
    endTime: Date.parse(end),
    pay: 100,
    ...overrides,
  };
}

function reasonFor(o: Offer, filters: DriverFilters, ctx: MatchContext = FREE) {
  return matchOffer(o, filters, ctx).reason;
}

// A Tuesday in June, far from any clock change: 10:00–13:00 in New York.
const TUESDAY = offer('2026-06-16T10:00:00-04:00', '2026-06-16T13:00:00-04:00');

describe('matchOffer', () => {
  it('accepts an offer that passes every rule', () => {
    expect(matchOffer(TUESDAY, filtersWith(), FREE)).toEqual({ accept: true, reason: null });
  });

  it('refuses an offer from a service area the driver does not work', () => {
    expect(reasonFor({ ...TUESDAY, serviceAreaId: 'DAU2' }, filtersWith())).toBe('warehouse');
  });

  it('accepts pay per hour equal to the minimum and refuses a cent less', () => {
    // $60 for 3 hours is $20 an hour.
    expect(reasonFor({ ...TUESDAY, pay: 60 }, filtersWith({ minHourlyPay: 20 }))).toBeNull();
    expect(reasonFor({ ...TUESDAY, pay: 59.99 }, filtersWith({ minHourlyPay: 20 }))).toBe(
      'hourly-pay',
    );
  });

  it('accepts pay equal to the block minimum and refuses a cent less', () => {
    expect(reasonFor({ ...TUESDAY, pay: 75 }, filtersWith({ minBlockPay: 75 }))).toBeNull();
    expect(reasonFor({ ...TUESDAY, pay: 74.99 }, filtersWith({ minBlockPay: 75 }))).toBe(
      'block-pay',
    );
  });

  it('accepts a block starting exactly the buffer after now and refuses one a millisecond sooner', () => {
    const filters = filtersWith({ timeBufferMinutes: 45 });
    const now = TUESDAY.startTime - 45 * MINUTE;
    expect(reasonFor(TUESDAY, filters, { now, wonBlocks: [] })).toBeNull();
    expect(reasonFor(TUESDAY, filters, { now: now + 1, wonBlocks: [] })).toBe('time-buffer');
  });

  it('refuses a block that no window of its day holds', () => {
    const filters = filtersWith({ weeklySchedule: week([{ start: '11:00', end: '18:00' }]) });
    expect(reasonFor(TUESDAY, filters)).toBe('schedule');
  });

  it('refuses a block spread over two windows that touch', () => {
    const filters = filtersWith({
      weeklySchedule: week([
        { start: '08:00', end: '12:00' },
        { start: '12:00', end: '16:00' },
      ]),
    });
    expect(reasonFor(TUESDAY, filters)).toBe('schedule');
  });

  it("uses the windows of the block's weekday only", () => {
    const window = { start: '08:00', end: '16:00' };
    expect(reasonFor(TUESDAY, filtersWith({ weeklySchedule: week([window], ['tue']) }))).toBeNull();
    expect(
      reasonFor(TUESDAY, filtersWith({ weeklySchedule: week([window], ['mon', 'wed']) })),
    ).toBe('schedule');
  });

  it("reads the start day in the driver's zone, not in UTC", () => {
    // Saturday 22:00–23:30 in New York is already Sunday in UTC.
    const late = offer('2026-06-20T22:00:00-04:00', '2026-06-20T23:30:00-04:00');
    const evening = [{ start: '20:00', end: '24:00' }];
    expect(reasonFor(late, filtersWith({ weeklySchedule: week(evening, ['sat']) }))).toBeNull();
    expect(reasonFor(late, filtersWith({ weeklySchedule: week(evening, ['sun']) }))).toBe(
      'schedule',
    );
    expect(
      reasonFor(late, filtersWith({ timeZone: 'UTC', weeklySchedule: week(evening, ['sat']) })),
    ).toBe('schedule');
  });

  it('takes 24:00 as the midnight ending the day, and no block runs past it', () => {
    const filters = filtersWith({ weeklySchedule: week([{ start: '20:00', end: '24:00' }]) });
    expect(
      reasonFor(offer('2026-06-16T22:00:00-04:00', '2026-06-17T00:00:00-04:00'), filters),
    ).toBeNull();
    // Both days are open all day, but a block fits inside one window of one day.
    expect(
      reasonFor(offer('2026-06-16T23:00:00-04:00', '2026-06-17T01:00:00-04:00'), filtersWith()),
    ).toBe('schedule');
  });

  it('refuses an offer ending no later than it starts for schedule', () => {
    const empty = { ...TUESDAY, endTime: TUESDAY.startTime };
    const inverted = { ...TUESDAY, endTime: TUESDAY.startTime - HOUR };
    expect(matchOffer(empty, filtersWith({ minHourlyPay: 1000 }), FREE)).toEqual({
      accept: false,
      reason: 'schedule',
    });
    expect(reasonFor(inverted, filtersWith())).toBe('schedule');
  });

  it('refuses an offer overlapping a won block, but not one that only touches it', () => {
    const before = { startTime: TUESDAY.startTime - 2 * HOUR, endTime: TUESDAY.startTime };
    const after = { startTime: TUESDAY.endTime, endTime: TUESDAY.endTime + HOUR };
    expect(reasonFor(TUESDAY, filtersWith(), { now: 0, wonBlocks: [before, after] })).toBeNull();
    const overlapping = { ...after, startTime: after.startTime - 1, offerId: 'won-1' };
    expect(reasonFor(TUESDAY, filtersWith(), { now: 0, wonBlocks: [before, overlapping] })).toBe(
      'overlap',
    );
  });

  it('gives the first failing rule when several fail', () => {
    const strict = filtersWith({
      minHourlyPay: 1000,
      minBlockPay: 1000,
      timeBufferMinutes: 60,
      weeklySchedule: week(),
    });
    const ctx = { now: TUESDAY.startTime, wonBlocks: [TUESDAY] };
    expect(reasonFor(TUESDAY, strict, ctx)).toBe('hourly-pay');
    expect(reasonFor(TUESDAY, { ...strict, minHourlyPay: 0 }, ctx)).toBe('block-pay');
    expect(reasonFor(TUESDAY, { ...strict, minHourlyPay: 0, minBlockPay: 0 }, ctx)).toBe(
      'time-buffer',
    );
    expect(reasonFor(TUESDAY, { ...strict, warehouses: ['DAU9'] }, ctx)).toBe('warehouse');
  });

  it("applies a station's own minimums to its blocks and the general ones elsewhere", () => {
    // $75 for 3 hours is $25 an hour.
    const filters = filtersWith({
      warehouses: ['DAU1', 'DAU2'],
      minHourlyPay: 20,
      minBlockPay: 50,
      timeBufferMinutes: 30,
      stationRules: { DAU2: { minHourlyPay: 30 } },
    });
    const paid = { ...TUESDAY, pay: 75 };
    expect(reasonFor(paid, filters)).toBeNull();
    expect(reasonFor({ ...paid, serviceAreaId: 'DAU2' }, filters)).toBe('hourly-pay');
    // Fields the station leaves out keep the general minimum.
    expect(reasonFor({ ...paid, serviceAreaId: 'DAU2', pay: 95 }, filters)).toBeNull();
    expect(reasonFor({ ...TUESDAY, serviceAreaId: 'DAU2', pay: 40 }, filters)).toBe('hourly-pay');
    const lower = filtersWith({
      warehouses: ['DAU1', 'DAU2'],
      minBlockPay: 50,
      timeBufferMinutes: 30,
      stationRules: { DAU2: { minBlockPay: 40, timeBufferMinutes: 10 } },
    });
    const cheapSoon = { ...TUESDAY, pay: 45 };
    const ctx = { now: TUESDAY.startTime - 20 * MINUTE, wonBlocks: [] };
    expect(reasonFor(cheapSoon, lower, ctx)).toBe('block-pay');
    expect(reasonFor({ ...cheapSoon, serviceAreaId: 'DAU2' }, lower, ctx)).toBeNull();
    expect(reasonFor({ ...cheapSoon, pay: 60 }, lower, ctx)).toBe('time-buffer');
  });

  it('refuses a block shorter than the shortest or longer than the longest, bounds included', () => {
    // TUESDAY lasts 3 hours.
    expect(reasonFor(TUESDAY, filtersWith({ minBlockHours: 3, maxBlockHours: 3 }))).toBeNull();
    expect(reasonFor(TUESDAY, filtersWith({ minBlockHours: 3.25 }))).toBe('block-length');
    expect(reasonFor(TUESDAY, filtersWith({ maxBlockHours: 2.75 }))).toBe('block-length');
    expect(reasonFor(TUESDAY, filtersWith({ minBlockHours: 0, maxBlockHours: null }))).toBeNull();
  });

  it('checks block length last, after overlap', () => {
    const won = { startTime: TUESDAY.startTime, endTime: TUESDAY.endTime };
    const short = filtersWith({ minBlockHours: 4 });
    expect(reasonFor(TUESDAY, short, { now: 0, wonBlocks: [won] })).toBe('overlap');
    expect(reasonFor(TUESDAY, short)).toBe('block-length');
  });

  it('takes blocks on both sides of midnight in a window that crosses it', () => {
    // Monday 2026-06-15 22:00 to Tuesday 02:00 in New York.
    const filters = filtersWith({
      weeklySchedule: week([{ start: '22:00', end: '02:00' }], ['mon']),
    });
    const at = (day: string, time: string) => `2026-06-${day}T${time}:00-04:00`;
    expect(reasonFor(offer(at('15', '23:00'), at('16', '01:00')), filters)).toBeNull();
    expect(reasonFor(offer(at('16', '01:00'), at('16', '02:00')), filters)).toBeNull();
    expect(reasonFor(offer(at('15', '22:00'), at('15', '23:30')), filters)).toBeNull();
    expect(reasonFor(offer(at('16', '01:30'), at('16', '02:15')), filters)).toBe('schedule');
    expect(reasonFor(offer(at('15', '21:45'), at('15', '23:00')), filters)).toBe('schedule');
    // Tuesday's own early hours are Monday's window; Tuesday night is not.
    expect(reasonFor(offer(at('16', '23:00'), at('17', '01:00')), filters)).toBe('schedule');
    expect(reasonFor(offer(at('14', '01:00'), at('14', '02:00')), filters)).toBe('schedule');
  });

  it('a window crossing into a spring-forward night lasts an hour less', () => {
    // Saturday 2026-03-07 22:00 to Sunday 04:00 in New York: 5 real hours.
    const filters = filtersWith({
      weeklySchedule: week([{ start: '22:00', end: '04:00' }], ['sat']),
    });
    const whole = offer('2026-03-07T22:00:00-05:00', '2026-03-08T04:00:00-04:00');
    expect(whole.endTime - whole.startTime).toBe(5 * HOUR);
    expect(reasonFor(whole, filters)).toBeNull();
    expect(reasonFor({ ...whole, endTime: whole.endTime + QUARTER }, filters)).toBe('schedule');
    expect(
      reasonFor(offer('2026-03-08T01:30:00-05:00', '2026-03-08T03:30:00-04:00'), filters),
    ).toBeNull();
  });

  it.each(['9:00', '09-00', '0a:00', '09:60', '24:01', '09:000'])(
    'throws on the window time %s, which is not HH:MM up to 24:00',
    (start) => {
      const filters = filtersWith({ weeklySchedule: week([{ start, end: '24:00' }]) });
      expect(() => createOfferMatcher(filters)).toThrow(RangeError);
    },
  );
});

// 2026-03-08 and 2026-11-01 are Sundays: the clocks spring forward at 02:00 and fall back at
// 02:00 in both zones. Instants are written with the offset the local clock has at them.
describe.each([
  { timeZone: 'America/New_York', standard: '-05:00', summer: '-04:00' },
  { timeZone: 'America/Chicago', standard: '-06:00', summer: '-05:00' },
])('daylight-saving days in $timeZone', ({ timeZone, standard, summer }) => {
  const onSunday = (...windows: ScheduleWindow[]) =>
    filtersWith({ timeZone, weeklySchedule: week(windows, ['sun']) });
  const between = (start: string, end: string) => offer(start, end);

  describe('spring forward, 2026-03-08 (02:00–03:00 never shown)', () => {
    const at = (time: string, offset: string) => `2026-03-08T${time}:00${offset}`;

    it('a 01:00–04:00 window lasts 2 real hours', () => {
      const whole = between(at('01:00', standard), at('04:00', summer));
      expect(whole.endTime - whole.startTime).toBe(2 * HOUR);
      const filters = onSunday({ start: '01:00', end: '04:00' });
      expect(reasonFor(whole, filters)).toBeNull();
      expect(reasonFor({ ...whole, startTime: whole.startTime - 1 }, filters)).toBe('schedule');
      expect(reasonFor({ ...whole, endTime: whole.endTime + 1 }, filters)).toBe('schedule');
    });

    it('a window edge inside the skipped hour falls on the jump', () => {
      const fromJump = onSunday({ start: '02:30', end: '05:00' });
      expect(reasonFor(between(at('03:00', summer), at('05:00', summer)), fromJump)).toBeNull();
      expect(reasonFor(between(at('01:45', standard), at('05:00', summer)), fromJump)).toBe(
        'schedule',
      );
      const toJump = onSunday({ start: '00:00', end: '02:30' });
      expect(reasonFor(between(at('00:00', standard), at('03:00', summer)), toJump)).toBeNull();
      expect(reasonFor(between(at('00:00', standard), at('03:15', summer)), toJump)).toBe(
        'schedule',
      );
    });

    it('a window wholly inside the skipped hour holds nothing', () => {
      const skipped = onSunday({ start: '02:00', end: '03:00' });
      expect(reasonFor(between(at('01:59', standard), at('03:01', summer)), skipped)).toBe(
        'schedule',
      );
    });

    it('00:00–24:00 holds the whole 23-hour day and nothing more', () => {
      const day = between(at('00:00', standard), `2026-03-09T00:00:00${summer}`);
      expect(day.endTime - day.startTime).toBe(23 * HOUR);
      const filters = onSunday(ALL_DAY);
      expect(reasonFor(day, filters)).toBeNull();
      expect(reasonFor({ ...day, endTime: day.endTime + 1 }, filters)).toBe('schedule');
    });
  });

  describe('fall back, 2026-11-01 (01:00–02:00 shown twice)', () => {
    const at = (time: string, offset: string) => `2026-11-01T${time}:00${offset}`;

    it('a block 01:30–02:30 fits 01:30–03:00 from the second 01:30 but not from the first', () => {
      const filters = onSunday({ start: '01:30', end: '03:00' });
      const first = between(at('01:30', summer), at('02:30', standard));
      const second = between(at('01:30', standard), at('02:30', standard));
      expect(first.endTime - first.startTime).toBe(2 * HOUR);
      expect(second.endTime - second.startTime).toBe(HOUR);
      // From the first 01:30 the clock goes back to 01:00, before the window opens.
      expect(reasonFor(first, filters)).toBe('schedule');
      expect(reasonFor(second, filters)).toBeNull();
      // A window open from 01:00 holds both.
      expect(reasonFor(first, onSunday({ start: '01:00', end: '03:00' }))).toBeNull();
    });

    it('a window ending in the repeated hour holds both passes of it, not the time between', () => {
      const filters = onSunday({ start: '00:00', end: '01:30' });
      expect(reasonFor(between(at('00:00', summer), at('01:30', summer)), filters)).toBeNull();
      expect(reasonFor(between(at('01:00', standard), at('01:30', standard)), filters)).toBeNull();
      expect(reasonFor(between(at('00:00', summer), at('01:30', standard)), filters)).toBe(
        'schedule',
      );
    });

    it('00:00–24:00 holds the whole 25-hour day and nothing more', () => {
      const day = between(at('00:00', summer), `2026-11-02T00:00:00${standard}`);
      expect(day.endTime - day.startTime).toBe(25 * HOUR);
      const filters = onSunday(ALL_DAY);
      expect(reasonFor(day, filters)).toBeNull();
      expect(reasonFor({ ...day, startTime: day.startTime - 1 }, filters)).toBe('schedule');
    });
  });
});

// ---- Properties -------------------------------------------------------------------------------
//
// Every generated time is on a quarter hour, and so are the zones' offsets and clock changes, so
// reading the driver's clock once per quarter hour of a block sees every time it shows: the
// oracle below is exact, and shares nothing with the matcher but Intl.

const ZONES = [
  'America/New_York',
  'America/Chicago',
  'Europe/London',
  'Australia/Lord_Howe', // a 30-minute shift
  'Asia/Kolkata',
  'UTC',
] as const;
// Days the zones above change their clocks on in 2026, and one on which none does.
const DAYS = [
  '2026-03-08',
  '2026-11-01',
  '2026-03-29',
  '2026-10-25',
  '2026-04-05',
  '2026-10-04',
  '2026-06-17',
] as const;

const instant = fc
  .tuple(fc.constantFrom(...DAYS), fc.integer({ min: -14 * 4, max: 38 * 4 }))
  .map(([day, quarters]) => Date.parse(`${day}T00:00:00Z`) + quarters * QUARTER);
const pad2 = (n: number) => String(n).padStart(2, '0');
const clock = (quarters: number) =>
  `${pad2(Math.floor(quarters / 4))}:${pad2((quarters % 4) * 15)}`;
const scheduleWindow = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .integer({ min: 0, max: 95 })
      .chain((start) =>
        fc
          .integer({ min: start + 1, max: 96 })
          .map((end) => ({ start: clock(start), end: clock(end) })),
      ),
  },
  {
    // Crossing midnight: ends, on the next day, before it starts.
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 95 })
      .chain((start) =>
        fc
          .integer({ min: 0, max: start - 1 })
          .map((end) => ({ start: clock(start), end: clock(end) })),
      ),
  },
);
const weeklySchedule = fc.record(
  Object.fromEntries(WEEKDAYS.map((day) => [day, fc.array(scheduleWindow, { maxLength: 3 })])) as {
    [day in Weekday]: fc.Arbitrary<ScheduleWindow[]>;
  },
);
const dollars = (max: number) => fc.integer({ min: 0, max: max * 100 }).map((cents) => cents / 100);

const stationRule = fc.record(
  {
    minHourlyPay: dollars(40),
    minBlockPay: dollars(150),
    timeBufferMinutes: fc.integer({ min: 0, max: 240 }),
  },
  { requiredKeys: [] },
);
const blockHours = fc.integer({ min: 0, max: 10 * 4 }).map((q) => q / 4);

const filters: fc.Arbitrary<SavedDriverFilters> = fc
  .record({
    warehouses: fc.subarray(['A', 'B', 'C', 'D'], { minLength: 1 }),
    minHourlyPay: dollars(40),
    minBlockPay: dollars(150),
    timeBufferMinutes: fc.integer({ min: 0, max: 240 }),
    weeklySchedule,
    timeZone: fc.constantFrom(...ZONES),
    rules: fc.array(stationRule, { minLength: 4, maxLength: 4 }),
    ruled: fc.subarray(['A', 'B', 'C', 'D']),
    minBlockHours: fc.oneof(fc.constant(0), blockHours),
    maxBlockHours: fc.oneof(
      fc.constant(null),
      blockHours.map((h) => h + 0.25),
    ),
  })
  .map(({ rules, ruled, ...f }) => ({
    ...f,
    stationRules: Object.fromEntries(
      ruled.filter((id) => f.warehouses.includes(id)).map((id, i) => [id, rules[i]!]),
    ),
  }));

// Mostly blocks of a few hours; sometimes long ones, empty ones and inverted ones.
const offerArb: fc.Arbitrary<Offer> = fc
  .record({
    serviceAreaId: fc.constantFrom('A', 'B', 'C', 'D', 'E'),
    startTime: instant,
    quarters: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 1, max: 40 }) },
      { weight: 1, arbitrary: fc.integer({ min: -4, max: 27 * 4 }) },
    ),
    pay: dollars(300),
  })
  .map(({ quarters, ...o }) => ({
    ...o,
    offerId: 'offer-1',
    endTime: o.startTime + quarters * QUARTER,
  }));

const wonBlocksNear = (o: Offer): fc.Arbitrary<Block[]> =>
  fc.array(
    fc
      .tuple(fc.integer({ min: -40, max: 40 }), fc.integer({ min: 1, max: 24 }))
      .map(([from, quarters]) => {
        const startTime = o.startTime + from * QUARTER;
        return { startTime, endTime: startTime + quarters * QUARTER };
      }),
    { maxLength: 3 },
  );

const scenario = fc.tuple(offerArb, filters).chain(([o, f]) =>
  fc
    .record({ lead: fc.integer({ min: -60, max: 600 }), wonBlocks: wonBlocksNear(o) })
    .map(({ lead, wonBlocks }) => ({
      offer: o,
      filters: f,
      ctx: { now: o.startTime - lead * MINUTE, wonBlocks },
    })),
);

/** Filters every offer of a few hours passes, unless it runs past its local midnight. */
const lenient = (timeZone: string): DriverFilters => filtersWith({ warehouses: ['A'], timeZone });

const clockReaders = new Map<string, Intl.DateTimeFormat>();

/** The date and minute of the day the driver's clock shows at `ts`. */
function clockAt(ts: number, timeZone: string): { date: string; minute: number } {
  let reader = clockReaders.get(timeZone);
  if (!reader) {
    reader = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    clockReaders.set(timeZone, reader);
  }
  const part = Object.fromEntries(reader.formatToParts(ts).map((p) => [p.type, p.value]));
  return {
    date: `${part.year}-${part.month}-${part.day}`,
    minute: Number(part.hour) * 60 + Number(part.minute),
  };
}

const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 24 * HOUR).toISOString().slice(0, 10);
const weekdayOf = (date: string) => WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]!;

/**
 * Whether the driver's clock shows a time of one window all block long: a window of the start
 * date (that date and a time from its start to its end, or on to the next date before its end
 * when it crosses midnight), or a crossing window of the date before.
 */
function clockStaysInOneWindow(o: Offer, f: DriverFilters): boolean {
  if (o.endTime <= o.startTime) return false;
  const shown: { date: string; minute: number }[] = [];
  for (let t = o.startTime; t < o.endTime; t += QUARTER) shown.push(clockAt(t, f.timeZone));
  const startDate = shown[0]!.date;
  return [addDays(startDate, -1), startDate].some((date) => {
    const next = addDays(date, 1);
    return f.weeklySchedule[weekdayOf(date)].some((w) => {
      const from = minuteOf(w.start);
      const to = minuteOf(w.end);
      return shown.every((c) =>
        from < to
          ? c.date === date && c.minute >= from && c.minute < to
          : (c.date === date && c.minute >= from) || (c.date === next && c.minute < to),
      );
    });
  });
}

/** The rules read straight from the issue, in its order. */
function firstFailingRule(o: Offer, f: DriverFilters, ctx: MatchContext): RefusalReason | null {
  const hours = (o.endTime - o.startTime) / HOUR;
  if (!f.warehouses.includes(o.serviceAreaId)) return 'warehouse';
  const own = f.stationRules?.[o.serviceAreaId] ?? {};
  if (hours > 0 && o.pay / hours < (own.minHourlyPay ?? f.minHourlyPay)) return 'hourly-pay';
  if (o.pay < (own.minBlockPay ?? f.minBlockPay)) return 'block-pay';
  const buffer = own.timeBufferMinutes ?? f.timeBufferMinutes;
  if (o.startTime < ctx.now + buffer * MINUTE) return 'time-buffer';
  if (!clockStaysInOneWindow(o, f)) return 'schedule';
  if (ctx.wonBlocks.some((b) => b.startTime < o.endTime && o.startTime < b.endTime)) {
    return 'overlap';
  }
  if (hours < (f.minBlockHours ?? 0) || hours > (f.maxBlockHours ?? Number.POSITIVE_INFINITY)) {
    return 'block-length';
  }
  return null;
}

describe('matchOffer properties', () => {
  it('the reason is the first failing rule in the documented order', () => {
    fc.assert(
      fc.property(scenario, ({ offer: o, filters: f, ctx }) => {
        const result = matchOffer(o, f, ctx);
        expect(result.reason).toBe(firstFailingRule(o, f, ctx));
        expect(result.accept).toBe(result.reason === null);
      }),
      { numRuns: 500 },
    );
  });

  it('an offer outside every warehouse is refused for warehouse whatever else', () => {
    fc.assert(
      fc.property(scenario, ({ offer: o, filters: f, ctx }) => {
        const elsewhere = { ...o, serviceAreaId: 'E' };
        expect(matchOffer(elsewhere, f, ctx)).toEqual({ accept: false, reason: 'warehouse' });
      }),
    );
  });

  it('raising the minimum pay never turns a refusal into an accept', () => {
    fc.assert(
      fc.property(scenario, dollars(50), dollars(150), ({ offer: o, filters: f, ctx }, h, b) => {
        const raised = { ...f, minHourlyPay: f.minHourlyPay + h, minBlockPay: f.minBlockPay + b };
        if (!matchOffer(o, f, ctx).accept) expect(matchOffer(o, raised, ctx).accept).toBe(false);
      }),
    );
  });

  it('an accepted offer lies inside one window of its local start day or a crossing one of the day before', () => {
    // Pay, buffer and length rules off, so that most offers reach the schedule rule.
    const open = fc.tuple(offerArb, filters).map(([o, f]) => ({
      o: { ...o, serviceAreaId: 'A' },
      f: {
        ...f,
        warehouses: ['A'],
        minHourlyPay: 0,
        minBlockPay: 0,
        timeBufferMinutes: 0,
        stationRules: {},
        minBlockHours: 0,
        maxBlockHours: null,
      },
    }));
    fc.assert(
      fc.property(open, ({ o, f }) => {
        const { accept } = matchOffer(o, f, FREE);
        expect(accept).toBe(clockStaysInOneWindow(o, f));
      }),
      { numRuns: 500 },
    );
  });

  it('an offer overlapping a won block is refused for overlap when all else passes', () => {
    const overlapping = fc
      .tuple(offerArb, fc.constantFrom(...ZONES), fc.double({ min: 0, max: 1, noNaN: true }))
      .chain(([o, timeZone, at]) => {
        // A won block around some instant of the offer.
        const inside = o.startTime + Math.floor(at * (o.endTime - o.startTime - 1));
        return fc
          .tuple(fc.integer({ min: 0, max: 8 * HOUR }), fc.integer({ min: 1, max: 8 * HOUR }))
          .map(([before, after]) => ({
            o: { ...o, serviceAreaId: 'A' },
            timeZone,
            won: { startTime: inside - before, endTime: inside + after },
          }));
      });
    fc.assert(
      fc.property(overlapping, ({ o, timeZone, won }) => {
        const f = lenient(timeZone);
        fc.pre(matchOffer(o, f, FREE).accept);
        expect(reasonFor(o, f, { now: 0, wonBlocks: [won] })).toBe('overlap');
      }),
    );
  });

  it('won blocks that only touch an offer never refuse it', () => {
    fc.assert(
      fc.property(offerArb, fc.constantFrom(...ZONES), (o, timeZone) => {
        const f = lenient(timeZone);
        const mine = { ...o, serviceAreaId: 'A' };
        fc.pre(matchOffer(mine, f, FREE).accept);
        const wonBlocks = [
          { startTime: o.startTime - HOUR, endTime: o.startTime },
          { startTime: o.endTime, endTime: o.endTime + HOUR },
        ];
        expect(reasonFor(mine, f, { now: 0, wonBlocks })).toBeNull();
      }),
    );
  });

  it('lowering a station minimum or widening the block length never turns an accept into a refusal', () => {
    fc.assert(
      fc.property(scenario, ({ offer: o, filters: f, ctx }) => {
        fc.pre(matchOffer(o, f, ctx).accept);
        const looser: SavedDriverFilters = {
          ...f,
          stationRules: Object.fromEntries(
            Object.keys(f.stationRules).map((id) => [id, { minHourlyPay: 0, minBlockPay: 0 }]),
          ),
          minBlockHours: 0,
          maxBlockHours: null,
        };
        // Without its own buffer a station falls back to the general one, so keep each station's.
        for (const [id, rule] of Object.entries(f.stationRules)) {
          looser.stationRules[id]!.timeBufferMinutes =
            rule.timeBufferMinutes ?? f.timeBufferMinutes;
        }
        expect(matchOffer(o, looser, ctx).accept).toBe(true);
      }),
    );
  });

  it('reads filters stored before station rules and block length existed as having none', () => {
    fc.assert(
      fc.property(scenario, ({ offer: o, filters: f, ctx }) => {
        const { stationRules: _r, minBlockHours: _min, maxBlockHours: _max, ...old } = f;
        const none = { ...f, stationRules: {}, minBlockHours: 0, maxBlockHours: null };
        expect(matchOffer(o, old as DriverFilters, ctx)).toEqual(matchOffer(o, none, ctx));
      }),
    );
  });

  it('a matcher compiled once decides a run of offers as matchOffer does each', () => {
    fc.assert(
      fc.property(filters, fc.array(offerArb, { maxLength: 30 }), (f, offers) => {
        const match = createOfferMatcher(f);
        for (const o of offers) expect(match(o, FREE)).toEqual(matchOffer(o, f, FREE));
      }),
    );
  });
});

describe('driverFiltersSchema', () => {
  const valid = filtersWith();

  it('accepts filters with overlapping, unsorted windows and an end of 24:00', () => {
    const weeklySchedule = week([
      { start: '18:00', end: '24:00' },
      { start: '06:00', end: '19:30' },
      { start: '00:00', end: '23:59' },
    ]);
    expect(driverFiltersSchema.parse({ ...valid, weeklySchedule })).toEqual({
      ...valid,
      weeklySchedule,
    });
  });

  it('refuses filters without a warehouse with the documented message', () => {
    const result = driverFiltersSchema.safeParse({ ...valid, warehouses: [] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([NO_WAREHOUSE_MESSAGE]);
    expect(NO_WAREHOUSE_MESSAGE).toBe('You must add at least one warehouse');
  });

  it.each([
    [{ start: '24:00', end: '24:00' }],
    [{ start: '09:00', end: '09:00' }],
    [{ start: '9:00', end: '17:00' }],
    [{ start: '09:00', end: '24:01' }],
    [{ start: '09:60', end: '17:00' }],
    [{ start: '09:00', end: '25:00' }],
  ])('refuses the window %o', (window) => {
    const result = driverFiltersSchema.safeParse({ ...valid, weeklySchedule: week([window]) });
    expect(result.success).toBe(false);
  });

  it('accepts a window crossing midnight, station rules for its warehouses and block lengths', () => {
    const filters = {
      ...valid,
      warehouses: ['DAU1', 'DAU2'],
      weeklySchedule: week([{ start: '22:00', end: '02:00' }]),
      stationRules: { DAU2: { minHourlyPay: 25, timeBufferMinutes: 15 } },
      minBlockHours: 2,
      maxBlockHours: 4.5,
    };
    expect(driverFiltersSchema.parse(filters)).toEqual(filters);
  });

  it('fills the fields a client leaves out with none', () => {
    const { stationRules: _r, minBlockHours: _min, maxBlockHours: _max, ...old } = valid;
    expect(driverFiltersSchema.parse(old)).toEqual({
      ...old,
      stationRules: {},
      minBlockHours: 0,
      maxBlockHours: null,
    });
  });

  it('names the field of a station rule for no warehouse and of a longest block under the shortest', () => {
    const result = driverFiltersSchema.safeParse({
      ...valid,
      stationRules: { DAU9: { minHourlyPay: 10 } },
      minBlockHours: 4,
      maxBlockHours: 3,
    });
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual([
      'stationRules.DAU9',
      'maxBlockHours',
    ]);
    for (const bad of [
      { stationRules: { DAU1: { minHourlyPay: -1 } } },
      { stationRules: { DAU1: { surprise: 1 } } },
      { minBlockHours: 25 },
      { maxBlockHours: 0 },
    ]) {
      expect(driverFiltersSchema.safeParse({ ...valid, ...bad }).success).toBe(false);
    }
  });

  it('reads a stored row without the later fields and with keys it does not know', () => {
    const { stationRules: _r, minBlockHours: _min, maxBlockHours: _max, ...old } = valid;
    const stored = {
      ...old,
      legacyFlag: true,
      weeklySchedule: { ...old.weeklySchedule, mon: [{ start: '06:00', end: '10:00', note: 'x' }] },
    };
    expect(driverFiltersSchema.safeParse(stored).success).toBe(false);
    expect(storedDriverFiltersSchema.parse(stored)).toEqual({
      ...valid,
      weeklySchedule: { ...old.weeklySchedule, mon: [{ start: '06:00', end: '10:00' }] },
    });
  });

  it('refuses an unknown time zone, a negative buffer and a negative minimum', () => {
    for (const bad of [
      { timeZone: 'America/Nowhere' },
      { timeBufferMinutes: -5 },
      { minHourlyPay: -1 },
      { minBlockPay: Number.POSITIVE_INFINITY },
    ]) {
      expect(driverFiltersSchema.safeParse({ ...valid, ...bad }).success).toBe(false);
    }
  });

  it('refuses a schedule missing a weekday', () => {
    const { sun: _sun, ...sixDays } = valid.weeklySchedule;
    expect(driverFiltersSchema.safeParse({ ...valid, weeklySchedule: sixDays }).success).toBe(
      false,
    );
  });

  it('parses offers, inverted ones included, and blocks with or without an offer id', () => {
    expect(offerSchema.parse(TUESDAY)).toEqual(TUESDAY);
    const inverted = { ...TUESDAY, endTime: TUESDAY.startTime - 1 };
    expect(offerSchema.parse(inverted)).toEqual(inverted);
    expect(offerSchema.safeParse({ ...TUESDAY, pay: -1 }).success).toBe(false);
    expect(blockSchema.parse({ startTime: 1, endTime: 2 })).toEqual({ startTime: 1, endTime: 2 });
    expect(blockSchema.parse({ startTime: 1, endTime: 2, offerId: 'o' }).offerId).toBe('o');
  });
});

describe('scheduleSearch', () => {
  // 2026-06-17 is a Wednesday.
  const utc = (iso: string) => Date.parse(`${iso}Z`);
  const saturdays = (window: ScheduleWindow) =>
    filtersWith({ timeZone: 'UTC', weeklySchedule: week([window], ['sat']) });

  it('searches from a day before a window opens until it closes, and says when it starts again', () => {
    const f = saturdays({ start: '06:00', end: '14:00' });
    expect(scheduleSearch(f, utc('2026-06-17T12:00:00'))).toEqual({
      searching: false,
      searchFrom: utc('2026-06-19T06:00:00'),
    });
    expect(scheduleSearch(f, utc('2026-06-19T06:00:00')).searching).toBe(true);
    expect(scheduleSearch(f, utc('2026-06-20T13:59:00')).searching).toBe(true);
    expect(scheduleSearch(f, utc('2026-06-20T14:00:00'))).toEqual({
      searching: false,
      searchFrom: utc('2026-06-26T06:00:00'),
    });
  });

  it("keeps searching in the next day's early hours of a window crossing midnight", () => {
    const f = saturdays({ start: '22:00', end: '02:00' });
    expect(scheduleSearch(f, utc('2026-06-21T01:59:00')).searching).toBe(true);
    expect(scheduleSearch(f, utc('2026-06-21T02:00:00')).searchFrom).toBe(
      utc('2026-06-26T22:00:00'),
    );
  });

  it('never searches with no window at all', () => {
    expect(scheduleSearch(filtersWith({ weeklySchedule: week() }), Date.now())).toEqual({
      searching: false,
      searchFrom: null,
    });
  });

  it('searches exactly when some quarter hour of the next day lies in a window', () => {
    const utcFilters = filters.map((f) => ({ ...f, timeZone: 'UTC' }));
    fc.assert(
      fc.property(utcFilters, instant, (f, now) => {
        const open = {
          ...f,
          warehouses: ['A'],
          minHourlyPay: 0,
          minBlockPay: 0,
          timeBufferMinutes: 0,
          stationRules: {},
          minBlockHours: 0,
          maxBlockHours: null,
        };
        let held = false;
        for (let t = now; t <= now + 24 * HOUR && !held; t += QUARTER) {
          held = matchOffer(
            { offerId: 'q', serviceAreaId: 'A', startTime: t, endTime: t + QUARTER, pay: 1 },
            open,
            FREE,
          ).accept;
        }
        const answer = scheduleSearch(f, now);
        expect(answer.searching).toBe(held);
        if (!answer.searching && answer.searchFrom !== null) {
          expect(answer.searchFrom).toBeGreaterThan(now);
          expect(scheduleSearch(f, answer.searchFrom).searching).toBe(true);
          expect(scheduleSearch(f, answer.searchFrom - 1).searching).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('everyDay', () => {
  it('gives every weekday its own copy of the same windows', () => {
    const windows = [{ start: '22:00', end: '02:00' }];
    const week = everyDay(windows);
    expect(Object.keys(week)).toEqual([...WEEKDAYS]);
    for (const day of WEEKDAYS) expect(week[day]).toEqual(windows);
    week.mon[0]!.start = '06:00';
    expect(week.tue[0]!.start).toBe('22:00');
    expect(windows[0]!.start).toBe('22:00');
  });
});
