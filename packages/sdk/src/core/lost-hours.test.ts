import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIsoDay, offsetAt, startOfDay } from './days.js';
import {
  creditExpiration,
  LOST_TIME_REASONS,
  type LostStretch,
  lostHoursInWeek,
  weekOf,
  weeksTouched,
} from './lost-hours.js';
import { everyDay, scheduleStretches } from './offers.js';
import { WEEKDAYS, type WeeklySchedule } from './schemas/driver.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ON = { enabled: true, minimumMinutes: 60 };

// Whole-hour, half-hour and southern-hemisphere clock changes, and zones without any.
const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'America/Santiago',
  'Asia/Kolkata',
  'UTC',
] as const;

const clock = fc
  .integer({ min: 0, max: 96 })
  .map(
    (q) => `${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`,
  );

const window = fc
  .tuple(clock, clock)
  .filter(([start, end]) => start !== end && start !== '24:00')
  .map(([start, end]) => ({ start, end }));

const schedule: fc.Arbitrary<WeeklySchedule> = fc
  .tuple(...WEEKDAYS.map(() => fc.array(window, { maxLength: 2 })))
  .map((days) => Object.fromEntries(WEEKDAYS.map((d, i) => [d, days[i]])) as WeeklySchedule);

// Mondays from late 2025 to early 2027: every clock change of 2026 in every zone above.
const monday = fc
  .integer({ min: 0, max: 64 })
  .map((n) => new Date(Date.UTC(2025, 11, 29) + n * 7 * DAY).toISOString().slice(0, 10));

const reason = fc.constantFrom(...LOST_TIME_REASONS);

/** Outages around the week: from two days before it to two days after, up to three days long. */
function outagesAround(weekStart: number) {
  return fc.array(
    fc
      .record({
        from: fc.integer({ min: -2 * DAY, max: 9 * DAY }),
        length: fc.integer({ min: 1, max: 3 * DAY }),
        reason,
      })
      .map(({ from, length, reason }) => ({
        start: weekStart + from,
        end: weekStart + from + length,
        reason,
      })),
    { maxLength: 6 },
  );
}

const total = (lostMs: Record<string, number>) => Object.values(lostMs).reduce((a, b) => a + b, 0);

const case_ = fc
  .record({ zone: fc.constantFrom(...ZONES), week: monday, schedule })
  .chain(({ zone, week, schedule }) =>
    outagesAround(startOfDay(week, zone)).map((outages) => ({ zone, week, schedule, outages })),
  );

