// Whole calendar days in an IANA time zone, as epoch-millisecond bounds, for the date filters.
// Intl does the zone arithmetic, so 23- and 25-hour daylight-saving days come out right.

const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The runtime's own zone, the default wherever a caller gives none. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The first instant of `isoDay` (`YYYY-MM-DD`) in `timeZone`. */
export function startOfDay(isoDay: string, timeZone: string): number {
  const { year, month, day } = parseIsoDay(isoDay);
  return firstInstantOf(utcMs(year, month, day), timeZone);
}

/** The first instant after `isoDay` in `timeZone`: an exclusive end, the next day's start. */
export function endOfDay(isoDay: string, timeZone: string): number {
  const { year, month, day } = parseIsoDay(isoDay);
  return firstInstantOf(utcMs(year, month, day + 1), timeZone);
}

/** `DD/MM/YY` for the day `ts` falls on in `timeZone`, as the tables' expiration column shows. */
export function formatDayShort(ts: number, timeZone: string): string {
  const { year, month, day } = localDayAt(ts, timeZone);
  return `${pad2(day)}/${pad2(month)}/${pad2(((year % 100) + 100) % 100)}`;
}

/** `YYYY-MM-DD` for the day `ts` falls on in `timeZone` (exports, day keys). */
export function formatIsoDay(ts: number, timeZone: string): string {
  const { year, month, day } = localDayAt(ts, timeZone);
  const y = year >= 0 && year <= 9999 ? String(year).padStart(4, '0') : String(year);
  return `${y}-${pad2(month)}-${pad2(day)}`;
}

// Today's zones change offset only on quarter hours, so every instant of a quarter hour falls on
// the same local day: asking Intl once per quarter hour keeps formatting a large table cheap.
const QUARTER_HOUR = 900_000;
const MAX_CACHED_DAYS = 100_000;
const localDays = new Map<string, Map<number, WallClock>>();

function localDayAt(ts: number, timeZone: string): WallClock {
  let days = localDays.get(timeZone);
  if (!days) {
    days = new Map();
    localDays.set(timeZone, days);
  }
  const bucket = Math.floor(ts / QUARTER_HOUR);
  let clock = days.get(bucket);
  if (!clock) {
    if (days.size >= MAX_CACHED_DAYS) days.clear();
    clock = wallClockAt(bucket * QUARTER_HOUR, timeZone);
    days.set(bucket, clock);
  }
  return clock;
}

function parseIsoDay(isoDay: string): { year: number; month: number; day: number } {
  const match = ISO_DAY.exec(isoDay);
  if (match) {
    const year = Number(match[1]);
    const month = Number(match[2]);
    const day = Number(match[3]);
    // Date.UTC rolls 02-30 over into March; a day that survives the round trip is real.
    const date = new Date(utcMs(year, month, day));
    if (date.getUTCMonth() + 1 === month && date.getUTCDate() === day) return { year, month, day };
  }
  throw new RangeError(`Not a calendar day (YYYY-MM-DD): ${JSON.stringify(isoDay)}`);
}

/**
 * `wall` is a local midnight written as if it were UTC. It maps to one instant, to two when the
 * clocks fall back over midnight (the earlier one starts the day), or to none when they spring
 * forward over it (the day then starts at the jump). Offsets a day either side bracket the one
 * transition a day can hold.
 */
function firstInstantOf(wall: number, timeZone: string): number {
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const early = wall - Math.max(before, after);
  const late = wall - Math.min(before, after);
  if (early + offsetAt(early, timeZone) === wall) return early;
  if (late + offsetAt(late, timeZone) === wall) return late;
  // Midnight is skipped, so the day starts at the jump itself; halve the bracket down to the
  // second (zone rules change on whole seconds). Only a few zones' transition days get here.
  const jumped = offsetAt(late, timeZone);
  let lo = early;
  let hi = late;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(mid, timeZone) === jumped) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * An instant as ISO 8601 with the zone's offset at that moment, to the second:
 * `2026-12-01T09:00:00-05:00`. Scripts parse it; people read the local time.
 */
export function formatIsoDateTime(ts: number, timeZone: string): string {
  const offset = offsetAt(ts, timeZone);
  const local = new Date(ts + offset).toISOString().slice(0, 19);
  const minutes = Math.round(offset / 60_000);
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${local}${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** How far `timeZone`'s wall clock is ahead of UTC at instant `ts`, in milliseconds. */
export function offsetAt(ts: number, timeZone: string): number {
  const c = wallClockAt(ts, timeZone);
  const wholeSecond = ts - (((ts % 1000) + 1000) % 1000);
  return utcMs(c.year, c.month, c.day, c.hour, c.minute, c.second) - wholeSecond;
}

function wallClockAt(ts: number, timeZone: string): WallClock {
  const clock: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  let bc = false;
  for (const part of formatterFor(timeZone).formatToParts(ts)) {
    if (part.type === 'era') bc = part.value === 'B';
    else if (part.type in clock) clock[part.type as keyof WallClock] = Number(part.value);
  }
  // ISO years count 1 BC as 0, as Date does.
  if (bc) clock.year = 1 - clock.year;
  return clock;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'narrow',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Date.UTC, except that years 0–99 stay themselves instead of becoming 1900–1999. */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  return (
    new Date(0).setUTCFullYear(year, month - 1, day) + ((hour * 60 + minute) * 60 + second) * 1000
  );
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
