import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QUIET_HOURS, quietHoursRelease } from './delivery.js';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const instant = fc.integer({ min: at('2020-01-01T00:00:00Z'), max: at('2035-01-01T00:00:00Z') });
// Zones with daylight saving both ways, none, and a half-hour offset.
const zone = fc.constantFrom(
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'America/Phoenix',
  'Europe/London',
  'Australia/Sydney',
  'Asia/Kolkata',
  'UTC',
);

/** The wall clock in `timeZone` at `ts`, as [hour, minute, second, ms], read by Intl. */
function wall(ts: number, timeZone: string): [number, number, number, number] {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(ts);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return [part('hour'), part('minute'), part('second'), ((ts % 1000) + 1000) % 1000];
}

const isDay = (ts: number, timeZone: string) => {
  const [hour] = wall(ts, timeZone);
  return hour >= QUIET_HOURS.endHour && hour < QUIET_HOURS.startHour;
};

describe('quietHoursRelease', () => {
  it('lets a message out at once from 8 am to 9 pm in the zone', () => {
    fc.assert(
      fc.property(instant, zone, (ts, z) => {
        fc.pre(isDay(ts, z));
        expect(quietHoursRelease(ts, z)).toBe(ts);
      }),
    );
  });

  it('holds a message due at night until exactly 8:00 the next morning there, within a day', () => {
    fc.assert(
      fc.property(instant, zone, (ts, z) => {
        fc.pre(!isDay(ts, z));
        const release = quietHoursRelease(ts, z);
        expect(release).toBeGreaterThan(ts);
        // 9 pm to 8 am is 11 hours; a daylight-saving night is an hour longer at most.
        expect(release - ts).toBeLessThanOrEqual(12 * HOUR);
        expect(wall(release, z)).toEqual([8, 0, 0, 0]);
        // Nothing earlier would do: the moment before was still night there.
        expect(isDay(release - 1, z)).toBe(false);
      }),
    );
  });

  it('is settled: a released time releases at once', () => {
    fc.assert(
      fc.property(instant, zone, (ts, z) => {
        const release = quietHoursRelease(ts, z);
        expect(quietHoursRelease(release, z)).toBe(release);
      }),
    );
  });

  it('keeps 8 am on the wall across a daylight-saving night', () => {
    // New York springs forward on 2026-03-08 and falls back on 2026-11-01.
    expect(quietHoursRelease(at('2026-03-08T03:00:00Z'), 'America/New_York')).toBe(
      at('2026-03-08T12:00:00Z'),
    );
    expect(quietHoursRelease(at('2026-11-01T03:00:00Z'), 'America/New_York')).toBe(
      at('2026-11-01T13:00:00Z'),
    );
  });
});
