import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  endOfDay,
  formatDayShort,
  formatIsoDateTime,
  formatIsoDay,
  localTimeZone,
  startOfDay,
} from './days.js';
import { isoDaySchema } from './schemas/filters.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// Zones with 1-hour, 30-minute and midnight daylight-saving shifts, odd offsets, and none.
const ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'America/Santiago',
  'America/Sao_Paulo',
  'America/Havana',
  'Europe/London',
  'Europe/Madrid',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Beirut',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'UTC',
] as const;

/** An independent reading of the day an instant falls on: en-CA writes dates as YYYY-MM-DD. */
function dayOf(ts: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ts);
}

const isoDay = fc
  .integer({ min: Date.UTC(1995, 0, 1) / DAY, max: Date.UTC(2040, 11, 31) / DAY })
  .map((n) => new Date(n * DAY).toISOString().slice(0, 10));
const zone = fc.constantFrom(...ZONES);

describe('startOfDay and endOfDay', () => {
  it('make New York’s spring-forward day 23 hours long', () => {
    const start = startOfDay('2026-03-08', 'America/New_York');
    const end = endOfDay('2026-03-08', 'America/New_York');
    expect(start).toBe(Date.UTC(2026, 2, 8, 5));
    expect(end).toBe(Date.UTC(2026, 2, 9, 4));
    expect(end - start).toBe(23 * HOUR);
  });

  it('make New York’s fall-back day 25 hours long', () => {
    const start = startOfDay('2026-11-01', 'America/New_York');
    const end = endOfDay('2026-11-01', 'America/New_York');
    expect(start).toBe(Date.UTC(2026, 10, 1, 4));
    expect(end).toBe(Date.UTC(2026, 10, 2, 5));
    expect(end - start).toBe(25 * HOUR);
  });

  it('start a day whose midnight is skipped at the jump (Santiago, 2026-09-06)', () => {
    // Clocks go from 23:59:59 on the 5th straight to 01:00 on the 6th, at 04:00 UTC.
    expect(startOfDay('2026-09-06', 'America/Santiago')).toBe(Date.UTC(2026, 8, 6, 4));
    expect(endOfDay('2026-09-05', 'America/Santiago')).toBe(Date.UTC(2026, 8, 6, 4));
  });

  it('start a day whose midnight happens twice at the first one (Havana, 2026-11-01)', () => {
    // Cuba falls back from 01:00 to 00:00, so midnight on the 1st is first met at 04:00 UTC.
    expect(startOfDay('2026-11-01', 'America/Havana')).toBe(Date.UTC(2026, 10, 1, 4));
    expect(
      endOfDay('2026-11-01', 'America/Havana') - startOfDay('2026-11-01', 'America/Havana'),
    ).toBe(25 * HOUR);
  });

  it('read whole-day bounds for years before 100 without shifting them to the 1900s', () => {
    expect(startOfDay('0050-06-01', 'UTC')).toBe(new Date(0).setUTCFullYear(50, 5, 1));
    expect(startOfDay('0000-01-01', 'UTC')).toBe(new Date(0).setUTCFullYear(0, 0, 1));
  });

  it('endOfDay is the next day’s startOfDay', () => {
    fc.assert(
      fc.property(isoDay, zone, (day, timeZone) => {
        const next = new Date(Date.parse(`${day}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
        expect(endOfDay(day, timeZone)).toBe(startOfDay(next, timeZone));
      }),
    );
  });

  it('bound exactly the instants that fall on the day in the zone', () => {
    fc.assert(
      fc.property(isoDay, zone, (day, timeZone) => {
        const start = startOfDay(day, timeZone);
        const end = endOfDay(day, timeZone);
        expect(dayOf(start, timeZone)).toBe(day);
        expect(dayOf(end - 1, timeZone)).toBe(day);
        expect(dayOf(start - 1, timeZone) < day).toBe(true);
        expect(dayOf(end, timeZone) > day).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('make every New York day 23, 24 or 25 hours long, and 24 in UTC', () => {
    fc.assert(
      fc.property(isoDay, (day) => {
        const hours =
          (endOfDay(day, 'America/New_York') - startOfDay(day, 'America/New_York')) / HOUR;
        expect([23, 24, 25]).toContain(hours);
        expect(endOfDay(day, 'UTC') - startOfDay(day, 'UTC')).toBe(DAY);
      }),
    );
  });

  it('throw a RangeError naming the value for a day that does not exist or is misspelt', () => {
    for (const bad of [
      '2026-02-30',
      '26-1-1',
      '2026-13-01',
      '2026-00-10',
      '2026-1-01',
      '',
      '2026-02-29',
    ]) {
      expect(() => startOfDay(bad, 'UTC')).toThrow(RangeError);
      expect(() => endOfDay(bad, 'UTC')).toThrow(JSON.stringify(bad));
    }
    expect(startOfDay('2024-02-29', 'UTC')).toBe(Date.UTC(2024, 1, 29));
  });

  it('accept exactly the strings an ISO date schema accepts', () => {
    const digits = (min: number, max: number) =>
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const dayLike = fc
      .tuple(digits(2, 5), fc.constantFrom('-', '/'), digits(1, 3), fc.constant('-'), digits(1, 3))
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(dayLike, fc.string()), (text) => {
        const valid = isoDaySchema.safeParse(text).success;
        if (valid) expect(() => startOfDay(text, 'UTC')).not.toThrow();
        else expect(() => startOfDay(text, 'UTC')).toThrow(RangeError);
      }),
      { numRuns: 1000 },
    );
  });

  it('throw a RangeError for an unknown time zone', () => {
    expect(() => startOfDay('2026-01-01', 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('formatDayShort', () => {
  it('writes the day in the zone as DD/MM/YY', () => {
    expect(formatDayShort(Date.UTC(2026, 2, 8, 4, 59), 'America/New_York')).toBe('07/03/26');
    expect(formatDayShort(Date.UTC(2026, 2, 8, 5), 'America/New_York')).toBe('08/03/26');
    expect(formatDayShort(Date.UTC(2026, 2, 8, 5), 'Asia/Kolkata')).toBe('08/03/26');
    expect(formatDayShort(Date.UTC(2000, 0, 1), 'UTC')).toBe('01/01/00');
    expect(formatDayShort(Date.UTC(2009, 11, 31, 23), 'Europe/Madrid')).toBe('01/01/10');
  });

  it('names the day, month and two-digit year of any instant in the day', () => {
    fc.assert(
      fc.property(isoDay, zone, fc.double({ min: 0, max: 1, noNaN: true }), (day, timeZone, at) => {
        const start = startOfDay(day, timeZone);
        const ts = start + Math.floor(at * (endOfDay(day, timeZone) - start - 1));
        const [year, month, date] = day.split('-');
        expect(formatDayShort(ts, timeZone)).toBe(`${date}/${month}/${year!.slice(2)}`);
      }),
    );
  });
});

describe('localTimeZone', () => {
  it('is the zone the runtime formats dates in', () => {
    expect(localTimeZone()).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(() => startOfDay('2026-01-01', localTimeZone())).not.toThrow();
  });
});

describe('formatIsoDay', () => {
  it('names the same day for the first and the last instant of that day, in any zone', () => {
    fc.assert(
      fc.property(isoDay, zone, (day, timeZone) => {
        expect(formatIsoDay(startOfDay(day, timeZone), timeZone)).toBe(day);
        expect(formatIsoDay(endOfDay(day, timeZone) - 1, timeZone)).toBe(day);
        expect(formatIsoDay(endOfDay(day, timeZone), timeZone)).not.toBe(day);
      }),
    );
  });

  it('agrees with an independent Intl reading for any instant', () => {
    const reader = (timeZone: string) =>
      new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1995, 0, 1), max: Date.UTC(2040, 0, 1) }),
        zone,
        (ts, timeZone) => {
          expect(formatIsoDay(ts, timeZone)).toBe(reader(timeZone).format(ts));
        },
      ),
    );
  });
});

describe('formatIsoDateTime', () => {
  it('names the same second, with the offset the zone has at that instant', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) }),
        fc.constantFrom(...ZONES),
        (ts, zone) => {
          const text = formatIsoDateTime(ts, zone);
          expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
          expect(Date.parse(text)).toBe(ts - (ts % 1000));
          expect(text.slice(0, 10)).toBe(formatIsoDay(ts, zone));
        },
      ),
    );
  });

  it('writes New York in winter at -05:00', () => {
    expect(formatIsoDateTime(Date.UTC(2026, 11, 1, 14), 'America/New_York')).toBe(
      '2026-12-01T09:00:00-05:00',
    );
  });
});