describe('credit for lost hours', () => {
  it('counts an outage once however it is split, repeated or overlapped by a weaker reason', () => {
    fc.assert(
      fc.property(case_, fc.double({ min: 0, max: 1, noNaN: true }), (c, cut) => {
        const filters = { weeklySchedule: c.schedule, timeZone: c.zone };
        const plain = lostHoursInWeek(filters, c.week, c.outages, ON);
        const messy: LostStretch[] = c.outages.flatMap((o) => {
          const at = Math.round(o.start + (o.end - o.start) * cut);
          return [
            { ...o, end: at },
            { ...o, start: at },
            o,
            { ...o, reason: 'throttled' as const },
          ];
        });
        const again = lostHoursInWeek(filters, c.week, messy, ON);
        expect(total(again.lostMs)).toBe(total(plain.lostMs));
        expect(again.lostMs['gateway-down']).toBe(plain.lostMs['gateway-down']);
        expect(again.lostMs['platform-outage']).toBe(plain.lostMs['platform-outage']);
      }),
      { numRuns: 150 },
    );
  });

  it('never counts more than the scheduled time of the week, nor more than the outages last', () => {
    fc.assert(
      fc.property(case_, (c) => {
        const filters = { weeklySchedule: c.schedule, timeZone: c.zone };
        const week = lostHoursInWeek(filters, c.week, c.outages, ON);
        const scheduled = scheduleStretches(filters, week.start, week.end).reduce(
          (n, [a, b]) => n + b - a,
          0,
        );
        const outageTime = c.outages.reduce((n, o) => n + o.end - o.start, 0);
        expect(total(week.lostMs)).toBeLessThanOrEqual(Math.min(scheduled, outageTime));
        expect(week.minutes).toBe(week.byReason.reduce((n, r) => n + r.minutes, 0));
        expect(week.minutes).toBeLessThanOrEqual(total(week.lostMs) / MINUTE);
      }),
      { numRuns: 150 },
    );
  });

  it('splits an outage across week boundaries without losing or adding a minute of schedule', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        monday,
        schedule,
        fc.integer({ min: -3 * DAY, max: 3 * DAY }),
        fc.integer({ min: 1, max: 16 * DAY }),
        reason,
        (zone, week, weeklySchedule, from, length, why) => {
          const filters = { weeklySchedule, timeZone: zone };
          // Around the week's end, so most outages cross into the next.
          const start = startOfDay(week, zone) + 7 * DAY + from;
          const outage = { start, end: start + length, reason: why };
          const weeks = weeksTouched(outage, zone);
          const perWeek = weeks.map((w) => lostHoursInWeek(filters, w, [outage], ON).lostMs[why]);
          const whole = scheduleStretches(filters, outage.start, outage.end).reduce(
            (n, [a, b]) => n + b - a,
            0,
          );
          expect(perWeek.reduce((a, b) => a + b, 0)).toBe(whole);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('runs a week from Monday 00:00 to Monday 00:00 local, 167 or 169 hours when the clocks change', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), monday, (zone, week) => {
        const allDay = {
          weeklySchedule: everyDay([{ start: '00:00', end: '24:00' }]),
          timeZone: zone,
        };
        const outage = { start: 0, end: 4_000_000_000_000, reason: 'gateway-down' as const };
        const result = lostHoursInWeek(allDay, week, [outage], ON);
        expect(formatIsoDay(result.start, zone)).toBe(week);
        expect(new Date(`${week}T00:00:00Z`).getUTCDay()).toBe(1);
        const shift = offsetAt(result.end, zone) - offsetAt(result.start, zone);
        expect(result.end - result.start).toBe(7 * DAY - shift);
        expect(result.lostMs['gateway-down']).toBe(result.end - result.start);
      }),
      { numRuns: 100 },
    );
  });

  it('names the Monday whose week holds the instant', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(2025, 11, 1), max: Date.UTC(2027, 1, 1) }),
        (zone, ts) => {
          const week = weekOf(ts, zone);
          const result = lostHoursInWeek(
            { weeklySchedule: everyDay([]), timeZone: zone },
            week,
            [],
            ON,
          );
          expect(result.start).toBeLessThanOrEqual(ts);
          expect(ts).toBeLessThan(result.end);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('credits only a week that reaches the minimum, and nothing when crediting is off', () => {
    fc.assert(
      fc.property(case_, fc.integer({ min: 0, max: 600 }), fc.boolean(), (c, minimum, enabled) => {
        const filters = { weeklySchedule: c.schedule, timeZone: c.zone };
        const week = lostHoursInWeek(filters, c.week, c.outages, {
          enabled,
          minimumMinutes: minimum,
        });
        expect(week.creditedMinutes).toBe(enabled && week.minutes >= minimum ? week.minutes : 0);
      }),
      { numRuns: 100 },
    );
  });

  it('splits a New York outage over the fall-back Sunday and into Monday: 25 hours, then 2', () => {
    const zone = 'America/New_York';
    const filters = {
      weeklySchedule: everyDay([{ start: '00:00', end: '24:00' }]),
      timeZone: zone,
    };
    const outage = {
      start: startOfDay('2026-11-01', zone),
      end: startOfDay('2026-11-02', zone) + 2 * HOUR,
      reason: 'platform-outage' as const,
    };
    expect(weeksTouched(outage, zone)).toEqual(['2026-10-26', '2026-11-02']);
    const first = lostHoursInWeek(filters, '2026-10-26', [outage], ON);
    const second = lostHoursInWeek(filters, '2026-11-02', [outage], ON);
    expect(first.byReason).toEqual([{ reason: 'platform-outage', minutes: 25 * 60 }]);
    expect(second.creditedMinutes).toBe(120);
  });

  it('counts a window crossing Sunday midnight in both weeks it touches', () => {
    const zone = 'America/Chicago';
    const weeklySchedule = { ...everyDay([]), sun: [{ start: '22:00', end: '02:00' }] };
    const filters = { weeklySchedule, timeZone: zone };
    const outage = {
      start: startOfDay('2026-03-08', zone),
      end: startOfDay('2026-03-10', zone),
      reason: 'gateway-down' as const,
    };
    expect(lostHoursInWeek(filters, '2026-03-02', [outage], ON).minutes).toBe(120);
    expect(lostHoursInWeek(filters, '2026-03-09', [outage], ON).minutes).toBe(120);
  });

  it('counts overlapping outages under the strongest reason and leaves short weeks uncredited', () => {
    const zone = 'UTC';
    const filters = {
      weeklySchedule: everyDay([{ start: '08:00', end: '12:00' }]),
      timeZone: zone,
    };
    const at = startOfDay('2026-06-01', zone);
    const week = lostHoursInWeek(
      filters,
      '2026-06-01',
      [
        { start: at + 7 * HOUR, end: at + 9 * HOUR, reason: 'throttled' },
        { start: at + 8.5 * HOUR, end: at + 9.25 * HOUR, reason: 'gateway-down' },
      ],
      ON,
    );
    expect(week.byReason).toEqual([
      { reason: 'gateway-down', minutes: 45 },
      { reason: 'throttled', minutes: 30 },
    ]);
    expect(week.creditedMinutes).toBe(75);
    const short = lostHoursInWeek(
      filters,
      '2026-06-01',
      [{ start: at + 8 * HOUR, end: at + 8 * HOUR + 59 * MINUTE, reason: 'throttled' }],
      ON,
    );
    expect(short.creditedMinutes).toBe(0);
  });

  it('adds credited time to the end of the paid time, or to now once that has passed', () => {
    expect(creditExpiration(10 * HOUR, HOUR, 90)).toBe(11.5 * HOUR);
    expect(creditExpiration(HOUR, 10 * HOUR, 60)).toBe(11 * HOUR);
  });
});
